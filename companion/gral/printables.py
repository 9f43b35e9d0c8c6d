"""Printable Gral components: the board, blank influence sheets, a player's filled sheet."""
from __future__ import annotations

import io
from typing import Any

from companion import __version__
from companion.gral.render import LINE, draw_board, draw_symbol, fit_font, hex_rgb, tint
from companion.gral.views import codes, view
from companion.render.fonts import CONDENSED, SANS, SANS_BOLD, register_fonts

MM = 72 / 25.4


def _paper(paper: str):
    from reportlab.lib.pagesizes import A4, LETTER

    return {"a4": A4, "letter": LETTER}[paper]


def _canvas(buffer, paper: str, title: str, subject: str):
    from reportlab.pdfgen.canvas import Canvas

    register_fonts()
    c = Canvas(buffer, pagesize=_paper(paper), invariant=1, initialFontName=SANS)
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("companion")
    c.setCreator(f"companion {__version__}")
    return c


def _actual_size_note(c, width: float) -> None:
    c.setFont(SANS, 6.5)
    c.setFillColorRGB(0.45, 0.45, 0.45)
    c.drawCentredString(width / 2, 8 * MM, "Print at 100% (actual size), not 'fit to page'.")


def board_data() -> dict[str, Any]:
    from companion.gral.kind import KIND
    from companion.gral.rules import new_state

    w = KIND.world
    state = new_state(w, ["-", "--"], "-", "standard", {})
    return view(KIND, state, "public")["board"]


def draw_board_page(c, paper: str, data: dict[str, Any]) -> None:
    width, height = _paper(paper)
    side = min(width, height) - 2 * 14 * MM
    x0 = (width - side) / 2
    y0 = height - 30 * MM - side
    c.setFont(SANS_BOLD, 16)
    c.setFillColorRGB(*LINE)
    c.drawCentredString(width / 2, height - 20 * MM, "Die Jagd nach dem Gral")
    draw_board(c, data, x0, y0, side, show_pieces=False)
    c.setFont(SANS, 8)
    y = y0 - 8 * MM
    for o in data["orders"]:
        draw_symbol(c, o["symbol"], x0 + 4 * MM, y + 1 * MM, 3.5 * MM, hex_rgb(o["colour"]))
        c.setFillColorRGB(*LINE)
        c.drawString(x0 + 8 * MM, y, f"{o['name']}: headquarters {o['headquarters']}")
        y -= 5 * MM
    c.drawString(x0, y - 2 * MM, f"The grail starts on {data['grail']['field']}. Pawns step to a "
                 "field that shares an edge" + (" or a corner." if data["diagonal"] else "."))
    _actual_size_note(c, width)


def draw_sheet(c, paper: str, sheet: dict[str, Any] | None, player: str | None,
               initiates: list[dict[str, Any]], orders: dict[str, dict], units: list[dict],
               caption: str) -> None:
    """An influence sheet: two bars of units to cross out, one box per initiate."""
    width, height = _paper(paper)
    margin = 16 * MM
    c.setFillColorRGB(*LINE)
    c.setFont(SANS_BOLD, 15)
    c.drawString(margin, height - 22 * MM, "Influence sheet")
    c.setFont(SANS, 9)
    c.drawString(margin, height - 28 * MM, caption)
    c.drawString(margin, height - 36 * MM, "Player:")
    c.setLineWidth(0.5)
    c.line(margin + 14 * MM, height - 36.5 * MM, margin + 90 * MM, height - 36.5 * MM)
    if player:
        size = fit_font(c, player, SANS_BOLD, 11, 74 * MM)
        c.setFont(SANS_BOLD, size)
        c.drawString(margin + 16 * MM, height - 35.5 * MM, player)
    assigned = sheet["units"] if sheet else {}
    code = {i["name"]: i["code"] for i in initiates}
    id_to_name = {i["id"]: i["name"] for i in initiates}
    y = height - 52 * MM
    box = 14 * MM
    for bar in sorted({u["bar"] for u in units}):
        row = [u for u in units if u["bar"] == bar]
        c.setFont(SANS_BOLD, 9)
        c.setFillColorRGB(*LINE)
        c.drawString(margin, y + box / 2 - 3, f"Bar {bar}")
        for k, u in enumerate(row):
            x = margin + 14 * MM + k * (box + 1.5 * MM)
            c.setStrokeColorRGB(*LINE)
            c.setFillColorRGB(1, 1, 1)
            c.rect(x, y, box, box, stroke=1, fill=1)
            c.setFillColorRGB(*LINE)
            c.setFont(SANS_BOLD, 13)
            c.drawCentredString(x + box / 2, y + box / 2 - 2, str(u["value"]))
            c.setFont(SANS, 5.5)
            c.drawString(x + 1.2, y + box - 6, u["id"])
            if u["id"] in assigned:
                c.setStrokeColorRGB(0.7, 0.1, 0.1)
                c.setLineWidth(1.2)
                c.line(x + 2, y + 2, x + box - 2, y + box - 2)
                c.setFont(SANS_BOLD, 6.5)
                c.setFillColorRGB(0.7, 0.1, 0.1)
                c.drawCentredString(x + box / 2, y + 1.6, code[id_to_name[assigned[u["id"]]]])
                c.setLineWidth(0.5)
        y -= box + 5 * MM
    c.setFont(SANS, 7.5)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.drawString(margin, y + 2 * MM, "Cross out a unit when you assign it and write its value in "
                 "the initiate's box. Units are never split and never moved.")
    y -= 6 * MM
    cols = 2
    gap = 6 * MM
    bw = (width - 2 * margin - gap) / cols
    bh = 34 * MM
    unit_value = {u["id"]: u["value"] for u in units}
    for k, i in enumerate(initiates):
        x = margin + (k % cols) * (bw + gap)
        by = y - (k // cols + 1) * (bh + 4 * MM)
        o = orders[i["order"]]
        c.setStrokeColorRGB(*LINE)
        c.setFillColorRGB(*tint(hex_rgb(o["colour"]), 0.88))
        c.rect(x, by, bw, bh, stroke=1, fill=1)
        draw_symbol(c, o["symbol"], x + 6 * MM, by + bh - 6 * MM, 6 * MM, hex_rgb(o["colour"]))
        c.setFillColorRGB(*LINE)
        c.setFont(SANS_BOLD, 10)
        c.drawString(x + 12 * MM, by + bh - 6.5 * MM, i["name"])
        c.setFont(SANS, 7.5)
        c.drawString(x + 12 * MM, by + bh - 10.5 * MM, f"{i['order']}, {i['size']} figure "
                     f"({i['code']})")
        c.setFont(SANS, 7)
        c.drawString(x + 3 * MM, by + 3 * MM, "Paid for blowing covers:")
        c.drawRightString(x + bw - 3 * MM, by + 3 * MM, "Influence: ______")
        if sheet:
            mine = [u for u, t in assigned.items() if id_to_name.get(t) == i["name"]]
            values = [unit_value[u] for u in sorted(mine, key=lambda s: (s[0], int(s[1:])))]
            paid = sheet["paid"].get(i["id"], 0)
            c.setFont(SANS_BOLD, 11)
            if values:
                c.drawString(x + 4 * MM, by + bh / 2 - 3 * MM, " + ".join(map(str, values)))
            if paid:
                c.setFont(SANS_BOLD, 8)
                c.drawString(x + 36 * MM, by + 3 * MM, f"-{paid}")
            c.setFillColorRGB(1, 1, 1)
            c.rect(x + bw - 14 * MM, by + 2 * MM, 11 * MM, 4.5 * MM, stroke=0, fill=1)
            c.setFillColorRGB(*LINE)
            c.setFont(SANS_BOLD, 8)
            c.drawRightString(x + bw - 3 * MM, by + 3 * MM, str(sum(values) - paid))
    _actual_size_note(c, width)


def _sheet_parts():
    from companion.gral.kind import KIND

    w = KIND.world
    code = codes(w)
    initiates = [{"id": i.id, "name": i.name, "order": w.order[i.order].name, "size": i.size,
                  "code": code[i.id]} for i in w.initiates]
    orders = {o.name: {"symbol": o.symbol, "colour": o.colour} for o in w.orders}
    units = [{"id": u.id, "bar": u.bar, "value": u.value} for u in w.units]
    return initiates, orders, units


def kit_pdf(paper: str = "a4", sheets: int = 8) -> bytes:
    """The board and ``sheets`` blank influence sheets."""
    buffer = io.BytesIO()
    c = _canvas(buffer, paper, "Die Jagd nach dem Gral: print-and-play kit",
                "board and influence sheets")
    c.bookmarkPage("board")
    c.addOutlineEntry("Board", "board", level=0)
    draw_board_page(c, paper, board_data())
    c.showPage()
    initiates, orders, units = _sheet_parts()
    for n in range(sheets):
        key = f"sheet{n + 1}"
        c.bookmarkPage(key)
        if n == 0:
            c.addOutlineEntry("Influence sheets", key, level=0)
        draw_sheet(c, paper, None, None, initiates, orders, units,
                   "Die Jagd nach dem Gral: 100 points in units of 1 to 10. Keep it hidden.")
        c.showPage()
    c.save()
    return buffer.getvalue()


def filled_sheet_pdf(game, turn, player: str, paper: str = "a4") -> bytes:
    """A player's sheet as the store holds it at ``turn`` (private to that player)."""
    buffer = io.BytesIO()
    c = _canvas(buffer, paper, f"{game.id}: influence sheet of {player}", "influence sheet")
    initiates, orders, units = _sheet_parts()
    sheet = turn.state["sheets"][player]
    draw_sheet(c, paper, sheet, player, initiates, orders, units,
               f"Game {game.id}, after turn {turn.number} ({turn.processed_at}). Private.")
    c.showPage()
    c.save()
    return buffer.getvalue()
