"""A generic sample kit (no game's text or art): a deck with short and long texts, two-sided
character cards, chits, standees, a board larger than a page, a reference sheet and a score pad.
Used by the tests, the benchmark and as an example for game engineers.
"""
from __future__ import annotations

import math

from companion.render.printkit.model import (Board, Bullets, CardBack, CardFace, Chit, ChitFace,
                                             ChitSheet, Deck, FreePages, Heading, Kit, Paragraph,
                                             ReferenceSheet, Stat, Standee, Standees, Table)

_HEROES = [
    ("Wandering Smith", "Once per turn you may repair one broken item in your camp.", "house"),
    ("Hedge Witch", "Look at the top three cards of the event pile and put them back in any "
     "order.", "moon"),
    ("Old Ranger", "Moves two spaces through forest.", "tree"),
    ("Tower Guard", "**Guard.** Foes must fight this hero before any other hero in its space.",
     "tower"),
    ("River Pilot", "Crossing a river costs this hero no extra movement.", "boot"),
    ("Bold Squire", "Gains one strength for each knight in its space.", "banner"),
]
_FOES = [
    ("Cave Troll", "Regains two health at the start of each round unless it was hit by fire.",
     "skull"),
    ("Marsh Lights", "Heroes that end their move next to the lights lose one step of movement "
     "next turn.", "eye"),
    ("Bandit Chief", "When defeated, the hero who won takes two coins from the bank.", "axe"),
    ("Stone Giant", "Ignores the first hit it takes each round.", "mountain"),
    ("Black Hound", "Fast.", "bolt"),
]
_ITEMS = [
    ("Lantern", "Reveal one face-down tile next to you.", "sun"),
    ("Longbow", "Attack a foe up to two spaces away.", "arrow"),
    ("Iron Key", "Opens any locked door. Discard after use.", "key"),
    ("Healing Draught", "Restore three health to one hero in your space.", "heart"),
    ("Lucky Die", "Reroll one die once per turn.", "die"),
    ("Old Map", "", "scroll"),
]
_SPELLS = [
    ("Spark", "Deal one damage.", "bolt"),
    ("Ward", "Prevent the next two damage a hero in your space would take this round.",
     "shield"),
    ("Farsight", "Look at any one hidden card on the table.", "eye"),
    ("Quicken", "Take an extra move action this turn.", "hourglass"),
]
_EVENTS = [
    ("Market Day", "Every player may buy one item at one coin less than its price.", "coin"),
    ("Storm", "No hero may cross open water this round.", "moon"),
    ("Royal Summons", "The player with the most crowns draws two cards.", "crown"),
]
_LONG = (
    "At the start of your turn choose one: **draw** two cards and discard one of them; or "
    "**move** one of your heroes up to three spaces, ignoring terrain; or **rest**, restoring "
    "two health to every hero in one space. If you chose the same option last turn, you must "
    "pay one coin to the bank first. A player who cannot pay chooses again.\n"
    "When this card leaves play, every other player may take one of the options above at once, "
    "in turn order, starting with the player on your left."
)
_LONGEST = (
    "Reveal the top five cards of the event pile. Starting with you and going clockwise, each "
    "player takes one revealed card into their hand until none are left; a player who already "
    "holds three event cards must instead put the card they would take at the bottom of the "
    "pile. Then every player who took a card may immediately play one event from their hand "
    "without paying its cost, in turn order. Events played this way cannot be cancelled, do "
    "not count towards any limit on events per round, and their effects last until the end "
    "of the next round instead of the end of this one. Finally shuffle the discard pile into "
    "the event pile, unless the pile already holds twenty or more cards, and pass the first "
    "player marker to the left."
)


def sample_deck(cards: int | None = None, title: str = "Sample deck") -> Deck:
    """A generic deck of about three dozen designs (48 cards); with ``cards`` the counts are
    scaled to give exactly that many."""
    faces: list[CardFace] = []
    n = 0
    for name, text, icon in _HEROES:
        n += 1
        faces.append(CardFace(name, "Hero", text, icon=icon, subtitle="Companion",
                              stats=[Stat("sword", 1 + n % 4), Stat("shield", 2 + n % 3),
                                     Stat("heart", 3 + n % 2)], count=2))
    for name, text, icon in _FOES:
        n += 1
        faces.append(CardFace(name, "Foe", text, icon=icon,
                              stats=[Stat("sword", 2 + n % 4), Stat("heart", 2 + n % 5)],
                              corner=Stat("star", n % 3 + 1), count=2))
    for name, text, icon in _ITEMS:
        faces.append(CardFace(name, "Item", text, icon=icon, corner=Stat("coin", 1 + len(name) % 4),
                              flavour="Found in an old chest." if icon == "scroll" else ""))
    for name, text, icon in _SPELLS:
        faces.append(CardFace(name, "Spell", text, icon=icon, corner=Stat("gem", 1 + len(text) % 3),
                              count=2))
    for name, text, icon in _EVENTS:
        faces.append(CardFace(name, "Event", text, icon=icon))
    faces.append(CardFace("Crossroads Oath", "Event", _LONG, subtitle="Rare",
                          flavour="Nobody remembers who swore it first.", count=1))
    faces.append(CardFace("The Long Council", "Event", _LONGEST, subtitle="Rare", count=1))
    faces.append(CardFace("Ünïcödé Çhâmpion", "Hero", "Names with accents, Ελληνικά and "
                          "кириллица print with the bundled fonts.", icon="crown",
                          stats=[Stat("sword", 4), Stat("shield", 4)]))
    faces.append(CardFace("A Knight With An Extraordinarily Long Name", "Hero",
                          "Short text.", icon="horseshoe"))
    for k in range(9):
        faces.append(CardFace(f"Provisions {k + 1}", "Item", "Restore one health.",
                              corner=Stat("coin", 1)))
    deck = Deck(title=title, cards=faces,
                back=CardBack(title="Sample", subtitle="print-and-play", icon="star"),
                colours={"Hero": "#1f5fa8", "Foe": "#b3261e", "Item": "#7a4e2d",
                         "Spell": "#6a3d9a", "Event": "#2e7d32"})
    if cards is not None:
        base = [f for f in faces]
        counts = [0] * len(base)
        for i in range(cards):
            counts[i % len(base)] += 1
        deck.cards = [CardFace(**{**f.__dict__, "count": c}) for f, c in zip(base, counts) if c]
    return deck


def sample_characters() -> Deck:
    """Two-sided tarot cards: each character has its own back (a 'wounded' side)."""
    chars = []
    for name, icon, colour in (("Captain", "banner", "#1f5fa8"), ("Scout", "boot", "#2e7d32"),
                               ("Healer", "heart", "#c2577f"), ("Scholar", "scroll", "#6a3d9a")):
        wounded = CardFace(f"{name} (wounded)", "Character", "Moves one space less. Cannot "
                           "use its special ability until healed.", icon=icon, colour="#6e6e6e",
                           stats=[Stat("sword", 1), Stat("heart", 1)])
        chars.append(CardFace(name, "Character", f"The {name.lower()} acts once per round. Turn "
                              "the card over when it is wounded.", icon=icon, colour=colour,
                              stats=[Stat("sword", 2), Stat("shield", 2), Stat("heart", 3)],
                              back=wounded))
    return Deck(title="Characters", cards=chars, size="tarot", checklist=False,
                back=CardBack(title="Character"))


def sample_chits() -> ChitSheet:
    chits = []
    for v in (1, 2, 3, 5):
        chits.append(Chit(ChitFace(label="damage", value=v, colour="#b3261e"),
                          ChitFace(label="damage", value=v * 2, colour="#8e1b2c"), count=8))
    chits.append(Chit(ChitFace(label="gold", value=1, icon="coin", colour="#efe3c2"),
                      ChitFace(label="gold", value=5, icon="coin", colour="#e8c547"), count=16))
    for icon, label in (("shield", "guarded"), ("hourglass", "slowed"), ("eye", "hidden"),
                        ("flag", "claimed")):
        chits.append(Chit(ChitFace(label=label, icon=icon, colour="#d8dee9"),
                          ChitFace(label=label, icon=icon, colour="#9aa7bd"), count=6))
    chits.append(Chit(ChitFace(value="?", colour="#1e2f5c", round=True),
                      ChitFace(label="explored", icon="check", colour="#2e7d32", round=True),
                      count=10))
    return ChitSheet(title="Counters", chits=chits)


def sample_standees() -> Standees:
    figs = [Standee(name, icon=icon, colour=colour, count=1)
            for name, icon, colour in (("Red hero", "pawn", "#b3261e"),
                                       ("Blue hero", "pawn", "#1f5fa8"),
                                       ("Green hero", "pawn", "#2e7d32"),
                                       ("Gold hero", "pawn", "#c9a227"),
                                       ("Troll", "skull", "#6b7a2a"),
                                       ("Dragon", "bolt", "#8e1b2c"))]
    return Standees(title="Standees", figures=figs)


def draw_sample_board(pen) -> None:
    """A 420 x 300 mm board: a hex field, a river, a score track around the edge."""
    w, h = pen.width_mm, pen.height_mm
    pen.rect(0, 0, w, h, fill="#e9e2c8", stroke=None)
    # score track
    cell = 12.0
    for x in range(0, int(w // cell)):
        for y in (0, int(h // cell) - 1):
            pen.rect(x * cell, y * cell + (h - (h // cell) * cell) * (y > 0), cell, cell,
                     fill="#f6f1df" if (x + y) % 2 else "#ddd3b0", stroke="#8a8170", line_pt=0.4)
    for i in range(int(w // cell)):
        pen.text(i * cell + cell / 2, 4.2, str(i), size_pt=7, align="centre")
    # hexes
    r = 14.0
    dx = 1.5 * r
    dy = math.sqrt(3) * r
    col = 0
    x = 30.0
    colours = ["#b7cf95", "#9cbf7b", "#d7c98f", "#a9b7a0", "#c8dba8"]
    while x < w - 30:
        y = 30.0 + (dy / 2 if col % 2 else 0)
        row = 0
        while y < h - 30:
            shade = colours[(col * 3 + row * 7) % len(colours)]
            pen.hexagon(x, y, r, fill=shade, stroke="#5a6b48", line_pt=0.6)
            pen.text(x, y - r * 0.62, f"{col + 1:02d}{row + 1:02d}", size_pt=5.5, align="centre",
                     colour="#4a4a4a")
            if (col * 5 + row * 3) % 11 == 0:
                pen.icon("tree", x - 5, y - 4, 10)
            elif (col * 7 + row) % 13 == 0:
                pen.icon("tower", x - 5, y - 4, 10)
            elif (col + row * 5) % 17 == 0:
                pen.icon("mountain", x - 5, y - 4, 10)
            y += dy
            row += 1
        x += dx
        col += 1
    # a river
    c = pen.canvas
    c.saveState()
    c.setStrokeColorRGB(0.25, 0.5, 0.8)
    c.setLineWidth(3.0)
    p = c.beginPath()
    p.moveTo(0, h * 0.3)
    p.curveTo(w * 0.3, h * 0.1, w * 0.5, h * 0.9, w, h * 0.7)
    c.drawPath(p, stroke=1, fill=0)
    c.restoreState()
    pen.text(w / 2, h - 22, "SAMPLE BOARD", size_pt=24, bold=True, align="centre",
             colour="#5a4a2a")
    pen.rect(0, 0, w, h, stroke="#3a3a3a", line_pt=1.5)


def sample_board() -> Board:
    return Board(title="Board", width_mm=420.0, height_mm=300.0, draw=draw_sample_board)


def sample_reference() -> ReferenceSheet:
    combat = Table(["Roll", "Result", "Effect"], [
        ["1", "Rout", "The attacker retreats two spaces and loses one health."],
        ["2", "Repulse", "The attacker retreats one space."],
        ["3", "Stand-off", "Nothing happens; both sides stay."],
        ["4", "Push", "The defender retreats one space."],
        ["5", "Break", "The defender retreats two spaces and loses one health."],
        ["6", "Rout", "The defender is removed; the attacker may advance."],
    ], align=["centre", "left", "left"], caption="Roll one die and add the difference in strength.",
        bold_first_column=True)
    terrain = Table(["Terrain", "Move", "Defence"], [
        ["Open", "1", "+0"], ["Forest", "2", "+1"], ["Hills", "2", "+1"], ["Marsh", "3", "-1"],
        ["Town", "1", "+2"], ["River", "+1 to cross", "+1 behind it"],
    ], align=["left", "centre", "centre"])
    return ReferenceSheet(title="Reference", blocks=[
        Heading("Turn order"),
        Bullets(["Draw a card.", "Move each of your heroes.",
                 "Resolve fights where heroes and foes share a space.",
                 "Discard down to five cards."]),
        Heading("Combat"), combat,
        Heading("Terrain"), terrain,
        Heading("Winning"),
        Paragraph("The game ends when the event pile runs out. The player with the most crowns "
                  "wins; ties go to the player with more coins."),
    ])


def draw_score_pad(pen, w: float, h: float, page: int) -> None:
    pen.text(0, h - 6, "Score pad", size_pt=14, bold=True)
    cols = 5
    rows = 20
    top = h - 14
    cw = w / (cols + 1)
    rh = (top - 4) / (rows + 1)
    for r in range(rows + 2):
        pen.line(0, top - r * rh, w, top - r * rh, line_pt=0.4 if r else 0.8)
    for cidx in range(cols + 2):
        pen.line(cidx * cw, top, cidx * cw, top - (rows + 1) * rh, line_pt=0.4)
    pen.text(2, top - rh + 2, "Round", size_pt=8, bold=True)
    for cidx in range(cols):
        pen.text((cidx + 1) * cw + 2, top - rh + 2, f"Player {cidx + 1}", size_pt=8, bold=True)
    for r in range(rows):
        pen.text(2, top - (r + 2) * rh + 2, str(r + 1), size_pt=8)


def sample_kit(cards: int | None = None, *, parts: str = "all") -> Kit:
    """The sample kit.  ``cards`` resizes the main deck (the benchmark uses 100);
    ``parts='deck'`` keeps only the main deck."""
    deck = sample_deck(cards)
    if parts == "deck":
        return Kit(game="sample", title="Sample kit", parts=[deck])
    return Kit(game="sample", title="Sample print-and-play kit", parts=[
        deck, sample_characters(), sample_chits(), sample_standees(), sample_board(),
        sample_reference(),
        FreePages(title="Score pad", draw=draw_score_pad, count=1, part_kind="pad"),
    ], notes=["This kit is a generic sample used to test the print suite."])
