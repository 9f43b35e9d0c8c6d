"""Printable Gral components through the print suite: the board, blank influence sheets, pawn
standees and a rules summary; and a player's filled-in sheet."""
from __future__ import annotations

import io
from typing import Any

from companion import __version__
from companion.gral.render import LINE, draw_board, draw_grail, draw_symbol, fit_font, hex_rgb, tint
from companion.gral.views import codes, view
from companion.render.fonts import SANS, SANS_BOLD, register_fonts

MM = 72 / 25.4
BOARD_MM = 180.0


def board_data() -> dict[str, Any]:
    """The board at the start of a game, as the public view shows it."""
    from companion.gral.kind import KIND
    from companion.gral.rules import new_state

    w = KIND.world
    state = new_state(w, ["-", "--"], "-", "standard", {})
    return view(KIND, state, "public")["board"]


def _in_points(pen):
    """The pen's canvas with one unit = one point (the pen's canvas counts millimetres)."""
    c = pen.canvas
    c.saveState()
    c.scale(1 / MM, 1 / MM)
    return c


def draw_board_part(pen) -> None:
    """The board with its key, at 1:1 in a BOARD_MM x (BOARD_MM + 36) mm box."""
    data = board_data()
    c = _in_points(pen)
    side = BOARD_MM * MM
    key_h = 36 * MM
    draw_board(c, data, 0, key_h, side, show_pieces=False)
    # the key stands clear of the frame the board is cut along (its left edge is x = 0)
    inset = 4 * MM
    y = key_h - 7 * MM
    c.setFont(SANS_BOLD, 9)
    c.setFillColorRGB(*LINE)
    c.drawString(inset, y, "Die Jagd nach dem Gral")
    c.setFont(SANS, 8)
    y -= 6 * MM
    for k, o in enumerate(data["orders"]):
        x = inset + (k % 2) * side / 2
        yy = y - (k // 2) * 6 * MM
        draw_symbol(c, o["symbol"], x + 2 * MM, yy + 1 * MM, 3.5 * MM, hex_rgb(o["colour"]))
        c.setFillColorRGB(*LINE)
        c.drawString(x + 6 * MM, yy, f"{o['name']}: headquarters {o['headquarters']}")
    y -= 14 * MM
    draw_grail(c, inset + 2 * MM, y + 1 * MM, 4 * MM)
    c.setFillColorRGB(*LINE)
    c.drawString(inset + 6 * MM, y, f"The grail starts on {data['grail']['field']}. A pawn steps "
                 "to a field that shares an edge" + (" or a corner." if data["diagonal"] else "."))
    c.restoreState()


def draw_sheet(c, width: float, height: float, sheet: dict[str, Any] | None,
               player: str | None, caption: str) -> None:
    """An influence sheet in the box (0, 0, width, height) points: two bars of units to cross
    out, and a box per initiate. With ``sheet`` it is filled in from the store."""
    from companion.gral.kind import KIND

    w = KIND.world
    code = codes(w)
    initiates = [{"id": i.id, "name": i.name, "order": w.order[i.order].name, "size": i.size,
                  "code": code[i.id]} for i in w.initiates]
    orders = {o.name: {"symbol": o.symbol, "colour": o.colour} for o in w.orders}
    units = [{"id": u.id, "bar": u.bar, "value": u.value} for u in w.units]
    top = height
    c.setFillColorRGB(*LINE)
    c.setFont(SANS_BOLD, 15)
    c.drawString(0, top - 15, "Influence sheet")
    c.setFont(SANS, 8.5)
    c.drawString(0, top - 28, caption)
    c.setFont(SANS, 9)
    c.drawString(0, top - 46, "Player:")
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(*LINE)
    c.line(36, top - 48, 36 + 76 * MM, top - 48)
    if player:
        size = fit_font(c, player, SANS_BOLD, 11, 74 * MM)
        c.setFont(SANS_BOLD, size)
        c.drawString(40, top - 45, player)
    assigned = sheet["units"] if sheet else {}
    name_of = {i["id"]: i["name"] for i in initiates}
    code_of = {i["name"]: i["code"] for i in initiates}
    box = min(14 * MM, (width - 14 * MM) / 10 - 1.5 * MM)
    y = top - 62 - box
    for bar in sorted({u["bar"] for u in units}):
        row = [u for u in units if u["bar"] == bar]
        c.setFont(SANS_BOLD, 9)
        c.setFillColorRGB(*LINE)
        c.drawString(0, y + box / 2 - 3, f"Bar {bar}")
        for k, u in enumerate(row):
            x = 14 * MM + k * (box + 1.5 * MM)
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
                c.drawCentredString(x + box / 2, y + 1.6, code_of[name_of[assigned[u["id"]]]])
                c.setLineWidth(0.5)
        y -= box + 4 * MM
    c.setFont(SANS, 7.5)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.drawString(0, y + box - 2 * MM, "Cross out a unit when you assign it and write its value "
                 "in the initiate's box. Units are never split and never moved.")
    gap = 5 * MM
    bw = (width - gap) / 2
    rows = (len(initiates) + 1) // 2
    area_top = y + box - 6 * MM
    bh = min(34 * MM, (area_top - rows * 3 * MM) / rows)
    unit_value = {u["id"]: u["value"] for u in units}
    for k, i in enumerate(initiates):
        x = (k % 2) * (bw + gap)
        by = area_top - (k // 2 + 1) * (bh + 3 * MM)
        o = orders[i["order"]]
        c.setStrokeColorRGB(*LINE)
        c.setFillColorRGB(*tint(hex_rgb(o["colour"]), 0.88))
        c.rect(x, by, bw, bh, stroke=1, fill=1)
        draw_symbol(c, o["symbol"], x + 6 * MM, by + bh - 6 * MM, 6 * MM, hex_rgb(o["colour"]))
        c.setFillColorRGB(*LINE)
        c.setFont(SANS_BOLD, 10)
        c.drawString(x + 12 * MM, by + bh - 6.5 * MM, i["name"])
        c.setFont(SANS, 7.5)
        c.drawString(x + 12 * MM, by + bh - 10.5 * MM,
                     f"{i['order']}, {i['size']} figure ({i['code']})")
        # two lines to write on: the influence line takes a handwritten "100" with room to
        # spare, the paid line a few sums such as "-10 -10"
        c.setFont(SANS, 7)
        base = by + 3 * MM
        c.drawString(x + 3 * MM, base, PAID_LABEL)
        line_x1 = x + bw - 3 * MM
        line_x0 = line_x1 - INFLUENCE_LINE_MM * MM
        label_x = line_x0 - 1.5 * MM - c.stringWidth(INFLUENCE_LABEL, SANS, 7)
        c.drawString(label_x, base, INFLUENCE_LABEL)
        paid_x0 = x + 3 * MM + c.stringWidth(PAID_LABEL, SANS, 7) + 1.5 * MM
        paid_x1 = min(paid_x0 + 18 * MM, label_x - 4 * MM)
        c.setStrokeColorRGB(*LINE)
        c.setLineWidth(0.5)
        c.line(line_x0, base - 1.2, line_x1, base - 1.2)
        if paid_x1 > paid_x0 + 8 * MM:
            c.line(paid_x0, base - 1.2, paid_x1, base - 1.2)
        if sheet:
            mine = sorted((u for u, t in assigned.items() if t == i["id"]),
                          key=lambda s: (s[0], int(s[1:])))
            values = [unit_value[u] for u in mine]
            paid = sheet["paid"].get(i["id"], 0)
            c.setFont(SANS_BOLD, 11)
            if values:
                c.drawString(x + 4 * MM, by + bh / 2 - 3 * MM, " + ".join(map(str, values)))
            if paid:
                c.setFont(SANS_BOLD, 8)
                c.drawString(paid_x0 + 1 * MM, base, f"-{paid}")
            c.setFont(SANS_BOLD, 8)
            c.drawRightString(line_x1 - 1 * MM, base, str(sum(values) - paid))


PAID_LABEL = "Paid for blowing covers:"
INFLUENCE_LABEL = "Influence:"
INFLUENCE_LINE_MM = 24.0
"""The line for an initiate's influence: room for a handwritten "100" (about 3 x 5 mm a
figure) and more."""


def draw_blank_sheet(pen, width_mm: float, height_mm: float, index: int) -> None:
    c = _in_points(pen)
    draw_sheet(c, width_mm * MM, height_mm * MM, None, None,
               "Die Jagd nach dem Gral: 100 points in units of 1 to 10. Keep it hidden.")
    c.restoreState()


def standee_panel(initiate) -> Any:
    """A standee panel for one initiate: order colour, symbol, name."""
    from companion.gral.kind import KIND

    w = KIND.world
    order = w.order[initiate.order]

    def draw(pen, width_mm: float, height_mm: float) -> None:
        pen.rect(-pen.bleed_mm, -pen.bleed_mm, width_mm + 2 * pen.bleed_mm,
                 height_mm + 2 * pen.bleed_mm, fill=order.colour, stroke=None)
        pen.rect(1.5, 1.5, width_mm - 3, height_mm - 3, fill=tint(hex_rgb(order.colour), 0.85),
                 stroke=None, radius=1.5)
        c = _in_points(pen)
        draw_symbol(c, order.symbol, width_mm / 2 * MM, height_mm * 0.62 * MM,
                    min(width_mm, height_mm) * 0.45 * MM, hex_rgb(order.colour))
        c.restoreState()
        pen.text_box(2.5, 2.5, width_mm - 5, height_mm * 0.32, f"{initiate.name}\n{order.name}",
                     max_pt=8, min_pt=5.5, align="centre", valign="bottom")

    return draw


def grail_panel(pen, width_mm: float, height_mm: float) -> None:
    pen.rect(-pen.bleed_mm, -pen.bleed_mm, width_mm + 2 * pen.bleed_mm,
             height_mm + 2 * pen.bleed_mm, fill="#f3e2a9", stroke=None)
    c = _in_points(pen)
    draw_grail(c, width_mm / 2 * MM, height_mm * 0.6 * MM, min(width_mm, height_mm) * 0.55 * MM)
    c.restoreState()
    pen.text_box(2, 2, width_mm - 4, height_mm * 0.25, "The Holy Grail", max_pt=8, min_pt=5.5,
                 align="centre", valign="bottom")


SUMMARY = [
    ("Aim", [
        "Nobody owns a pawn: everybody may move every initiate. You win if the initiate who "
        "carries the grail into his own order's headquarters is the one you hold the most "
        "influence on.",
    ]),
    ("Your turn", [
        "Either move one initiate one field (sharing an edge), or assign influence instead.",
        "Moving: any initiate, with or without the grail. The grail may be taken from the field "
        "left or entered, carried, or dropped before or after the step; never taken from "
        "another initiate.",
        "Assigning: cross out units on your sheet and write them in initiates' boxes. Units are "
        "never split, never moved. With four or more players: one initiate per turn.",
    ]),
    ("Objections", [
        "Anyone with influence on the moving initiate may object by showing some of it. The "
        "mover must show as much to go on; the objector must then show more, and so on.",
        "Influence of different objectors is never added; nobody may back someone else's move.",
        "A rejected mover tries another move. Only if every possible move is rejected may they "
        "assign influence instead.",
    ]),
    ("Blowing a cover", [
        "The moving initiate uncovers another on the same field (after a step, with two or "
        "three players). It costs 10 of the actor's points on the moving initiate, which must "
        "be there when announcing; paid only if it succeeds.",
        "The uncovered initiate leaves the board; all influence on him is revealed and lost. "
        "A grail he carried stays on the field and may be taken.",
        "With four or more players: move or blow, not both.",
    ]),
    ("The end", [
        "The game ends the moment an initiate carries the grail into his own headquarters (he "
        "cannot drop it there after the step). All sheets are shown; the most influence on the "
        "bearer wins; a tie goes to the player who moved.",
        "The Original (four players): each player has a headquarters; whoever's headquarters the "
        "grail reaches wins.",
    ]),
]


def kit():
    from companion.gral.kind import KIND
    from companion.render.printkit import (Board, Bullets, FreePages, Heading, Kit, Note,
                                           Paragraph, ReferenceSheet, Standee, Standees, Table)

    w = KIND.world
    tall = [i for i in w.initiates if i.size == "tall"]
    small = [i for i in w.initiates if i.size == "small"]
    blocks = []
    for title, lines in SUMMARY:
        blocks.append(Heading(title))
        blocks.append(Bullets(lines))
    blocks.append(Heading("Orders and headquarters"))
    blocks.append(Table(["Order", "Headquarters", "Initiates"],
                        [[o.name, w.field[o.headquarters].name,
                          ", ".join(i.name for i in w.initiates if i.order == o.id)]
                         for o in w.orders]))
    blocks.append(Paragraph("The sheet holds 100 points: bar A has one unit of each value 1 to "
                            "10, bar B one of each value 1 to 9."))
    return Kit(
        game="gral", title="Die Jagd nach dem Gral",
        subject="board, influence sheets, pawns, rules summary",
        notes=[Note("Cut out the standees, fold them along the dashed lines and glue the "
                    "bases.", ["standees"]),
               Note("Each player needs one influence sheet per game; keep it hidden.",
                    ["sheets"])],
        parts=[
            Board(title="Board", width_mm=BOARD_MM, height_mm=BOARD_MM + 36,
                  draw=draw_board_part),
            # each player's own, kept hidden: in duplex none is printed behind another
            FreePages(title="Influence sheets", draw=draw_blank_sheet, count=8,
                      part_kind="sheets", name="sheets", same_pages=True, sheets="each"),
            # the tall and the small figures share a sheet, each size in a row of its own
            Standees(title="Initiates and the grail", figure_mm=42, width_mm=26,
                     figures=[Standee(i.name, draw=standee_panel(i)) for i in tall]
                     + [Standee(i.name, draw=standee_panel(i), figure_mm=32, width_mm=22)
                        for i in small]
                     + [Standee("The Holy Grail", draw=grail_panel, figure_mm=32,
                                width_mm=22)]),
            ReferenceSheet(title="Rules summary", blocks=blocks),
        ])


def filled_sheet_pdf(game, turn, player: str, paper: str = "a4") -> bytes:
    """A player's sheet as the store holds it at ``turn`` (private to that player)."""
    from reportlab.lib.pagesizes import A4, LETTER
    from reportlab.pdfgen.canvas import Canvas

    register_fonts()
    size = {"a4": A4, "letter": LETTER}[paper]
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=1, initialFontName=SANS)
    c.setTitle(f"{game.id}: influence sheet of {player}")
    c.setSubject("influence sheet")
    c.setAuthor("companion")
    c.setCreator(f"companion {__version__}")
    margin = 14 * MM
    c.saveState()
    c.translate(margin, 16 * MM)
    draw_sheet(c, size[0] - 2 * margin, size[1] - margin - 16 * MM, turn.state["sheets"][player],
               player, f"Game {game.id}, after turn {turn.number} ({turn.processed_at}). Private.")
    c.restoreState()
    c.setFont(SANS, 6.5)
    c.setFillColorRGB(0.45, 0.45, 0.45)
    c.drawCentredString(size[0] / 2, 8 * MM, "Print at 100% (actual size), not 'fit to page'.")
    c.showPage()
    c.save()
    return buffer.getvalue()
