"""The Knights of Camelot Adventure Journal as a record sheet (docs/koc-journal.md).

One drawing serves both uses: blank (``data=None``) in the print kit (``companion print koc
--only journals``), and filled from a player's view (``journal_pdf``: ``companion journal`` and
every turn's output). Page 1 is the record (the knight, his points, equipment, service,
castles, relations, adventures, and the Knave, Grail and Foreign War boxes); the pages after it
are the log of turns, with room for handwritten entries under each turn's printed ones.

Drawn with the print suite's pen (millimetres, origin lower left) inside the suite's safe area,
so the sheet prints at 100% on A4 and letter alike; the PDF comes from the suite's invariant
canvas (embedded fonts, fixed dates: the same journal gives the same bytes).
"""
from __future__ import annotations

import io
from typing import Any

from companion.render.printkit.units import MM

ACCENT = "#7a1f1f"        # rubric red: headings and rules
BAND = "#efe3c2"          # parchment: section bands
FAINT = "#b9b2a0"         # writing lines
LABEL = "#5a5348"
INK_FILL = "#1b2a4a"      # filled-in values, as if written in ink
GAP = 1.6
LOG_PITCH = 5.6           # one handwritten line in the log
LOG_MIN_LINES = 3


# ------------------------------------------------------------------------------ small drawing
def _fit(pen, x: float, y: float, w: float, text: str, size: float = 8.0, *, bold=False,
         colour=None, align="left", font=None, min_size: float = 5.5) -> None:
    """One line of text inside width ``w`` mm: smaller, then condensed, then cut short."""
    from companion.render import fonts
    from companion.render.printkit.fit import text_width

    if not text:
        return
    colour = colour or INK_FILL
    face = font or (fonts.SANS_BOLD if bold else fonts.SANS)
    condensed = fonts.CONDENSED_BOLD if bold else fonts.CONDENSED
    limit = w * MM
    while size > min_size and text_width(text, face, size) > limit:
        size -= 0.25
    if text_width(text, face, size) > limit and font is None:
        face = condensed
    while text_width(text, face, size) > limit and len(text) > 1:
        text = text[:-2].rstrip() + "…"
    anchor = {"left": x, "centre": x + w / 2, "right": x + w}[align]
    pen.text(anchor, y, text, size_pt=size, colour=colour, align=align, font=face)


def _wrap(text: str, w: float, size: float, font: str) -> list[str]:
    from companion.render.printkit.fit import text_width

    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and text_width(trial, font, size) > w * MM:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _value(pen, x: float, y: float, w: float, h: float, text: str, *, max_pt=8.5) -> None:
    """A filled-in value in the writing area (x, y, w, h): wrapped, shrunk to fit, cut short
    with an ellipsis when nothing else helps."""
    from companion.render import fonts

    if not text:
        return
    size = max_pt
    while True:
        lead = size * 1.18 / MM
        lines = _wrap(text, w, size, fonts.SANS)
        if len(lines) * lead <= h + 0.01 or size <= 5.5:
            break
        size -= 0.25
    room = max(1, int((h + 0.01) // lead))
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = lines[-1] + " …"
    top = y + h - size * 0.85 / MM
    for i, line in enumerate(lines):
        _fit(pen, x, top - i * lead, w, line, size)


def _rules(pen, x: float, y: float, w: float, h: float, pitch: float = 5.0) -> None:
    """Faint lines to write on."""
    n = int(h // pitch)
    for i in range(1, n + 1):
        yy = y + h - i * pitch + 0.8
        if yy > y + 0.5:
            pen.line(x, yy, x + w, yy, colour=FAINT, line_pt=0.3)


def _check(pen, x: float, y: float, ticked: bool, size: float = 3.0) -> None:
    pen.rect(x, y, size, size, stroke=LABEL, line_pt=0.5)
    if ticked:
        pen.line(x + 0.5, y + size * 0.5, x + size * 0.42, y + 0.5, colour=INK_FILL, line_pt=1.0)
        pen.line(x + size * 0.42, y + 0.5, x + size + 0.4, y + size + 0.4, colour=INK_FILL,
                 line_pt=1.0)


def _box(pen, x: float, y: float, w: float, h: float, label: str, value: str | None = None,
         *, data: bool, lines: bool = True, accent: bool = False, hint: str = "") -> tuple:
    """A labelled box; the writing area inside it (x, y, w, h) is returned."""
    pen.rect(x, y, w, h, stroke=ACCENT if accent else LABEL, line_pt=0.9 if accent else 0.5,
             radius=0.8)
    _fit(pen, x + 1.4, y + h - 2.6, w - 2.8, label.upper(), 5.5, bold=True,
         colour=ACCENT if accent else LABEL)
    if hint:
        _fit(pen, x + 1.4, y + 1.1, w - 2.8, hint, 5.5, colour=LABEL, align="right")
    inner = (x + 1.4, y + (3.0 if hint else 0.9), w - 2.8, h - 4.4 - (2.1 if hint else 0.0))
    if data and value:
        _value(pen, *inner, value)
    elif lines and inner[3] >= 4.5:
        _rules(pen, *inner)
    return inner


def _stat(pen, x: float, y: float, w: float, h: float, label: str, value: str | None,
          note: str, *, data: bool) -> None:
    from companion.render import fonts

    pen.rect(x, y, w, h, stroke=ACCENT, line_pt=0.9, radius=1.2)
    pen.rect(x, y + h - 4.2, w, 4.2, fill=BAND, stroke=None, radius=0)
    pen.line(x, y + h - 4.2, x + w, y + h - 4.2, colour=ACCENT, line_pt=0.5)
    _fit(pen, x + 1.2, y + h - 3.1, w - 2.4, label, 6.0, bold=True, colour=ACCENT,
         align="centre")
    if note:
        _fit(pen, x + 1.0, y + 1.2, w - 2.0, note, 5.5, colour=LABEL, align="centre")
    if data and value:
        _fit(pen, x + 1.0, y + (h - 4.2) / 2 - 1.2, w - 2.0, value, 15.0, colour=INK_FILL,
             align="centre", font=fonts.SERIF_BOLD)


def _band(pen, x: float, y: float, w: float, text: str, h: float = 4.6) -> None:
    pen.rect(x, y, w, h, fill=BAND, stroke=None)
    pen.line(x, y, x + w, y, colour=ACCENT, line_pt=0.6)
    _fit(pen, x + 1.5, y + 1.3, w - 3, text, 7.0, bold=True, colour=ACCENT)


def _row(x: float, w: float, parts: list[float]) -> list[tuple[float, float]]:
    """Split a row of width ``w`` into boxes of the given shares, GAP apart."""
    total = sum(parts)
    room = w - GAP * (len(parts) - 1)
    out, at = [], x
    for share in parts:
        bw = room * share / total
        out.append((at, bw))
        at += bw + GAP
    return out


# ------------------------------------------------------------------------------ the pages
def _header(pen, w: float, top: float, d: dict | None, title: str, subtitle: str,
            qr_size: float = 0.0) -> float:
    """The title band; returns the y under it."""
    from companion.render import fonts

    h = max(16.0, qr_size + 2)
    y = top - h
    pen.rect(0, y, w, h, fill=BAND, stroke=ACCENT, line_pt=1.0, radius=1.5)
    pen.icon("shield", 2.5, y + h / 2 - 5.5, 11, fill="#ffffff", ink=ACCENT, line_pt=0.8)
    right = w - (qr_size + 3 if qr_size else 2)
    _fit(pen, 16, y + h - 8.5, right - 16 - 62, title, 17, colour=ACCENT, font=fonts.SERIF_BOLD)
    _fit(pen, 16, y + 3.2, right - 16 - 62, subtitle, 7.0, colour=LABEL)
    # game and turn: filled, or lines to fill in
    for i, (label, value) in enumerate((("Game", (d or {}).get("game", "")),
                                        ("Game turn", str((d or {}).get("turn_text", "")
                                                          or "")),
                                        ("Processed", (d or {}).get("date", "")))):
        yy = y + h - 5 - i * 4.6
        _fit(pen, right - 60, yy, 17, label.upper(), 5.5, bold=True, colour=LABEL)
        if d is not None and value:
            _fit(pen, right - 42, yy, 41, value, 7.0)
        else:
            pen.line(right - 42, yy - 0.8, right - 1, yy - 0.8, colour=FAINT, line_pt=0.3)
    if qr_size and d is not None and d.get("link"):
        from companion.render.qr import draw_qr

        draw_qr(pen.canvas, d["link"], w - qr_size - 1.5, y + (h - qr_size) / 2, qr_size)
    return y - GAP


def draw_record(pen, w: float, h: float, d: dict | None, terms: dict | None) -> None:
    """Page 1: the knight's record. ``d`` is ``journal.journal_data`` (None: blank)."""
    from companion.koc.journal import goal_lines

    data = d is not None
    f = d["fields"] if data else {}
    grail_goal = (terms or {}).get("goal") == "grail"
    g = f.get
    y = _header(pen, w, h, d, "Adventure Journal",
                "Knights of Camelot · the record of a knight" + (
                    " · " + g("scenario") if data and g("scenario") else ""),
                qr_size=24.0 if data and d.get("link") else 0.0)

    def row(height: float, shares: list[float]):
        nonlocal y
        y -= height
        cells = _row(0, w, shares)
        y_here = y
        y -= GAP
        return [(cx, y_here, cw, height) for cx, cw in cells]

    # the knight
    a, b, c_, e = row(11, [34, 18, 24, 24])
    _box(pen, *a, "Knight", g("knight"), data=data)
    _box(pen, *b, "Player", g("player"), data=data)
    _box(pen, *c_, "Homeland (kingdom, castellany)", g("homeland"), data=data)
    _box(pen, *e, "Home castle", g("home"), data=data)
    goal, where = row(11, [62, 38])
    inner = _box(pen, *goal, "The scenario's goal" + (" · Quest of the Holy Grail"
                                                       if grail_goal else ""),
                 data=True, lines=False, accent=grail_goal)
    _value(pen, *inner, " · ".join(goal_lines(terms)), max_pt=7.0)
    _box(pen, *where, "Where he is", g("place"), data=data)
    # points
    _band(pen, 0, y - 4.6, w, "Points and wounds")
    y -= 4.6 + GAP
    cells = row(21, [1, 1, 1, 1, 1, 1.15])
    _stat(pen, *cells[0], "CP", g("cp"), "Chivalry Points", data=data)
    _stat(pen, *cells[1], "VP", g("vp"), "Virtue Points", data=data)
    _stat(pen, *cells[2], "VL", g("vl"), "CP ÷ VP, rounded up", data=data)
    _stat(pen, *cells[3], "WL", g("wl"), "CP ÷ 10 − poisoned wounds", data=data)
    _stat(pen, *cells[4], "Luck of the Day", g("luck"), "rolled each turn", data=data)
    px, py, pw, ph = cells[5]
    _stat(pen, px, py, pw, ph, "Poisoned wounds", (g("poison") or "").split(" ")[0] or None,
          "WL held at: " + ((g("poison") or "").partition("held at ")[2].rstrip(")") or "____"),
          data=data)
    # equipment and followers
    _band(pen, 0, y - 4.6, w, "Equipment and companions")
    y -= 4.6 + GAP
    eq, items, foll = row(14, [30, 32, 38])
    ex, ey, ew, eh = eq
    _box(pen, ex, ey, ew, eh, "Equipment", data=data, lines=False)
    kept = set(d["gear_kept"]) if data else set()
    for i, item in enumerate(("horse", "shield", "lance", "sword")):
        cx = ex + 2 + i * (ew - 3) / 4
        _check(pen, cx, ey + 3.5, item in kept)
        _fit(pen, cx + 3.8, ey + 4.1, (ew - 3) / 4 - 4.2, item, 6.5, colour=INK_FILL)
    _box(pen, *items, "Magic items", g("items"), data=data)
    _box(pen, *foll, "Companions (Dwarf, mascot, Men-at-Arms)", g("followers"), data=data)
    # service
    _band(pen, 0, y - 4.6, w, "Service and favour")
    y -= 4.6 + GAP
    lord, lady, arthur = row(16, [30, 34, 36])
    _box(pen, *lord, "Lord and his castle", g("lord"), data=data,
         hint=f"summonses: {g('lord_summons') or '____'}")
    _box(pen, *lady, "Lady and her castle", g("lady"), data=data,
         hint=f"summonses: {g('lady_summons') or '____'}")
    _check(pen, lady[0] + 1.4, lady[1] + 0.8, bool(g("token")), 2.4)
    _fit(pen, lady[0] + 4.4, lady[1] + 1.1, 16, "her Token", 5.5, colour=LABEL)
    ax, ay, aw, ah = arthur
    _box(pen, ax, ay, aw, ah, "King Arthur", data=data, lines=False)
    _check(pen, ax + 1.4, ay + ah - 7.2, bool(g("favour")), 2.6)
    _fit(pen, ax + 4.6, ay + ah - 6.8, 24, "favour of a friend", 6.0, colour=LABEL)
    _fit(pen, ax + aw / 2 + 2, ay + ah - 6.8, 16, "task bonus", 6.0, colour=LABEL)
    pen.line(ax + aw / 2 + 15, ay + ah - 7.4, ax + aw - 1.4, ay + ah - 7.4, colour=FAINT,
             line_pt=0.3)
    if data and g("bonus"):
        _fit(pen, ax + aw / 2 + 16, ay + ah - 6.8, aw / 2 - 18, g("bonus"), 8.0)
    _fit(pen, ax + 1.4, ay + 2.0, 9, "task", 6.0, colour=LABEL)
    pen.line(ax + 8, ay + 1.4, ax + aw - 1.4, ay + 1.4, colour=FAINT, line_pt=0.3)
    if data and g("task"):
        _fit(pen, ax + 8.5, ay + 2.0, aw - 10, g("task"), 7.0)
    com, own, off = row(12, [50, 25, 25])
    _box(pen, *com, "Comrades", g("comrades"), data=data)
    _box(pen, *own, "His own castle", g("own_castle"), data=data)
    _box(pen, *off, "Office", g("office"), data=data)
    # castles and people
    _band(pen, 0, y - 4.6, w, "Castles, oaths and enemies")
    y -= 4.6 + GAP
    fr, ou, ex_ = row(13, [50, 25, 25])
    _box(pen, *fr, "Friendly castles", g("friendly"), data=data)
    _box(pen, *ou, "Outlawed at", g("outlawed"), data=data)
    _box(pen, *ex_, "Exiled from", g("exiles"), data=data)
    en, oa, ch = row(13, [34, 33, 33])
    _box(pen, *en, "Enemies", g("enemies"), data=data)
    _box(pen, *oa, "Oaths", g("oaths"), data=data)
    _box(pen, *ch, "Knights fought in a challenge", g("challenged"), data=data)
    (cond,) = row(9, [1])
    _box(pen, *cond, "Enchantments and condition", g("condition"), data=data)
    # the Knave, the Grail, the Foreign War: the bottom row
    bottom_h = 23.0
    table_top = y
    y = bottom_h
    kn_, gr, wa = _row(0, w, [32, 38, 30])
    kx, ky, kw, kh = kn_[0], 0.0, kn_[1], bottom_h
    _box(pen, kx, ky, kw, kh, "Knave", data=data, lines=False)
    for i, (label, key) in enumerate((("KVP", "knave_kvp"), ("SP", "knave_sp"))):
        bx = kx + 1.4 + i * (kw - 2.8) / 2
        _fit(pen, bx, ky + kh - 6.6, 8, label, 6.0, bold=True, colour=LABEL)
        pen.line(bx + 6.5, ky + kh - 7.2, bx + (kw - 2.8) / 2 - 2, ky + kh - 7.2, colour=FAINT,
                 line_pt=0.3)
        if data and g(key):
            _fit(pen, bx + 7, ky + kh - 6.6, (kw - 2.8) / 2 - 9, g(key), 8.0)
    area = (kx + 1.4, ky + 0.8, kw - 2.8, kh - 9.2)
    if data and g("knave"):
        _value(pen, *area, g("knave"), max_pt=6.5)
    else:
        _fit(pen, kx + 1.4, ky + kh - 10.6, kw - 2.8, "acts, curses, prisoners:", 5.5,
             colour=LABEL)
        _rules(pen, area[0], area[1], area[2], area[3] - 3.2, 4.6)
    gx, gw = gr
    _box(pen, gx, 0, gw, bottom_h, "The Holy Grail", data=data, lines=False, accent=grail_goal)
    for i, (label, key) in enumerate((("been to Carbonek", "grail_carbonek"),
                                      ("bears the Grail", "grail_bears"))):
        cx = gx + 1.4 + i * (gw - 2.8) / 2
        _check(pen, cx, bottom_h - 7.4, bool(g(key)), 2.6)
        _fit(pen, cx + 3.4, bottom_h - 7.0, (gw - 2.8) / 2 - 4, label, 6.0, colour=LABEL)
    for i, (label, key) in enumerate((("leave to see it in", "grail_permission"),
                                      ("seen in", "grail_seen"))):
        yy = bottom_h - 12.4 - i * 5.0
        _fit(pen, gx + 1.4, yy, 20, label, 6.0, colour=LABEL)
        pen.line(gx + 21.5, yy - 0.6, gx + gw - 1.4, yy - 0.6, colour=FAINT, line_pt=0.3)
        if data and g(key):
            _fit(pen, gx + 22, yy, gw - 24, g(key), 7.0)
    if data and g("grail") and not (g("grail_permission") or g("grail_seen")):
        _fit(pen, gx + 1.4, 1.6, gw - 2.8, g("grail"), 6.0)
    wx, ww = wa
    _box(pen, wx, 0, ww, bottom_h, "Foreign War", data=data, lines=False)
    for i, (label, key) in enumerate((("for his Lord", "war_lord"), ("line", "war_line"))):
        yy = bottom_h - 7.0 - i * 5.0
        _fit(pen, wx + 1.4, yy, 15, label, 6.0, colour=LABEL)
        pen.line(wx + 15.5, yy - 0.6, wx + ww - 1.4, yy - 0.6, colour=FAINT, line_pt=0.3)
        if data and g(key):
            _fit(pen, wx + 16, yy, ww - 18, g(key), 7.0)
    if data and g("war"):
        _value(pen, wx + 1.4, 0.8, ww - 2.8, 7.6, g("war"), max_pt=6.5)
    else:
        _rules(pen, wx + 1.4, 0.8, ww - 2.8, 8.2, 4.2)
    # the adventures: what is left between
    _adventures(pen, 0, bottom_h + GAP, w, table_top - bottom_h - GAP, d)


def _adventures(pen, x: float, y: float, w: float, h: float, d: dict | None) -> None:
    _band(pen, x, y + h - 4.6, w, "Adventures · by number and marker · prophecies marked")
    cols = [("No.", 10), ("Adventure", 0), ("Marker", 14), ("Prophecy", 14), ("Site", 36),
            ("Result", 24)]
    fixed = sum(c[1] for c in cols)
    cols[1] = ("Adventure", w - fixed)
    head_y = y + h - 4.6 - 4.2
    xs, at = [], x
    for _, cw in cols:
        xs.append(at)
        at += cw
    for (label, cw), cx in zip(cols, xs):
        _fit(pen, cx + 1, head_y + 1.2, cw - 2, label.upper(), 5.5, bold=True, colour=LABEL)
    pen.line(x, head_y, x + w, head_y, colour=ACCENT, line_pt=0.5)
    rows = max(1, int((head_y - y) // 5.4))
    pitch = (head_y - y) / rows
    adventures = list((d or {}).get("adventures", []))
    if len(adventures) > rows:                 # the latest ones; the log keeps every one
        adventures = adventures[-rows:]
    for i in range(rows):
        top = head_y - i * pitch
        pen.line(x, top - pitch, x + w, top - pitch, colour=FAINT, line_pt=0.3)
        base = top - pitch + 1.6
        if i < len(adventures):
            a = adventures[i]
            _fit(pen, xs[0] + 1, base, cols[0][1] - 2, a["number"], 7.5)
            _fit(pen, xs[1] + 1, base, cols[1][1] - 2, a["label"], 7.5)
            _fit(pen, xs[2] + 1, base, cols[2][1] - 2, a["marker"], 7.5)
            _check(pen, xs[3] + 1.2, base - 0.5, a["prophecy"], 2.6)
            if a["prophecy"]:
                _fit(pen, xs[3] + 4.4, base, cols[3][1] - 5, "fulfilled" if a["fulfilled"]
                     else "", 6.0)
            _fit(pen, xs[4] + 1, base, cols[4][1] - 2, a["site"], 7.0)
            _fit(pen, xs[5] + 1, base, cols[5][1] - 2, a["result"], 7.0)
        else:
            _check(pen, xs[3] + 1.2, base - 0.5, False, 2.6)
    for cx in xs[1:]:
        pen.line(cx, y + 0.0, cx, head_y + 4.2, colour=FAINT, line_pt=0.3)
    pen.rect(x, y, w, h - 4.6, stroke=LABEL, line_pt=0.5)


def log_pages(d: dict | None, h: float, blank_turns: int | None = None) -> list[list[tuple]]:
    """The log split into pages: each page a list of (turn or None, entries, lines)."""
    usable = h - 16.0 - GAP - 6.0
    blocks: list[tuple] = []
    if d is not None:
        logged = dict(d["log"])
        last = max([d.get("last_turn") or 0] + list(logged))
        most = max(LOG_MIN_LINES, int(usable // LOG_PITCH) - 1)    # a turn longer than a page
        for turn in range(1, last + 1):
            entries = logged.get(turn, [])
            for at in range(0, max(len(entries), 1), most):
                part = entries[at:at + most]
                blocks.append((turn, part, max(LOG_MIN_LINES, min(len(part) + 1, most + 1))))
    pages: list[list[tuple]] = [[]]
    room = usable
    for block in blocks:
        need = block[2] * LOG_PITCH
        if need > room and pages[-1]:
            pages.append([])
            room = usable
        pages[-1].append(block)
        room -= need
    # the rest of the last page: turns still to come, to write in by hand
    next_turn = (blocks[-1][0] + 1) if blocks else None
    while room >= LOG_MIN_LINES * LOG_PITCH:
        pages[-1].append((next_turn, [], LOG_MIN_LINES))
        room -= LOG_MIN_LINES * LOG_PITCH
        next_turn = next_turn + 1 if next_turn is not None else None
    return pages


def draw_log(pen, w: float, h: float, d: dict | None, blocks: list[tuple], page: int,
             pages: int) -> None:
    """A page of the log of turns: each turn's printed entries, then lines for his own."""
    name = (d or {}).get("fields", {}).get("knight", "")
    y = _header(pen, w, h, d, "Log of Turns",
                "Adventure Journal" + (f" of {name}" if name else "") + " · what befell him, "
                "turn by turn" + (f" · log page {page} of {pages}" if pages > 1 else ""))
    turn_w, pts_w = 16.0, 30.0
    body_w = w - turn_w - pts_w
    pen.rect(0, y - 5.0, w, 5.0, fill=BAND, stroke=None)
    for label, x0, cw in (("Turn", 0, turn_w), ("What happened", turn_w, body_w),
                          ("CP · VP at the end", turn_w + body_w, pts_w)):
        _fit(pen, x0 + 1.2, y - 3.6, cw - 2.4, label.upper(), 5.6, bold=True, colour=ACCENT)
    y -= 5.0
    pen.line(0, y, w, y, colour=ACCENT, line_pt=0.6)
    for turn, entries, lines in blocks:
        height = lines * LOG_PITCH
        if turn is not None:
            from companion.render import fonts

            _fit(pen, 0, y - 6.0, turn_w, str(turn), 12.0, colour=ACCENT, align="centre",
                 font=fonts.SERIF_BOLD)
        else:
            pen.line(3, y - 6.4, turn_w - 3, y - 6.4, colour=FAINT, line_pt=0.3)
        for i in range(lines):
            base = y - (i + 1) * LOG_PITCH
            pen.line(turn_w + 1, base + 0.9, turn_w + body_w - 1, base + 0.9, colour=FAINT,
                     line_pt=0.3)
            if i < len(entries):
                _fit(pen, turn_w + 1.5, base + 1.7, body_w - 3, entries[i], 7.5, min_size=5.5)
        pen.line(turn_w + body_w + 3, y - height / 2 - 0.6, turn_w + body_w + pts_w / 2 - 2,
                 y - height / 2 - 0.6, colour=FAINT, line_pt=0.3)
        pen.line(turn_w + body_w + pts_w / 2 + 1, y - height / 2 - 0.6, w - 3,
                 y - height / 2 - 0.6, colour=FAINT, line_pt=0.3)
        y -= height
        pen.line(0, y, w, y, colour=LABEL, line_pt=0.5)
    pen.line(turn_w, y, turn_w, y + sum(b[2] for b in blocks) * LOG_PITCH, colour=LABEL,
             line_pt=0.4)
    pen.line(turn_w + body_w, y, turn_w + body_w, y + sum(b[2] for b in blocks) * LOG_PITCH,
             colour=LABEL, line_pt=0.4)


# ------------------------------------------------------------------------------ blank, in the kit
def blank_drawer(terms: dict | None):
    """``draw(pen, w, h, k)`` for the kit's FreePages: page 0 the record, page 1 the log."""
    def draw(pen, w: float, h: float, k: int) -> None:
        if k == 0:
            draw_record(pen, w, h, None, terms)
        else:
            draw_log(pen, w, h, None, log_pages(None, h)[0], 1, 1)
    return draw


def journal_parts() -> list:
    """The blank journals of the KoC kit (``--only journals``): the standard sheet, and the
    Quest of the Holy Grail's, whose goal box and Grail box are what that scenario tracks."""
    from companion.koc.scenarios import builtin
    from companion.render.printkit import FreePages

    # in duplex each journal is one sheet: the record, and its log of turns on the back
    return [FreePages(title="Adventure Journal", name="journal", part_kind="journals",
                      count=2, draw=blank_drawer(builtin("basic")), sheets="own"),
            FreePages(title="Adventure Journal (Quest of the Holy Grail)", name="journal-grail",
                      part_kind="journals", count=2, draw=blank_drawer(builtin("grail")),
                      sheets="own")]


# ------------------------------------------------------------------------------ filled
def journal_pdf(d: dict, terms: dict | None, paper: str = "a4") -> bytes:
    """A filled journal (``journal.journal_data`` of a player's view) as PDF bytes: the record
    and as many log pages as the history needs. Same data, same bytes."""
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.layout import content_area
    from companion.render.printkit.options import MIN_MARGIN_MM, parse_paper
    from companion.render.printkit.pdfcanvas import new_canvas
    from companion.render.printkit.pen import Pen

    size = parse_paper(paper)
    buf = io.BytesIO()
    knight = d["fields"]["knight"]
    c = new_canvas(buf, size, title=f"{d['game']}: Adventure Journal of {knight}",
                   subject=f"Knights of Camelot Adventure Journal, game turn {d['turn']}",
                   keywords=["koc", "adventure journal", size.name])
    safe, notice, area = content_area(size, MIN_MARGIN_MM)
    w, h = area.w / MM, area.h / MM
    logs = log_pages(d, h)
    label = f"Adventure Journal of {d['fields']['player']} · game {d['game']} · private"
    drawers: list[Any] = [lambda pen: draw_record(pen, w, h, d, terms)]
    for i, blocks in enumerate(logs):
        drawers.append(lambda pen, i=i, blocks=blocks: draw_log(pen, w, h, d, blocks, i + 1,
                                                              len(logs)))
    for n, drawer in enumerate(drawers, start=1):
        c.saveState()
        c.translate(area.x, area.y)
        c.scale(MM, MM)
        drawer(Pen(c, w, h, 0.0, "adventure journal"))
        c.restoreState()
        draw_notice(c, notice, label, f"page {n} of {len(drawers)}")
        c.showPage()
    c.save()
    return buf.getvalue()
