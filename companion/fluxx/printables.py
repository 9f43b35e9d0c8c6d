"""The Fluxx print-and-play kit through the print suite: all 101 cards (the 100 of the deck and
the Basic Rules card; fronts by type, one shared back), a one-page rules summary and a card
reference. Every text is generated from the card data (see :mod:`companion.fluxx.cards`), so
printed cards and the engine agree."""
from __future__ import annotations

from companion.fluxx.cards import TYPE_TITLE, Deck

COLOURS = {"Basic Rules": "#5b5b5b", "Keeper": "#2e7d32", "Creeper": "#4a2c5a",
           "Goal": "#c2185b", "New Rule": "#b7791f", "Action": "#1f5fa8"}
ICONS = {"basic": "card", "keeper": "star", "creeper": "skull", "goal": "flag", "rule": "scroll",
         "action": "bolt"}
TAG_ICONS = {"knight": "shield"}

SUMMARY = [
    ("The aim", [
        "Meet the Goal in play. A Goal names the cards you need in front of you; whoever meets "
        "it first wins at once, even on another player's turn. At the start there is no Goal.",
    ]),
    ("Setting up", [
        "Put the Basic Rules card in the middle. Shuffle the 100 cards, deal 3 to each player; "
        "the rest is the draw pile. Anyone dealt a Creeper lays it down and draws again.",
        "Agree who starts; turns then go round the table.",
    ]),
    ("Your turn", [
        "Draw as many cards as the rules say now (1 under the Basic Rules), then play as many as "
        "they say (also 1). Then discard down to the Hand Limit and the Keeper Limit, if any.",
        "Free actions from Keepers and some New Rules may be taken at any moment of your turn; "
        "they are not plays.",
        "If your hand runs out, your turn is over, however many plays were left.",
    ]),
    ("The card types", [
        "**New Rule**: lay it next to the Basic Rules; it counts at once. A rule about the same "
        "thing (drawing, playing, a limit) replaces the old one; other rules stay side by side.",
        "**Goal**: goes in the middle and replaces the old Goal.",
        "**Keeper**: goes face up in front of you.",
        "**Creeper**: never held. Draw one, and it goes in front of you at once; draw a "
        "replacement. It stops you winning unless the Goal names it.",
        "**Action**: do what it says, then discard it. All it causes is one play.",
    ]),
    ("Limits", [
        "Hand and Keeper Limits: you comply at the end of your turn; the others at once. A limit "
        "that leaves play during your turn no longer counts. Creepers never count as Keepers.",
    ]),
    ("Odd moments", [
        "Two players meeting a Goal at the same moment: no winner yet, play on.",
        "Draw pile empty: shuffle the discard pile to make a new one.",
        "A latecomer joins by being dealt 3 cards.",
        "You may never discard a card just to be rid of it: every card held must be played in "
        "time, even one that makes someone else win.",
    ]),
]


def face(deck: Deck, card):
    from companion.render.printkit import CardFace

    subtitle = ", ".join(deck.tags[t].name for t in card.tags)
    icon = ICONS[card.type]
    if card.tags:
        icon = TAG_ICONS.get(card.tags[0], icon)
    kind = TYPE_TITLE[card.type]
    if card.type == "basic":
        return CardFace(card.name, "Always on the table", card.text, flavour=card.flavour,
                        icon=icon, colour=COLOURS["Basic Rules"], footer="Monty Python Fluxx")
    return CardFace(card.name, kind, reference_text(deck, card), flavour=card.flavour, icon=icon,
                    subtitle=subtitle, footer="Monty Python Fluxx")


def reference_text(deck: Deck, card) -> str:
    """The printed text, with a plain Keeper's role spelled out."""
    if card.type == "keeper" and not card.text:
        if card.tags:
            return ("Keep it in front of you. It counts as one of the "
                    + ", ".join(deck.tags[t].plural for t in card.tags) + ".")
        return "Keep it in front of you."
    return card.text


def kit(deck: Deck):
    from companion.render.printkit import (Bullets, CardBack, Deck as PrintDeck, Heading, Kit,
                                           Note, Paragraph, ReferenceSheet, Table)

    cards = [face(deck, deck.basic)] + [face(deck, c) for c in deck.cards]
    counts = {}
    for c in deck.cards:
        counts[TYPE_TITLE[c.type]] = counts.get(TYPE_TITLE[c.type], 0) + 1
    blocks = []
    for title, lines in SUMMARY:
        blocks.append(Heading(title))
        blocks.append(Bullets(lines))
    blocks.append(Heading("By email"))
    blocks.append(Paragraph("In a game run with companion, orders list the plays in order "
                            "('play Jackpot!', 'play Steal a Keeper taking Sir Robin'); see the "
                            "order form on every report."))
    blocks.append(Paragraph("The deck: " + ", ".join(f"{n} {k}s" for k, n in counts.items())
                            + ", plus the Basic Rules card."))
    blocks.append(Heading("New Rules that replace each other"))
    groups: dict[str, list[str]] = {}
    for c in deck.of("rule"):
        for key in c.set or {}:
            groups.setdefault(key, []).append(c.name)
    topic = {"draw": "Cards drawn", "play": "Cards played", "hand_limit": "Hand Limit",
             "keeper_limit": "Keeper Limit", "goals": "Number of Goals",
             "three_counts_as": "Printed threes", "order": "Turn order"}
    blocks.append(Table(["About", "Cards (only one in play at a time)"],
                        [[topic.get(k, k), ", ".join(v)] for k, v in groups.items()],
                        widths=[1, 2.6]))
    blocks.append(Paragraph("Every other New Rule stays beside the rest: "
                            + ", ".join(c.name for c in deck.of("rule") if not c.set) + "."))
    blocks.append(Heading("Free actions"))
    blocks.append(Table(["Card", "Free action"],
                        [[c.name, c.text] for c in deck.cards if c.free], widths=[1, 2.6]))
    reference = []
    for ctype in ("keeper", "creeper", "goal", "rule", "action"):
        rows = [[c.name, reference_text(deck, c)] for c in deck.of(ctype)]
        reference.append(Heading(TYPE_TITLE[ctype] + "s", level=2))
        reference.append(Table(["Card", "What it does"], rows, widths=[1.3, 4],
                               bold_first_column=True))
    return Kit(
        game="fluxx", title="Monty Python Fluxx",
        subject="101 cards (the 100 of the deck and the Basic Rules card), rules summary, card "
                "reference",
        notes=[Note("101 cards: the 100 that are shuffled into the deck, and the Basic Rules "
                    "card (Draw 1, Play 1), which lies on the table from the start and is never "
                    "drawn.", ["cards"]),
               Note("Print the cards on card stock, or print them on paper and slip them into "
                    "card sleeves in front of old playing cards.", ["cards"]),
               Note("With duplex printing the shared back lines up behind every card; otherwise "
                    "print the cards single-sided.", ["cards"])],
        parts=[
            PrintDeck(title="Cards", cards=cards, size="poker", colours=dict(COLOURS),
                      back=CardBack(title="FLUXX", subtitle="Monty Python edition",
                                    colour="#1e2f5c", accent="#e0b040", icon="crown",
                                    pattern="diamonds"),
                      name="cards"),
            ReferenceSheet(title="Rules summary", blocks=blocks, columns=2, name="rules"),
            ReferenceSheet(title="Card reference", blocks=reference, columns=1, font_pt=7.5,
                           name="reference"),
        ])
