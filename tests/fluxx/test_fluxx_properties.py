"""Property-based tests of the Fluxx input readers: any order text and any setup position is
either read or refused with errors that name the line and the column, never a traceback; every
position read back keeps the game's invariants; positions of real play round-trip exactly."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine.orders import OrderError, OrdersRejected, order_lines
from companion.errors import DataError, DataErrors
from companion.fluxx.cards import ALL_CLAUSES
from companion.fluxx.orders import HEADS, line_text
from companion.fluxx.position import (KEYS, MAX_TURN, max_drawn, max_extra_play, read_position,
                                      setup_players, use_limit, write_position)
from companion.fluxx.rules import MAX_PLAYS

from fluxx_play import check_invariants, played_states

from companion.registry import get_kind

KIND = get_kind("fluxx")
DECK = KIND.deck
OPTIONS = {"missing": "default", "others": "default", "social": "trust", "turn-limit": 0}
FILENAME = "setup.txt"
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _pool() -> list[dict]:
    """States reached by real play: 2 to 6 players, paused turns, players waiting to join."""
    out = []
    for seed, players, options in [
            (1, 3, {"turn-limit": 25}),
            (2, 6, {"turn-limit": 25, "missing": "wait", "others": "wait"}),
            (3, 2, {"turn-limit": 25, "others": "wait"}),
            (4, 4, {"turn-limit": 25, "waiting": ["Dora"]}),
            (5, 5, {"turn-limit": 25, "social": "judge", "waiting": ["Bert", "Emil"]})]:
        states = played_states(seed, players, options)
        out += [s for s in states if s["game"]["stage"] != "over"][::2]
        out.append(states[-1])                      # often a finished game
    return out


POOL = _pool()
LIVE = [s for s in POOL if s["game"]["stage"] != "over"]
CARD_NAMES = [c.name for c in DECK.cards]
PLAYER_NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz", "Ann", "Zed"]


# -- order texts ------------------------------------------------------------------------------------
def _casing(draw, word: str) -> str:
    how = draw(st.sampled_from(["same", "lower", "upper", "prefix"]))
    if how == "lower":
        return word.lower()
    if how == "upper":
        return word.upper()
    if how == "prefix" and len(word) > 1:
        return word[:draw(st.integers(1, len(word) - 1))]
    return word


@st.composite
def order_word(draw) -> str:
    kind = draw(st.sampled_from(["head", "clause", "card", "card", "player", "number", "punct",
                                 "quoted", "misc", "junk"]))
    if kind == "head":
        return _casing(draw, draw(st.sampled_from(HEADS)))
    if kind == "clause":
        return _casing(draw, draw(st.sampled_from(ALL_CLAUSES + ("judged",))))
    if kind == "card":
        return _casing(draw, draw(st.sampled_from(CARD_NAMES + [DECK.basic.name])))
    if kind == "player":
        return _casing(draw, draw(st.sampled_from(PLAYER_NAMES)))
    if kind == "number":
        return str(draw(st.integers(-3, 10 ** 6)))
    if kind == "punct":
        return draw(st.sampled_from([";", ",", '"', "#", ">", "--", ":", "=", "+", "(", ")",
                                     "'", "!", "\t", "\u00a0", "\u2028"]))
    if kind == "quoted":
        return '"' + draw(st.text(max_size=12)).replace('"', "") + '"'
    if kind == "misc":
        return draw(st.sampled_from(["ok", "no", "none", "nothing", "all", "Ni!", "Spam"]))
    return draw(st.text(max_size=6))


CLAUSE_ARGS = {"to": "player", "with": "player", "quoting": "quoted"}


@st.composite
def order_line(draw) -> list[str]:
    """The words of a line shaped like an order (so the parser gets past the first word),
    sometimes with a word put in or left out."""
    head = draw(st.sampled_from(HEADS + ("", "")))
    words = [head] if head else []
    if head in ("play", "use", "keep"):
        words.append(_casing(draw, draw(st.sampled_from(CARD_NAMES))))
    if head == "keep":
        for _ in range(draw(st.integers(0, 3))):
            words += [draw(st.sampled_from([";", ",", "; "])),
                      _casing(draw, draw(st.sampled_from(CARD_NAMES)))]
    elif head in ("sing", "accent", "quote"):
        words.append('"' + draw(st.text(max_size=10)).replace('"', "") + '"')
    elif head not in ("ask", "join"):
        for _ in range(draw(st.integers(0 if head else 1, 3))):
            clause = draw(st.sampled_from(ALL_CLAUSES))
            words.append(_casing(draw, clause))
            arg = CLAUSE_ARGS.get(clause, "card")
            if arg == "player":
                words.append(_casing(draw, draw(st.sampled_from(PLAYER_NAMES))))
            elif arg == "quoted":
                words.append('"' + draw(st.text(max_size=10)).replace('"', "") + '"')
            else:
                words.append(_casing(draw, draw(st.sampled_from(CARD_NAMES))))
    if draw(st.booleans()):
        words += draw(st.sampled_from([[], ["judged", "ok"], ["judged"], ["judged", "maybe"]]))
    if words and draw(st.integers(0, 3)) == 0:
        words.insert(draw(st.integers(0, len(words))), draw(order_word()))
    if words and draw(st.integers(0, 5)) == 0:
        del words[draw(st.integers(0, len(words) - 1))]
    return words


@st.composite
def order_text(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        words = draw(st.one_of(st.lists(order_word(), min_size=0, max_size=8), order_line()))
        sep = draw(st.sampled_from([" ", "  ", "\t", ""]))
        lines.append(sep.join(words))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


def _located_order_errors(rejected: OrdersRejected, text: str) -> None:
    assert rejected.errors, "a rejection without any error"
    count = max(1, len(text.splitlines()))
    for err in rejected.errors:
        assert isinstance(err, OrderError)
        assert err.line is not None and err.col is not None, err.format()
        assert 1 <= err.line.number <= count, err.format()
        assert err.col >= 1, err.format()
        assert err.format().startswith(f"o.txt:{err.line.number}:{err.col}: ")
    rejected.render()


def check_order_text(state: dict, player: str, text: str) -> None:
    """What ``companion orders check`` does with a text: parse, check, acknowledge."""
    assume(order_lines(text))          # texts without order lines are refused by shared code
    try:
        orders = KIND.parse_orders(state, player, text, "o.txt")
    except OrdersRejected as rejected:
        _located_order_errors(rejected, text)
        orders = rejected.partial
    else:
        KIND.acknowledge(state, player, orders)
        again = KIND.parse_orders(state, player, "\n".join(line_text(DECK, e)
                                                         for e in orders.lines), "o.txt")
        strip = lambda entries: [{k: v for k, v in e.items() if k not in ("line", "text")}
                                 for e in entries]
        assert strip(again.lines) == strip(orders.lines), "the canonical lines read differently"
    if orders is not None:
        try:
            KIND.check_orders(state, player, orders, "o.txt")
        except OrdersRejected as rejected:
            _located_order_errors(rejected, text)


@settings(max_examples=150, **SETTINGS)
@given(state=st.sampled_from(POOL), data=st.data(), text=st.text(max_size=120))
def test_any_text_is_parsed_or_refused_with_located_errors(state, data, text):
    check_order_text(state, data.draw(st.sampled_from(state["players"])), text)


@settings(max_examples=400, **SETTINGS)
@given(state=st.sampled_from(POOL), data=st.data(), text=order_text())
def test_texts_of_order_words_are_parsed_or_refused_with_located_errors(state, data, text):
    check_order_text(state, data.draw(st.sampled_from(state["players"])), text)


@settings(max_examples=80, **SETTINGS)
@given(state=st.sampled_from(LIVE), data=st.data())
def test_every_legal_option_line_is_accepted(state, data):
    player = data.draw(st.sampled_from(state["players"]))
    lines = KIND.options_for(state, player)
    assume(lines)
    line = data.draw(st.sampled_from(lines)).replace("(write your line here)", "Ni")
    orders = KIND.parse_orders(state, player, line, "o.txt")
    KIND.check_orders(state, player, orders, "o.txt")


# -- positions ------------------------------------------------------------------------------------
def read(text: str, options=OPTIONS) -> dict:
    return read_position(DECK, text, FILENAME, options)


def _located_data_errors(exc, text: str) -> None:
    errors = exc.errors if isinstance(exc, DataErrors) else [exc]
    assert errors
    end = len(text.splitlines()) + 1
    for err in errors:
        assert isinstance(err, DataError)
        assert err.path == FILENAME, err.render()
        assert isinstance(err.line, int) and 1 <= err.line <= end, err.render()
        assert isinstance(err.column, int) and err.column >= 1, err.render()
        assert err.render().startswith(f"{FILENAME}:{err.line}:{err.column}: error: ")
    exc.render()


def check_read(text: str, options=OPTIONS) -> dict | None:
    """Read a position: either it is refused with located errors, or it keeps every invariant
    of the game (and the players a setup names are the players read)."""
    try:
        pos = read(text, options)
    except (DataError, DataErrors) as exc:
        _located_data_errors(exc, text)
        return None
    players = list(pos["game"]["hands"])
    assert setup_players(text) == players
    state = {"players": players, "game": pos["game"], "standing": pos["standing"],
             "pending": None, "events": []}
    check_invariants(state)
    g = pos["game"]
    assert g["stage"] in ("start", "play") and g["active"] in g["seated"]
    assert 0 <= g["turns_done"] <= g["turn"] <= MAX_TURN
    assert g["turns_done"] == g["turn"] - (1 if g["stage"] == "play" else 0)
    assert 0 <= g["drawn"] <= max_drawn(DECK) and 0 <= g["played"] <= MAX_PLAYS
    assert 0 <= g["extra_play"] <= max_extra_play(DECK)
    if g["stage"] == "start":
        assert g["drawn"] == g["played"] == g["extra_play"] == 0 and not g["used"]
    for cid in g["used"]:
        assert DECK[cid].free and g["used"].count(cid) <= use_limit(DECK[cid])
    for p in players:
        keep = pos["standing"][p]["keep"]
        assert keep is None or (len(set(keep)) == len(keep)
                                and all(DECK[c].type != "creeper" for c in keep))
    return pos


@settings(max_examples=150, **SETTINGS)
@given(text=st.text(max_size=200))
def test_any_text_is_read_or_refused_with_located_errors(text):
    check_read(text)


@st.composite
def position_line(draw) -> str:
    key = draw(st.sampled_from(KEYS + ("stag", "hands", "Game", "turns_done", "")))
    parts = []
    if key in ("hand", "table", "keep", "quote"):
        parts.append(_casing(draw, draw(st.sampled_from(PLAYER_NAMES))) + ":")
    for _ in range(draw(st.integers(0, 4))):
        parts.append(draw(order_word()))
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from([";", ",", "; "])))
    return f"{key}: {' '.join(parts)}"


@settings(max_examples=200, **SETTINGS)
@given(lines=st.lists(position_line(), max_size=20))
def test_texts_of_position_lines_are_read_or_refused_with_located_errors(lines):
    check_read("\n".join(lines))


# mutations of valid positions
def _valid_texts() -> list[str]:
    return [write_position(DECK, s) for s in LIVE]


TEXTS = _valid_texts()
REQUIRED = ("game", "players", "active", "stage", "turn", "turns-done", "drawn", "played",
            "rules", "goals", "hand", "table", "deck", "discard")


def _key(line: str) -> str | None:
    m = re.match(r"\s*([a-z-]+)\s*:", line)
    return m.group(1) if m else None


def _same(pos: dict | None, text: str) -> bool:
    original = read(text)
    return pos is not None and pos == original


@settings(max_examples=80, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_position_cut_short_is_refused_unless_nothing_was_lost(text, data):
    cut = data.draw(st.integers(0, len(text) - 1))
    pos = check_read(text[:cut])
    lost = "\n".join(l for l in text[cut:].splitlines() if not l.lstrip().startswith("#"))
    if lost.strip():
        assert pos is None or _same(pos, text), f"cut at {cut}: {text[cut - 20:cut]!r}|..."


@settings(max_examples=80, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_required_line_deleted_is_refused(text, data):
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    pos = check_read("\n".join(lines[:i] + lines[i + 1:]))
    if _key(lines[i]) in REQUIRED:
        assert pos is None, f"line {i + 1} deleted: {lines[i]!r}"


@settings(max_examples=80, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_line_given_twice_is_refused(text, data):
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    j = data.draw(st.integers(0, len(lines)))
    assume(_key(lines[i]))
    pos = check_read("\n".join(lines[:j] + [lines[i]] + lines[j:]))
    assert pos is None, f"line {i + 1} repeated: {lines[i]!r}"


CARD_LINE = re.compile(r"^((?:hand|table|keep): [^:]*: |(?:rules|goals|deck|discard|used): )(.*)$")


@settings(max_examples=100, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_card_moved_copied_or_removed_is_checked(text, data):
    lines = text.splitlines()
    with_cards = [i for i, l in enumerate(lines) if CARD_LINE.match(l) and CARD_LINE.match(l)[2]]
    src = data.draw(st.sampled_from(with_cards))
    head, body = CARD_LINE.match(lines[src]).groups()
    cards = body.split("; ")
    k = data.draw(st.integers(0, len(cards) - 1))
    card = cards[k]
    how = data.draw(st.sampled_from(["move", "copy", "remove"]))
    if how != "copy":
        lines[src] = head + "; ".join(cards[:k] + cards[k + 1:])
    if how != "remove":
        targets = [i for i, l in enumerate(lines) if CARD_LINE.match(l)]
        dst = data.draw(st.sampled_from(targets))
        dhead, dbody = CARD_LINE.match(lines[dst]).groups()
        dcards = [c for c in dbody.split("; ") if c]
        dcards.insert(data.draw(st.integers(0, len(dcards))), card)
        lines[dst] = dhead + "; ".join(dcards)
    pos = check_read("\n".join(lines) + "\n")
    aside = ("keep", "used")                # lists that do not hold the card itself
    from_pile = not head.startswith(aside)
    to_pile = how != "remove" and not dhead.startswith(aside)
    broken = {"remove": from_pile, "copy": to_pile, "move": from_pile != to_pile}[how]
    if broken:
        assert pos is None, f"{card} {how}d: every card must be in exactly one place"


@settings(max_examples=100, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_number_changed_is_checked(text, data):
    spots = [m for m in re.finditer(r"\d+", text)]
    m = data.draw(st.sampled_from(spots))
    new = data.draw(st.one_of(st.integers(-5, 200).map(str), st.integers(0, 10 ** 30).map(str),
                              st.sampled_from(["", "x", "1.5", "²", "٣", "1e3", "0x10", " 7 ",
                                               "9" * 5000])))
    check_read(text[:m.start()] + new + text[m.end():])


@settings(max_examples=60, **SETTINGS)
@given(text=st.sampled_from(TEXTS), data=st.data())
def test_a_line_changed_into_garbage_is_refused_or_read(text, data):
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    cut = data.draw(st.integers(0, len(lines[i])))
    lines[i] = lines[i][:cut] + data.draw(st.text(max_size=15)) + lines[i][cut:]
    check_read("\n".join(lines))


# -- round trip -----------------------------------------------------------------------------------
@settings(max_examples=60, **SETTINGS)
@given(state=st.sampled_from(LIVE))
def test_positions_of_real_play_round_trip(state):
    text = write_position(DECK, state)
    pos = check_read(text)
    assert pos is not None
    g = state["pending"]["snapshot"] if state["pending"] else state["game"]
    assert pos["game"] == g
    assert pos["standing"] == state["standing"]
    again = write_position(DECK, dict(state, game=pos["game"], standing=pos["standing"],
                                      pending=state["pending"] and dict(state["pending"],
                                                                        snapshot=pos["game"])))
    assert again == text


def test_the_pool_covers_paused_turns_waiting_players_and_finished_games():
    assert any(s["pending"] for s in LIVE)
    assert any(s["game"]["waiting"] for s in LIVE)
    assert any(s["game"]["stage"] == "over" for s in POOL)
    assert len({len(s["players"]) for s in POOL}) == 5
