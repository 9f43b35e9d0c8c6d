"""The Holy Grail CCG print-and-play kit through the print suite: both starter decks as cards
with a shared back, a play mat for one player's England (print one per player), the shared
Avalon strip, and reference sheets (a turn summary in our own words, and every castle and
village table of the card set).

Every card face is generated from the card data (:mod:`companion.grailccg.cards`), so printed
cards and the engine agree: name, type, grail number (corner), combat, wits, defence, page
capacity, extra draws, the castle and sword icons, the text when played and when turned up,
and the castle or village table where the card has one."""
from __future__ import annotations

from companion.grailccg import england as E

COLOURS = {
    "Knight": "#1f5fa8", "Page": "#5a86b8", "Persona": "#2e7d82", "Adversary": "#a8281f",
    "Peril": "#c2571a", "Land": "#4f7d2e", "Castle": "#5b5b5b", "Village": "#8a6d3b",
    "Item": "#b7791f", "Song": "#8e3c8e", "Event": "#3c5a8e", "Taunt": "#b03a6a",
    "Questions Three": "#6a4fb0",
}
TYPE_ICONS = {
    "knight": "shield", "page": "boot", "persona": "pawn", "adversary": "skull",
    "peril": "bolt", "land": "tree", "castle": "tower", "village": "house", "item": "key",
    "song": "star", "event": "scroll", "taunt": "flag", "questions-three": "eye",
}
CASTLE_WORDS = {
    "pass": "the Round Table may pass",
    "pass-draw-1": "pass, and draw a card",
    "wait": "no way through this turn",
    "lose-a-page": "no way through; lose a page",
    "run-away": "the Round Table must run away",
    "trapped": "the consulting knight is held inside until the castle is breached",
    "lead-knight-slain": "the consulting knight is slain",
}
VILLAGE_WORDS = {
    "rest": "a quiet night: nothing happens",
    "draw": "draw {n}",
    "discard": "discard {n} at random",
    "grail": "+{n} to your next grail number this turn",
    "peek": "look at the top {n} cards of your deck",
    "skip-draw": "miss your next draw phase",
    "lose-a-page": "lose a page",
    "lose-a-knight": "lose a knight (not Arthur)",
    "driven-out": "the Round Table is driven out (it runs away)",
}
FOOTER = "Holy Grail CCG"

TURN_SUMMARY = [
    ("Setting up", [
        "Each player takes Arthur and Patsy out of their 60-card deck: they are the starting "
        "Round Table, Patsy serving Arthur. Shuffle; your opponent cuts.",
        "Turn your top card face up into the ante.",
        "Deal your next 14 cards face down without looking: 12 make your opponent's England "
        "(rows of 3, 4, 3 and 2 on their play mat, the 3 nearest them) and 2 go into Avalon, "
        "which both players share (4 areas).",
        "Draw 7 cards. The player who owns more of the game's cards starts (or decide at "
        "random).",
    ]),
    ("A turn", [
        "**Draw**: 1 card, plus the extra draws of the place your Round Table stands on. No "
        "card to draw: you lose. In Avalon with no knight left: you lose.",
        "**Act**, in any order: play cards from your hand; move your Round Table one area "
        "(into a neighbouring area, or from the top row into any free area of Avalon); "
        "settle disputes; consult or assault castles; search Avalon.",
        "**End**: discard down to 7 cards in hand. You may then double the ante; your "
        "opponent accepts (both add cards from their decks) or concedes.",
    ]),
    ("Exploring", [
        "Entering a face-down area turns its card up. A knight or persona found there may "
        "join you: draw a grail number and add the best wits of your Round Table; 7 or more "
        "and it joins, otherwise it turns hostile and a dispute begins.",
        "An adversary or peril starts a dispute. A village: draw a grail number and read its "
        "village table. A castle: its occupants come from your opponent's deck.",
        "Other cards found work for you once (the text after 'Turned up'), then go to their "
        "owner's dead cart; the area becomes open land.",
    ]),
    ("Disputes", [
        "Pick a lead knight and fight (combat) or outwit (wits). You draw a grail number from "
        "your deck for your side; your opponent draws one from theirs for the adversary.",
        "Higher total wins; a tie carries the dispute on to your next turn. The loser is slain "
        "(into its owner's dead cart); only the lead knight dies on your side.",
        "Against a peril, each other knight adds 1 to your combat. Before numbers are drawn "
        "either player may play songs, taunts and events; the last card played wins.",
        "You may run away before the numbers are drawn; your opponent picks where you land "
        "among the areas you may flee to.",
    ]),
    ("Castles", [
        "Consult the castle table: two grail numbers plus your consultant's wits, less the "
        "best wits inside. After at least one consultation you may assault: your lead "
        "knight's combat, plus 1 for each other knight, against the defender's combat plus "
        "the castle's defence. Or stay outside, unharmed but unable to pass.",
    ]),
    ("Winning", [
        "In a cleared area of Avalon, search: a grail number plus 1 for each earlier failed "
        "search by anyone. 6 or more finds the Grail: you win the game and the ante.",
        "Each area can be searched once. All searched without success: a draw.",
        "A player who must draw from an empty deck loses.",
    ]),
]


def _effect_text(card) -> str:
    from companion.grailccg.cards import TYPE_PLAY

    parts = []
    if card.primary_text and card.type == "item":     # an item is carried or used (11.1)
        from companion.grailccg.cards import item_text

        label, said = item_text(card)
        parts.append(f"**{label}:** {said}")
    elif card.primary_text:
        parts.append(f"**Played:** {card.primary_text}")
    elif card.type in ("knight", "persona", "page", "adversary", "peril", "land", "castle",
                       "village", "item"):
        parts.append(TYPE_PLAY.get(card.type, ""))
    if card.secondary_text:
        parts.append(f"**Turned up:** {card.secondary_text}")
    if card.outwits_text:
        parts.append(f"**Wins at wits:** {card.outwits_text}")
    if card.type == "castle":
        if card.occupant:
            parts.append(f"**Held by:** {occupant_words(card.occupant)}.")
        if card.castle_table:
            parts.append("**Castle table:** " + "; ".join(
                f"{range_text(lo, hi)} {res.replace('-', ' ')}"
                for lo, hi, res in card.castle_table))
    if card.type == "village" and card.village_table:
        parts.append("**Village table:** " + "; ".join(
            f"{lo if lo == hi else f'{lo}-{hi}'} {res.replace('-', ' ')}"
            for lo, hi, res in table_runs(card.village_table)))
    return "\n".join(p for p in parts if p)


def occupant_words(occupant: str, cards=None) -> str:
    """A castle's occupant as printed: a card's name, or 'any knight' for a type."""
    if occupant in ("knight", "persona", "adversary"):
        return f"any {occupant} with the castle icon"
    if cards is None:
        from companion.grailccg.cards import load_cards

        cards = load_cards()
    if occupant in cards:
        return cards.get(occupant).name
    return occupant


def range_text(lo, hi) -> str:
    if lo is None:
        return f"{hi} or less"
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def table_runs(table) -> list[tuple[int, int, str]]:
    """A village table (grail number, result) folded into runs of equal results."""
    out: list[list] = []
    for value, result in sorted(table):
        if out and out[-1][2] == result and out[-1][1] == value - 1:
            out[-1][1] = value
        else:
            out.append([value, value, result])
    return [tuple(r) for r in out]


def face(card, count: int = 1):
    from companion.render.printkit import CardFace, Stat

    stats = []
    if card.combat is not None:
        stats.append(Stat("axe", card.combat, "combat"))
    if card.wits is not None:
        stats.append(Stat("eye", card.wits, "wits"))
    if card.defence is not None:
        stats.append(Stat("shield", card.defence, "defence"))
    if card.type == "page":
        stats.append(Stat("key", card.capacity or 1, "carries"))
    if card.draws:
        stats.append(Stat("card", f"+{card.draws}", "draws"))
    marks = []
    if "sword" in card.icons:
        marks.append("sword")
    if "castle" in card.icons:
        marks.append("castle")
    subtitle = ("Icons: " + ", ".join(marks)) if marks else ""
    if card.permanent and card.type not in ("land", "castle", "village"):
        subtitle = (subtitle + "; " if subtitle else "") + "stays in play"
    return CardFace(card.name, card.type_name, _effect_text(card), flavour=card.flavour,
                    stats=stats, corner=Stat("cup", card.grail, "grail"),
                    icon=TYPE_ICONS.get(card.type), subtitle=subtitle, footer=FOOTER,
                    count=count)


def deck_faces(cards, deck) -> list:
    """One face per design of a deck list, in the list's order, with its count."""
    counts = deck.counts()
    return [face(cards.get(cid), n) for cid, n in counts.items()]


# ------------------------------------------------------------------------------------ the mat
CELL_W, CELL_H, GAP = 66.0, 91.0, 5.0
MARGIN = 8.0
HEADING = 13.0
"""The mat's two heading lines above the top row: at most 509 mm in all keeps the mat on 2 x 2
pages of US Letter as of A4 (520 mm took 2 x 3 Letter pages)."""
MAT_W = 4 * (CELL_W + GAP) - GAP + 2 * MARGIN
MAT_H = 5 * (CELL_H + GAP) + HEADING + 2 * MARGIN
AVALON_W = 4 * (CELL_W + GAP) - GAP + 2 * MARGIN
AVALON_H = CELL_H + 2 * MARGIN + 16


def _slot(pen, x: float, y: float, label: str, note: str = "", fill="#f4efe0") -> None:
    pen.rect(x, y, CELL_W, CELL_H, fill=fill, stroke="#6b5a3a", line_pt=0.8, radius=3)
    pen.text(x + 3, y + CELL_H - 6, label, size_pt=11, bold=True, colour="#6b5a3a")
    if note:
        pen.text_box(x + 4, y + 4, CELL_W - 8, 14, note, max_pt=7, min_pt=5.5, colour="#6b5a3a",
                     align="centre", valign="bottom")


def draw_mat(pen) -> None:
    """One player's England (rows 3-4-3-2 from the bottom) with the Round Table area below.
    The areas nearest the player are row 1; Avalon lies beyond row 4."""
    pen.rect(0, 0, MAT_W, MAT_H, fill="#fbf8ef", stroke="#6b5a3a", line_pt=1)
    pen.text(MARGIN, MAT_H - MARGIN - 6, "England (explored by the player sitting here, laid "
             "from the opponent's cards)", size_pt=12, bold=True, colour="#3a2f1f")
    pen.text(MARGIN, MAT_H - MARGIN - 13, "Beyond the top row lies Avalon: from 4a or 4b the "
             "Round Table may move into any free area of Avalon.", size_pt=8, colour="#3a2f1f")
    y = MARGIN
    home_x = (MAT_W - CELL_W * 1.6) / 2
    pen.rect(home_x, y, CELL_W * 1.6, CELL_H, fill="#e6efdc", stroke="#6b5a3a", line_pt=0.8,
             radius=3)
    pen.text(home_x + 3, y + CELL_H - 6, "home", size_pt=11, bold=True, colour="#6b5a3a")
    pen.text_box(home_x + 4, y + 4, CELL_W * 1.6 - 8, 30,
                 "Round Table area: your Round Table starts the game here. It touches 1a, "
                 "1b and 1c.", max_pt=7.5, min_pt=5.5, colour="#6b5a3a",
                 align="centre", valign="bottom")
    for r, row in enumerate(E.ROWS):
        y = MARGIN + (r + 1) * (CELL_H + GAP)
        width = len(row) * (CELL_W + GAP) - GAP
        x0 = (MAT_W - width) / 2
        for i, name in enumerate(row):
            up = ", ".join(a for a in E.adjacent(name) if E.row_of(a) > E.row_of(name))
            note = f"up to {up}" if up else "up to Avalon"
            _slot(pen, x0 + i * (CELL_W + GAP), y, name, note)


def draw_avalon(pen) -> None:
    pen.rect(0, 0, AVALON_W, AVALON_H, fill="#eef0f7", stroke="#3a4a7a", line_pt=1)
    pen.text(MARGIN, AVALON_H - MARGIN - 5, "Avalon (shared: lay it between the two mats)",
             size_pt=11, bold=True, colour="#2a3560")
    for i in range(4):
        _slot(pen, MARGIN + i * (CELL_W + GAP), MARGIN, f"av{i + 1}",
              "search here once cleared", fill="#f7f8fc")


# ------------------------------------------------------------------------------------ the kit
def tables_blocks(cards) -> list:
    from companion.render.printkit import Heading, Paragraph, Table

    blocks = [Heading("Castle tables"),
              Paragraph("Consulting (8.1): two grail numbers + the wits of your consulting "
                        "character - the best wits among the castle's occupants. Read the "
                        "total on the castle's own table.")]
    for card in cards.of("castle"):
        rows = [[range_text(lo, hi), CASTLE_WORDS.get(res, res)] for lo, hi, res in
                card.castle_table]
        blocks.append(Heading(f"{card.name} (defence {card.defence or 0}"
                              + (f", held by {occupant_words(card.occupant, cards)}"
                                 if card.occupant else "") + ")",
                              level=2))
        blocks.append(Table(["Total", "Result"], rows, widths=[1, 3.2]))
    blocks.append(Heading("Village tables"))
    blocks.append(Paragraph("Entering a village (9.1): draw one grail number and read it on "
                            "the village's table."))
    for card in cards.of("village"):
        rows = []
        for lo, hi, res in table_runs(card.village_table):
            rows.append([str(lo) if lo == hi else f"{lo}-{hi}", _village_words(res)])
        blocks.append(Heading(card.name, level=2))
        blocks.append(Table(["Grail", "Result"], rows, widths=[1, 3.2]))
    return blocks


def _village_words(result: str) -> str:
    words = result.split()
    head = words[0]
    n = words[1].lstrip("+") if len(words) > 1 else ""
    text = VILLAGE_WORDS.get(head)
    if text is None:
        return result
    return text.format(n=n)


def summary_blocks() -> list:
    from companion.render.printkit import Bullets, Heading, Paragraph, Table

    blocks = []
    for title, lines in TURN_SUMMARY:
        blocks.append(Heading(title))
        blocks.append(Bullets(lines))
    blocks.append(Heading("On the cards"))
    blocks.append(Bullets([
        "The cup in the top corner: the card's grail number (1 to 7), read when the card is "
        "turned over for a grail number.",
        "Axe: combat. Eye: wits. Shield: a castle's defence. Key: how many items a page can "
        "carry. Card: extra cards you draw while your Round Table stands there.",
        "Sword icon: may lead a dispute. Castle icon: may hold a castle.",
        "'Played': what the card does from your hand. 'Turned up': what it does for the "
        "player who finds it while exploring.",
    ]))
    blocks.append(Heading("England's areas"))
    rows = [[name, ", ".join(E.adjacent(name))] for name in (E.HOME,) + E.AREAS]
    blocks.append(Table(["Area", "Next to"], rows, widths=[1, 3]))
    blocks.append(Paragraph("By email: write orders such as 'move 1b', 'fight with Lancelot', "
                            "'play Burn Her! on 2c'; every report lists the lines open to you."))
    return blocks


def kit(cards=None):
    """The kit; ``cards`` is the card set (default: the shipped one)."""
    from companion.grailccg.cards import load_cards, starter_decks
    from companion.render.printkit import (Board, CardBack, Deck as PrintDeck, Kit, Note,
                                           ReferenceSheet)

    cards = cards if cards is not None else load_cards()
    decks = starter_decks()
    back = CardBack(title="HOLY GRAIL", subtitle="collectible card game", colour="#3a2a14",
                    accent="#d4a72c", icon="cup", pattern="diamonds")
    parts = []
    titles = {"starter-arthur": "Starter deck: Arthur's party",
              "starter-french": "Starter deck: the French"}
    for name, deck in decks.items():
        parts.append(PrintDeck(title=titles.get(name, name), cards=deck_faces(cards, deck),
                               size="poker", colours=dict(COLOURS), back=back, name=name))
    parts += [
        Board(title="Play mat: England", width_mm=MAT_W, height_mm=MAT_H, draw=draw_mat,
              name="mat"),
        # two tiles glued end to end: their glue strip says how; an overview page would show
        # the same strip reduced on an otherwise empty page
        Board(title="Avalon", width_mm=AVALON_W, height_mm=AVALON_H, draw=draw_avalon,
              name="avalon", overview=False),
        ReferenceSheet(title="Turn summary", blocks=summary_blocks(), columns=2,
                       name="summary"),
        ReferenceSheet(title="Castle and village tables", blocks=tables_blocks(cards),
                       columns=2, name="tables"),
    ]
    total = sum(len(d.cards) for d in decks.values())
    return Kit(
        game="grailccg", title="Monty Python and the Holy Grail CCG",
        subject=f"two starter decks ({total} cards), play mat, Avalon, turn summary, castle "
                "and village tables",
        notes=[Note("Two 60-card starter decks, one per player: Arthur's party and the French. "
                    "Both share one back, so a face-down card never tells which it is.",
                    ["cards"]),
               Note("Print the play mat twice (one England per player) and Avalon once; lay "
                    "Avalon between the two mats, beyond both top rows.", ["board"]),
               Note("The grail number of each card is in the cup in its top corner.", ["cards"]),
               Note("Print the cards on card stock, or on paper slipped into sleeves in front "
                    "of old playing cards.", ["cards"])],
        parts=parts)
