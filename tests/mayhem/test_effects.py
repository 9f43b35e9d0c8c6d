"""Every card's effect, and every character action, played once in a position where each of its
steps can do something; each step must then have done it. Also: the effect language parses and
refuses what it should, and every generated text reads as a sentence."""
from __future__ import annotations

import re

import pytest

from companion import service
from companion.mayhem.effects import EffectError, parse_bonus, parse_effect

from .helpers import CAT, check_conservation, new_store, setup_game

IS = {
    "Dragon": lambda c: c.type == "Dragon", "Princess": lambda c: c.type == "Princess",
    "Knight": lambda c: c.type == "Knight", "Treasure": lambda c: c.type == "Treasure",
    "Attack": lambda c: c.type == "Attack", "Sapphire": lambda c: c.colour == "Sapphire",
    "SapphireTreasure": lambda c: c.colour == "Sapphire" and c.type == "Treasure",
    "NonSapphirePrincess": lambda c: c.type == "Princess" and c.colour != "Sapphire",
    "Shield": lambda c: c.kind == "Shield", "Guardians": lambda c: c.kind == "Guardians",
    "Scales": lambda c: c.kind == "Scales", "Other": lambda c: c.type == "Attack",
}
LAYOUT = [
    ("Bert hand", ["Princess", "Princess", "Treasure", "Treasure", "Knight", "Knight", "Knight",
                   "Dragon"]),
    ("Bert play", ["Knight", "Knight", "Princess", "Dragon", "Dragon", "Treasure", "Attack"]),
    ("Bert set", ["Dragon", "Dragon", "Dragon"]),
    ("Cora hand", ["Treasure", "Princess", "Other"]),
    ("Cora play", ["Knight", "Other"]),
    ("Anna hand", ["Dragon", "Other"]),
    ("Anna play", ["Knight", "Treasure"]),
    ("barracks", ["NonSapphirePrincess", "Knight", "Dragon", "SapphireTreasure", "Other"]),
    ("discard", ["Dragon", "Treasure", "Knight", "Princess", "Sapphire", "Shield", "Guardians",
                 "Scales"]),
]


def rich_position(tested: str | None, character: str) -> str:
    used = {tested} if tested else set()
    zones: dict[str, list[str]] = {}
    for where, needs in LAYOUT:
        picked = []
        for need in needs:
            card = next(c for c in CAT.cards if c.id not in used and IS[need](c)
                        and (c.type != "Defense" or where == "discard"))
            used.add(card.id)
            picked.append(card.name)
        zones[where] = picked
    if tested:
        zones["Anna hand"].insert(0, CAT.card[tested].name)
    others = [ch.name for ch in CAT.characters if ch.name != character]
    lines = ["players: Anna, Bert, Cora", "first: Anna", "turn: Anna",
             f"character: Anna = {character}", f"character: Bert = {others[0]}",
             f"character: Cora = {others[1]}"]
    for where, names in zones.items():
        if where == "Bert set":
            lines.append("set: Bert = " + ", ".join(names))
        elif " " in where:
            who, z = where.split()
            lines.append(f"{z}: {who} = " + ", ".join(names))
        else:
            lines.append(f"{where}: " + ", ".join(names))
    if "deck" not in zones:
        lines.append("deck:")           # the cards named nowhere are shuffled in
    return "\n".join(lines) + "\n"


def step_happened(step, events: list[dict], actor: str = "Anna") -> bool:
    def data(e):
        return e.get("data", {})
    if step.op == "draw":
        who = {"you": [actor], "target": ["Bert"], "others": ["Bert", "Cora"],
               "each": ["Anna", "Bert", "Cora"]}[step.who]
        return all(any(e["kind"] == "draw" and data(e).get("player") == p and
                       data(e).get("count", 0) >= 1 for e in events) for p in who)
    if step.hidden:
        owner = step.places[0].owner
        who = {"target": ["Bert"], "own": [actor], "others": ["Bert", "Cora"],
               "each": ["Anna", "Bert", "Cora"]}[owner]
        return any(e["kind"] == "give" and data(e).get("player") == p for e in events
                   for p in who if p != "Anna" or step.op == "destroy")
    for e in events:
        # one card an event, or (from rules edition 3) several taken from the Barracks at once
        taken = [data(e)["card"]] if data(e).get("card") else data(e).get("cards", [])
        if e["kind"] == step.op and any(step.filter.matches(CAT.card[c]) for c in taken):
            return True
    return False


CARD_PLAYS = [(c.id, alt) for c in CAT.cards for alt in range(len(c.effect.alternatives))]


@pytest.mark.parametrize("card, alt", CARD_PLAYS,
                         ids=[f"{CAT.card[c].no:02d}-{c}-{'AB'[a]}" for c, a in CARD_PLAYS])
def test_every_card_does_what_it_says(card, alt, tmp_path, fixed_date):
    c = CAT.card[card]
    store = new_store(tmp_path)
    setup_game(store, "g", rich_position(card, "The Marshal I"))
    order = f"play {c.name}"
    if c.effect.targets:
        order += " at Bert"
    if c.effect.choose:
        order += f" choose {'AB'[alt]}"
    service.submit_orders(store, "g", "Anna", order + "\ndiscard none\n", "a.txt")
    service.run_turn(store, "g")
    turn = store.turn("g")
    check_conservation(turn.state)
    events = turn.events
    played = next(i for i, e in enumerate(events) if e["kind"] == "play")
    after = events[played + 1:]
    assert card in turn.state["play"]["Anna"], "a played card stays in its player's play zone"
    for step in c.effect.steps(alt):
        assert step_happened(step, after), \
            f"{c.name}: the step '{step.text()}' did nothing:\n" + \
            "\n".join(e["text"] for e in after)
    assert service.replay(store, "g").ok


FACES = list(dict.fromkeys(ch.face for ch in CAT.characters))


@pytest.mark.parametrize("face", FACES)
def test_every_character_action_does_what_it_says(face, tmp_path, fixed_date):
    ch = next(ch for ch in CAT.characters if ch.face == face)
    store = new_store(tmp_path)
    setup_game(store, "g", rich_position(None, ch.name))
    order = "character" + (" at Bert" if ch.action.targets else "")
    service.submit_orders(store, "g", "Anna", order + "\ndiscard none\n", "a.txt")
    service.run_turn(store, "g")
    turn = store.turn("g")
    events = turn.events
    used = next(i for i, e in enumerate(events) if e["kind"] == "character")
    for step in ch.action.steps(0):
        assert step_happened(step, events[used + 1:]), f"{face}: '{step.text()}' did nothing"
    assert not any(e["kind"] == "defense" for e in events), "no Defense against a character"


# ------------------------------------------------------------------------- the language
@pytest.mark.parametrize("text, message", [
    ("", "the effect is empty"),
    ("steal 1 card from target hand", "'steal' is not a step"),
    ("capture 1 Dragun from target hand", "'Dragun' is not a colour, type"),
    ("capture 1 Princess", "expected 'from' and a place"),
    ("capture 1 Princess from target", "expected a zone after 'target'"),
    ("capture 1 Princess from target pocket", "'pocket' is not a zone"),
    ("capture 9 card from barracks", "how many cards must be from 1 to 5"),
    ("capture 1 card from own hand", "changes nothing"),
    ("lure 1 card from own play", "changes nothing"),
    ("capture 1 card from target hand or barracks", "a hand cannot be combined"),
    ("draw 1 | draw 2", "alternatives ('|') need 'choose'"),
    ("choose draw 2", "needs two or more alternatives"),
    ("capture 1 Scales Knight from discard", "Scales is a kind of Defense card"),
    ("capture 1 Gilded Crimson from discard", "the colour is given twice"),
    ("target steals 1", "after 'target' only 'draws N'"),
    ("draw 1 2", "unexpected '2'"),
])
def test_effect_language_refuses_mistakes(text, message):
    with pytest.raises(EffectError) as info:
        parse_effect(text)
    assert message in info.value.message


@pytest.mark.parametrize("text, message", [
    ("2 Dragon in play", "expected 'per' or 'if'"),
    ("2 per Dragon in pocket", "'pocket' is not a zone"),
    ("5 if 3 set", "expected 'at least N'"),
    ("4 per shape set", "'shape' is not an aspect"),
    ("x per set", "expected the points"),
])
def test_bonus_language_refuses_mistakes(text, message):
    with pytest.raises(EffectError) as info:
        parse_bonus(text)
    assert message in info.value.message


def sentence_problems(text: str) -> list[str]:
    problems = []
    for bad in ("None", "{", "}", "  ", " .", "1 cards", "card(s)", "TODO", "XXX", "..",
                "from from", "the the", "upto", " 0 "):
        if bad in text:
            problems.append(f"contains {bad!r}")
    for sentence in re.split(r"(?<=[.])\s+|\n", text.replace("**", "")):
        sentence = sentence.strip()
        if not sentence:
            continue
        if not (sentence[0].isupper() or sentence[0].isdigit()):
            problems.append(f"sentence starts in lower case: {sentence!r}")
    if not text.rstrip().endswith("."):
        problems.append("does not end with a full stop")
    return problems


@pytest.mark.parametrize("card", [c.id for c in CAT.cards])
def test_card_texts_read_as_sentences(card):
    c = CAT.card[card]
    assert c.text.strip(), f"{c.name} has no text"
    assert not sentence_problems(c.text), (c.name, c.text, sentence_problems(c.text))
    assert len(c.text) < 330, f"{c.name}: the text is too long for a poker card"
    for word in ("Capture", "Destroy", "Lure", "Draw", "draw", "capture", "destroy", "lure",
                 "draws", "Choose"):
        if word in c.text:
            break
    else:
        raise AssertionError(f"{c.name}: the text uses none of the rules' verbs: {c.text}")


@pytest.mark.parametrize("character", [c.id for c in CAT.characters])
def test_character_texts_read_as_sentences(character):
    ch = CAT.character[character]
    for text in (ch.action_text, ch.bonus_text):
        assert text.strip() and not sentence_problems(text), (ch.name, text)


def test_texts_are_generated_from_the_effects():
    """Text and behaviour cannot disagree: each card's text is its effect's generated text."""
    for c in CAT.cards:
        assert c.effect.text() in c.text
        assert parse_effect(c.effect.source).text() == c.effect.text()


def test_effects_use_the_rules_vocabulary():
    texts = " ".join(c.text for c in CAT.cards)
    for word in ("Capture", "Destroy", "Lure", "Draw", "Choose one", "up to", "target player",
                 "each other player", "each player"):
        assert word in texts, word
