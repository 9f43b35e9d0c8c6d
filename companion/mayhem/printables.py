"""The Medieval Mayhem print-and-play kit through the print suite: the 70 draw cards (poker size,
one common back), the 18 two-sided character cards (tarot size), the scoring pad and a one-page
player aid. Every card text comes from the card data (generated from the effects)."""
from __future__ import annotations

from typing import Any

COLOURS = {"Crimson": "#a3202b", "Gilded": "#b8891a", "Sapphire": "#1f4e9c"}
PAPER = "#fbf6ea"
INK = "#231f1c"
TYPE_ICON = {"Dragon": "dragon", "Princess": "crown", "Knight": "helmet", "Treasure": "chest",
             "Attack": "sword", "Defense": "shield"}
CHARACTER_ICON = {"The Thief": "key", "The Warlord": "axe", "The Scavenger": "eye",
                  "The Marshal": "banner", "The Seer": "moon", "The Enchantress": "heart"}
ZONES = (("play", "arrow", "play"), ("set", "cards", "set"), ("hand", "gauntlet", "hand"))


def mix(a: str, b: str, t: float) -> str:
    ra = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    rb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ra, rb))


# ------------------------------------------------------------------------------ small drawings
def draw_symbol(pen, name: str, x: float, y: float, s: float, colour: str) -> None:
    """An emblem in the square (x, y, s) mm: the rules' icons for types and zones."""
    if name in ("crown", "sword", "shield", "arrow", "key", "axe", "eye", "banner", "moon",
                "heart", "star"):
        pen.icon(name, x, y, s, fill=mix(colour, "#ffffff", 0.55), ink=colour, line_pt=0.7)
        return
    # drawn in its own unit square, so that the kit draws each emblem look once (pen.stamp)
    pen.stamp(("mayhem symbol", name, colour), x, y, s,
              lambda unit: _draw_emblem(unit, name, 0.0, 0.0, 1.0, colour))


def _draw_emblem(pen, name: str, x: float, y: float, s: float, colour: str) -> None:
    u = lambda px, py: (x + px * s, y + py * s)  # noqa: E731
    light = mix(colour, "#ffffff", 0.55)
    if name == "dragon":
        # a dragon's head in profile: horns, brow, long snout, open jaw
        pen.polygon([u(.06, .22), u(.24, .40), u(.44, .42), u(.62, .34), u(.90, .30),
                     u(.70, .44), u(.94, .52), u(.90, .60), u(.66, .64), u(.52, .74),
                     u(.60, .96), u(.42, .78), u(.34, .92), u(.30, .74), u(.16, .70),
                     u(.20, .60), u(.06, .56), u(.16, .46)], fill=light, stroke=colour,
                    line_pt=0.7)
        pen.circle(*u(.50, .60), s * .05, fill=colour, stroke=None)
        pen.circle(*u(.86, .56), s * .02, fill=colour, stroke=None)
    elif name == "helmet":
        pen.polygon([u(.22, .10), u(.22, .55), u(.30, .80), u(.50, .92), u(.70, .80),
                     u(.78, .55), u(.78, .10)], fill=light, stroke=colour, line_pt=0.7)
        pen.rect(*u(.30, .42), s * .40, s * .07, fill=colour, stroke=None)
        pen.line(*u(.50, .12), *u(.50, .40), colour=colour, line_pt=0.9)
    elif name == "chest":
        pen.rect(*u(.12, .15), s * .76, s * .42, fill=light, stroke=colour, line_pt=0.7)
        pen.polygon([u(.12, .57), u(.18, .78), u(.82, .78), u(.88, .57)], fill=light,
                    stroke=colour, line_pt=0.7)
        pen.rect(*u(.44, .40), s * .12, s * .16, fill=colour, stroke=None)
    elif name == "cards":
        pen.rect(*u(.30, .12), s * .44, s * .62, fill="#ffffff", stroke=colour, line_pt=0.6,
                 radius=s * .05)
        pen.rect(*u(.20, .24), s * .44, s * .62, fill=light, stroke=colour, line_pt=0.6,
                 radius=s * .05)
    elif name == "gauntlet":
        # an armoured glove: cuff, back of the hand, thumb, fingers
        pen.rect(*u(.24, .06), s * .50, s * .22, fill=light, stroke=colour, line_pt=0.6)
        pen.polygon([u(.27, .28), u(.27, .56), u(.12, .50), u(.08, .58), u(.27, .76),
                     u(.30, .90), u(.72, .90), u(.74, .28)], fill=light, stroke=colour,
                    line_pt=0.6)
        for fx in (.41, .51, .62):
            pen.line(*u(fx, .62), *u(fx, .90), colour=colour, line_pt=0.5)
        pen.line(*u(.27, .62), *u(.74, .62), colour=colour, line_pt=0.5)
    else:
        pen.icon("star", x, y, s, fill=light, ink=colour)


MIN_PT = 5.5
"""The smallest text on a card (docs/print-suite.md): the designs scale with the card, but no
text drops below this; a line that would not fit at it is set condensed."""


DRAW_MIN_SIZE = (38.0, 57.0)
"""The smallest draw card the design works on (mm): below it the card's text cannot keep
MIN_PT; a smaller --card is refused with this size."""


def _line(pen, x: float, y: float, text: str, size_pt: float, width: float, *,
          bold: bool = False, colour: str = INK, align: str = "left") -> bool:
    """One line at ``size_pt`` (at least MIN_PT), smaller down to MIN_PT or condensed if it
    is wider than ``width`` mm; False (nothing drawn) if it does not fit even so."""
    from companion.render.printkit.fit import TextFitError, fit_line

    size_pt = max(size_pt, MIN_PT)
    try:
        font, size = fit_line(text, width * pen.unit_pt, max_size=size_pt, min_size=MIN_PT,
                              bold=bold, what=pen.what)
    except TextFitError:
        return False
    pen.text(x, y, text, size_pt=size, colour=colour, align=align, font=font)
    return True


def draw_card_face(card: dict[str, Any], number: int, total: int):
    """The face of one draw card (a callback for the print suite)."""
    colour = COLOURS[card["colour"]]
    dark = mix(colour, "#000000", 0.35)

    def draw(pen, w: float, h: float) -> None:
        b = pen.bleed_mm
        k = w / 63.5                     # scale for other card sizes
        pen.rect(-b, -b, w + 2 * b, h + 2 * b, fill=colour, stroke=None)
        m = 2.6 * k
        pen.rect(m, m, w - 2 * m, h - 2 * m, fill=PAPER, stroke=dark, line_pt=0.5,
                 radius=1.8 * k)
        band = 9.5 * k
        top = h - m
        pen.rect(m, top - band, w - 2 * m, band, fill=dark, stroke=None, radius=1.8 * k)
        pen.rect(m, top - band, w - 2 * m, band / 2, fill=dark, stroke=None)
        # the number, top left
        r = band * 0.42
        cx, cy = m + r + 1.0 * k, top - band / 2
        pen.circle(cx, cy, r, fill=PAPER, stroke=colour, line_pt=1.0)
        pen.text(cx, cy - 1.55 * k, str(card["number"]), size_pt=11 * k, bold=True,
                 colour=dark, align="centre")
        # the type icon, top right
        s = band * 0.82
        pen.rect(w - m - s - 1.2 * k, top - band + (band - s) / 2, s, s, fill=PAPER,
                 stroke=None, radius=1.2 * k)
        draw_symbol(pen, TYPE_ICON[card["type"]], w - m - s - 1.2 * k,
                    top - band + (band - s) / 2, s, colour)
        # the name
        name_w = w - 2 * m - 2 * r - s - 5 * k
        pen.text_box(cx + r + 1.2 * k, top - band + 1.0 * k, name_w, band - 2.0 * k,
                     card["name"], max_pt=max(MIN_PT, 9.5 * k), min_pt=MIN_PT, colour="#ffffff",
                     align="centre", valign="middle")
        # the type line
        kind = f"{card['type']} ({card['kind']})" if card.get("kind") else card["type"]
        line_y = top - band - 4.2 * k
        type_line = f"{card['colour']} · {kind} · {card['number']}"
        if not _line(pen, w / 2, line_y, type_line, 6.8 * k, w - 2 * m - 2 * k, colour=dark,
                     align="centre"):
            _line(pen, w / 2, line_y, f"{card['colour']} · {card['type']} · {card['number']}",
                  6.8 * k, w - 2 * m - 2 * k, colour=dark, align="centre")
        # the emblem
        em = 20 * k
        ey = line_y - 2.0 * k - em
        pen.rect(m + 2 * k, ey, w - 2 * m - 4 * k, em, fill=mix(colour, PAPER, 0.86),
                 stroke=mix(colour, PAPER, 0.6), line_pt=0.4, radius=1.2 * k)
        draw_symbol(pen, TYPE_ICON[card["type"]], w / 2 - em * 0.42, ey + em * 0.08, em * 0.84,
                    colour)
        # the points, bottom right (the prime zone of the colour stands out)
        pts_h = 7.5 * k
        py = max(m + 4.2 * k, m + 1.1 * k + 2.6)   # clear of the footer's MIN_PT line
        box = 15.5 * k
        prime = {"Crimson": "play", "Gilded": "hand", "Sapphire": "set"}[card["colour"]]
        for i, (zone, icon, _label) in enumerate(ZONES):
            bx = w - m - 1.5 * k - (3 - i) * (box + 1.0 * k) + 1.0 * k
            strong = zone == prime
            pen.rect(bx, py, box, pts_h, fill=colour if strong else PAPER,
                     stroke=dark, line_pt=0.5, radius=1.2 * k)
            if strong:
                pen.rect(bx + 0.6 * k, py + 0.5 * k, pts_h - 1.0 * k, pts_h - 1.0 * k,
                         fill=PAPER, stroke=None, radius=1.0 * k)
            draw_symbol(pen, icon, bx + 0.8 * k, py + 0.6 * k, pts_h - 1.2 * k, dark)
            pen.text(bx + box - 1.6 * k, py + 2.0 * k, str(card["points"][zone]),
                     size_pt=12 * k, bold=True, colour="#ffffff" if strong else dark,
                     align="right")
        # 'points' where there is room left of the boxes (not on the smallest cards)
        left_box = w - m - 1.5 * k - 3 * (box + 1.0 * k) + 1.0 * k
        _line(pen, m + 1.8 * k, py + 2.4 * k, "points", 5.5 * k, left_box - m - 2.2 * k,
              colour=dark)
        # the text
        tx, tw = m + 2.2 * k, w - 2 * m - 4.4 * k
        ty = py + pts_h + 1.8 * k
        th = ey - 1.8 * k - ty
        pen.text_box(tx, ty, tw, th, card["text"], max_pt=max(MIN_PT, 9.2 * k), min_pt=MIN_PT,
                     colour=INK, valign="middle")
        _line(pen, m + 1.8 * k, m + 1.1 * k, f"Medieval Mayhem · {number}/{total}", MIN_PT,
              w - 2 * m - 3.6 * k, colour=mix(INK, PAPER, 0.45))

    return draw


def draw_back(pen, w: float, h: float) -> None:
    """The common back of the draw deck: three colour stripes and the title."""
    b = pen.bleed_mm
    k = w / 63.5
    pen.rect(-b, -b, w + 2 * b, h + 2 * b, fill="#2a2320", stroke=None)
    stripe = (h + 2 * b) / 3
    for i, colour in enumerate(("Sapphire", "Gilded", "Crimson")):
        pen.rect(-b, -b + i * stripe, w + 2 * b, stripe, fill=mix(COLOURS[colour], "#2a2320",
                                                                  0.35), stroke=None)
    m = 4 * k
    pen.rect(m, m, w - 2 * m, h - 2 * m, fill=None, stroke="#e9d9a6", line_pt=1.2,
             radius=2.5 * k)
    pen.rect(m + 1.5 * k, m + 1.5 * k, w - 2 * m - 3 * k, h - 2 * m - 3 * k, fill=None,
             stroke="#e9d9a6", line_pt=0.4, radius=2 * k)
    s = 26 * k
    pen.circle(w / 2, h / 2 + 6 * k, s * 0.62, fill="#2a2320", stroke="#e9d9a6", line_pt=1.0)
    pen.icon("crown", w / 2 - s / 2 * 0.8, h / 2 + 6 * k - s / 2 * 0.8, s * 0.8,
             fill="#e9d9a6", ink="#2a2320", line_pt=0.8)
    # the title on a dark panel of its own, clear of the colour bands behind it
    pw, ph = w - 2 * m - 10 * k, 17 * k
    pen.rect(w / 2 - pw / 2, h / 2 - 27 * k, pw, ph, fill="#2a2320", stroke="#e9d9a6",
             line_pt=0.6, radius=1.5 * k)
    pen.text(w / 2, h / 2 - 17 * k, "MEDIEVAL", size_pt=14 * k, bold=True, colour="#e9d9a6",
             align="centre")
    pen.text(w / 2, h / 2 - 24 * k, "MAYHEM", size_pt=14 * k, bold=True, colour="#e9d9a6",
             align="centre")


# ------------------------------------------------------------------------------ the score pad
PAD_ROWS = [("Territory: cards in play (arrow)", True),
            ("Castle: cards in sets (cards icon)", True),
            ("Resources: cards in hand (gauntlet)", True),
            ("Character bonus (concealed side)", True),
            ("TOTAL", True),
            ("Tie-breaker 1: number of sets", False),
            ("Tie-breaker 2: cards in play", False),
            ("Tie-breaker 3: cards in hand", False)]


def draw_pad(pen, w: float, h: float, index: int) -> None:
    """Two scoring sheets per page, for up to six players each."""
    half = h / 2
    for k in range(2):
        y0 = h - (k + 1) * half
        draw_sheet(pen, 0, y0 + 4, w, half - 8, index * 2 + k + 1)
        if k == 0:
            pen.line(0, half, w, half, colour="#999999", line_pt=0.4, dash_mm=(2, 1.5))


def draw_sheet(pen, x: float, y: float, w: float, h: float, number: int) -> None:
    pen.text(x, y + h - 6, "Medieval Mayhem - scoring sheet", size_pt=13, bold=True,
             colour=COLOURS["Crimson"])
    pen.text(x + w, y + h - 6, f"game no. ______   date ____________   sheet {number}",
             size_pt=7.5, align="right")
    label_w = 62.0
    cols = 6
    col_w = (w - label_w) / cols
    top = y + h - 12
    row_h = min(9.5, (h - 22) / (len(PAD_ROWS) + 1))
    pen.rect(x, top - row_h, w, row_h, fill="#efe4c8", stroke=INK, line_pt=0.5)
    pen.text(x + 2, top - row_h + 3, "Player", size_pt=8, bold=True)
    for c in range(cols):
        pen.line(x + label_w + c * col_w, top - row_h * (len(PAD_ROWS) + 1), x + label_w
                 + c * col_w, top, line_pt=0.5)
    for r, (label, scored) in enumerate(PAD_ROWS):
        ry = top - (r + 2) * row_h
        fill = "#f6d9d9" if label == "TOTAL" else (None if scored else "#f2efe6")
        pen.rect(x, ry, w, row_h, fill=fill, stroke=INK, line_pt=0.5 if label != "TOTAL"
                 else 1.0)
        pen.text(x + 2, ry + row_h / 2 - 1.2, label, size_pt=7.2 if label != "TOTAL" else 9,
                 bold=label == "TOTAL")
    for c in range(cols):
        pen.line(x + label_w + c * col_w, top - row_h * (len(PAD_ROWS) + 1),
                 x + label_w + c * col_w, top, line_pt=0.5)
    foot = top - row_h * (len(PAD_ROWS) + 1) - 4.5
    pen.text(x, foot, "Highest total wins. On a tie: most sets, then most cards in play, then "
             "most cards in hand; still tied: a shared win. Team Tactics: add up each team.",
             size_pt=6.8)


# ------------------------------------------------------------------------------ the player aid
def aid_blocks(cat) -> list:
    from companion.render.printkit import Bullets, Heading, Paragraph, Table

    return [
        Heading("Your turn"),
        Bullets([
            "Start: with fewer than 3 cards in hand, draw up to 3.",
            "Take exactly **2 non-free actions**, one after the other; any action may be "
            "repeated, the character action only once per turn.",
            "Free actions cost nothing: a Defense card, played on anyone's turn when a "
            "card's text would affect you, and the triggers of a set you form.",
            "End: discard down to 6 cards in play, 6 in hand and 3 sets; then the player on "
            "the left goes on.",
        ]),
        Table(["Non-free action", "What you do"], [
            ["Play", "a card from hand to your play zone; resolve its text as far as you can"],
            ["Draw", "the top card of the deck into your hand"],
            ["Recruit", "a card from the Barracks into your hand; the gap refills at once"],
            ["Character", "your character card's action (no Defense against it)"],
            ["Form a set", "3 cards from your play zone or all 3 from your hand that share a "
                           "number, colour or type go to your Castle (no card text)"],
            ["Discard then Draw", "throw away as many hand cards as you like, draw that many"],
        ], widths=[1, 2.6]),
        Heading("Set triggers"),
        Paragraph("Every aspect the three cards share triggers; resolve them in the order you "
                  "choose."),
        Table(["Set of", "Trigger"], [
            ["Crimson", "you may lure 1 card from the discard pile"],
            ["Gilded", "you may capture 1 card of your own play zone"],
            ["Sapphire", "every other player draws 1, starting on your left"],
            ["one number", "discard up to that many cards from hand, draw as many"],
            ["Dragons", "capture a Princess from the Barracks, or a Scales card from the "
                        "Barracks or discard pile"],
            ["Princesses", "lure a Knight from the Barracks, or capture a Guardians card"],
            ["Knights", "destroy a Dragon in the Barracks, or capture a Shield card"],
            ["Attacks", "destroy the whole Barracks (it refills), or draw up to 3"],
            ["Defenses", "capture any Defense card from the Barracks or discard pile"],
            ["Treasures", "no trigger (colour or number may still trigger)"],
        ], widths=[1, 3]),
        Heading("Words on the cards"),
        Bullets([
            "**Capture:** into your hand. **Lure:** into your play zone. **Destroy:** onto the "
            "discard pile. **Draw:** the top card of the deck into your hand.",
            "**Up to:** you pick how many, zero too. **Choose:** pick when you play the card.",
            "Cards taken from a hand are picked by that hand's owner, who need not say how "
            "many they had; open zones are picked by the card's player.",
            "**Defense:** discard it from hand when a card's text would affect you; only you "
            "and your cards are spared, the card stays in play. Decide clockwise from the "
            "player whose turn it is.",
            "A set left with fewer than 3 cards is broken: the rest go to its owner's play "
            "zone.",
        ]),
        Heading("The end"),
        Bullets([
            "Triggered when the deck runs out or someone forms a third set; it cannot be "
            "undone. Play on until the turn would come back to the starting player, so "
            "everybody has the same number of turns.",
            "Score each zone by its icon: arrow in play, cards in sets, gauntlet in hand; add "
            "the character bonus. Crimson scores best in play, Gilded in hand, Sapphire in "
            "sets.",
            "Tie: most sets, then most cards in play, then most cards in hand; else shared.",
        ]),
    ]


def kit(cat):
    from companion.render.printkit import (CardBack, CardFace, Deck, FreePages, Kit, Note,
                                           ReferenceSheet)

    cards = []
    total = len(cat.cards)
    for c in cat.cards:
        data = {"name": c.name, "colour": c.colour, "type": c.type, "kind": c.kind,
                "number": c.number, "text": c.text,
                "points": {"play": c.points[0], "set": c.points[1], "hand": c.points[2]}}
        cards.append(CardFace(c.name, kind=c.type, subtitle=f"{c.colour} {c.number}",
                              draw=draw_card_face(data, c.no, total)))
    draw_deck = Deck(title="Draw cards", size="poker", cards=cards,
                     back=CardBack(title="Medieval Mayhem", draw=draw_back), name="draw-cards",
                     min_size=DRAW_MIN_SIZE)
    faces = []
    for ch in cat.characters:
        icon = CHARACTER_ICON.get(ch.face, "star")
        back = CardFace(f"{ch.face}, version {ch.version}", kind="Concealed side",
                        subtitle="keep it face down until the scoring",
                        text=f"**Bonus points at the end:** {ch.bonus_text}",
                        icon="star", colour="#3d3230", footer="Medieval Mayhem")
        faces.append(CardFace(ch.face, kind="Character", subtitle="face up",
                              text=f"**Character action** (once per turn, a non-free action; "
                                   f"no Defense against it): {ch.action_text}",
                              icon=icon, colour="#5b3a6e", back=back,
                              footer="Medieval Mayhem"))
    characters = Deck(title="Character cards", size="tarot", cards=faces,
                      back=CardBack(title="Medieval Mayhem"), name="characters")
    return Kit(
        game="mayhem", title="Medieval Mayhem",
        subject="70 draw cards, 18 character cards, scoring pad, player aid",
        notes=[Note("The 70 draw cards share one back; print them with any --backs mode.",
                    ["draw-cards"]),
               Note("The 18 character cards are two-sided: the face-up side (character action) "
                    "and the concealed side (version and bonus). Print them duplex or fold "
                    "them.", ["characters"]),
               Note("Card designs are the project's own (see docs/mayhem.md).", ["cards"])],
        parts=[draw_deck, characters,
               # cut in halves: in duplex its pages go back to back on a sheet of their own
               FreePages(title="Scoring pad", draw=draw_pad, count=2, part_kind="pad",
                         name="pad", sheets="own"),
               ReferenceSheet(title="Player aid", blocks=aid_blocks(cat), name="aid")])
