"""The Fluxx order grammar: every error kind located as FILE:LINE:COL with suggestions, names
matched ignoring case, accents and punctuation, unique prefixes, and the legal options."""
from __future__ import annotations

import random

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.fluxx.cards import PLACEHOLDER
from companion.fluxx.orders import parse_orders
from companion.registry import get_kind
from companion.store import Store

KIND = get_kind("fluxx")
DECK = KIND.deck
PLAYERS = ["Anna", "Bert", "Cora"]
POSITION = """game: fluxx
players: Anna, Bert, Cora
waiting: Cora
active: Anna
stage: play
turn: 1
turns-done: 0
drawn: 1
played: 0
rules: Play 2; Double Agenda
goals: Flying Creatures; Brave Sir Robin
hand: Anna: Steal a Keeper; Coconuts; Draw 3, Play 2 of Them; Trade Hands
hand: Bert: Sir Robin
hand: Cora:
table: Anna: The Finger of God; Excalibur; Grim Reaper
table: Bert: The Foot; Killer Rabbit
table: Cora:
deck:
discard:
rest: deck
"""


def parse(text: str):
    return parse_orders(DECK, PLAYERS, text, "orders.txt")


def errors_of(text: str) -> str:
    with pytest.raises(OrdersRejected) as info:
        parse(text)
    return info.value.render()


@pytest.fixture
def game(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    setup = tmp_path / "setup.txt"
    setup.write_text(POSITION, encoding="utf-8")
    service.new_game(store, "fluxx", "g", [], seed="1", setup=str(setup))
    return store


def check(store, player: str, text: str) -> str:
    with pytest.raises(OrdersRejected) as info:
        service.check_orders(store, "g", player, text, "orders.txt")
    return info.value.render()


def test_a_full_order_file_parses_with_choices_in_canonical_form():
    orders = parse("""> quoted from the last email: play nothing
# a comment line
play steal a keeper taking the foot   # the Foot is Bert's
play TRADE HANDS with bert
use finger on grim
use excalibur moving killer rabbit to cora
play Brave Sir Robin replacing Flying
taking Sir Robin
sing "Ni! Ni! # not a comment"
keep Draw 3, Play 2 of Them; Coconuts, Sir Robin
ask
-- 
play this is after the signature
""")
    lines = [(e["kind"], e.get("card"), e.get("clauses")) for e in orders.lines]
    assert lines[0] == ("play", "steal-a-keeper", {"taking": "the-foot"})
    assert lines[1] == ("play", "trade-hands", {"with": "Bert"})
    assert lines[2] == ("use", "the-finger-of-god", {"on": "grim-reaper"})
    assert lines[3] == ("use", "excalibur", {"moving": "killer-rabbit", "to": "Cora"})
    assert lines[4] == ("play", "brave-sir-robin", {"replacing": "flying-creatures"})
    assert lines[5] == ("answer", None, {"taking": "sir-robin"})
    assert orders.lines[6]["words"] == "Ni! Ni! # not a comment"
    assert orders.keep == ["draw-3-play-2-of-them", "coconuts", "sir-robin"]
    assert orders.kinds == ["play", "play", "use", "use", "play", "answer", "claim", "keep", "ask"]
    assert [e["line"] for e in orders.lines] == [3, 4, 5, 6, 7, 8, 9, 10, 11]


def test_names_ignore_case_accents_and_punctuation_and_take_unique_beginnings():
    orders = parse("play KNIGHTS OF THE round\nplay coconüts\nplay course its a good\n"
                   "play message for you sir\nplay gone to meet\nplay draw 3 play 2\n"
                   "play one two five\nplay lets do that again choosing draw 3\n"
                   "use holy hand on knights who say ni")
    assert [e["card"] for e in orders.lines] == [
        "knights-of-the-round-table", "coconuts", "course-it-s-a-good-idea",
        "message-for-you-sir", "gone-to-meet-his-maker", "draw-3-play-2-of-them",
        "one-two-five-three-sir", "let-s-do-that-again", "holy-hand-grenade-of-antioch"]
    assert orders.lines[7]["clauses"] == {"choosing": "draw-3"}
    assert orders.lines[8]["clauses"] == {"on": "knights-who-say-ni"}


def test_syntax_errors_are_located_with_suggestions():
    text = errors_of("plya Coconuts\nsing Ni!\nplay Coconuts judged ok\nkeep\nsing \"\"")
    assert "orders.txt:1:1: syntax error: unknown order 'plya'" in text
    assert "did you mean 'play'?" in text
    assert "orders.txt:2:6: syntax error: expected the line in double quotes after 'sing'" in text
    assert "orders.txt:3:15: syntax error: expected a choice" in text
    assert "orders.txt:4:" in text and "expected card names after 'keep'" in text
    assert "orders.txt:5:6: syntax error: the quoted line after 'sing' is empty" in text
    assert "5 errors in orders.txt; no orders were accepted" in text


def test_unknown_and_ambiguous_names_are_reported_with_candidates():
    text = errors_of("play Cocoanuts\nplay Sir\nplay Trade Hands with Berta\nkeep Jackpot!; Nonsense")
    assert "orders.txt:1:6: unknown name: no card called 'Cocoanuts'" in text
    assert "did you mean 'Coconuts'" in text
    assert "orders.txt:2:6: ambiguous name: 'Sir' could be any of: Sir Bedevere, Sir Galahad" in text
    assert "orders.txt:3:23: unknown name: no player called 'Berta'" in text
    assert "orders.txt:4:" in text and "no card called 'Nonsense'" in text


def test_wrong_kinds_of_cards_are_illegal_orders():
    text = errors_of("play Grim Reaper\nuse Coconuts\nplay Steal a Keeper taking Grim Reaper\n"
                     "play Basic Rules")
    assert "orders.txt:1:1: illegal order: Grim Reaper is a Creeper" in text
    assert "orders.txt:2:1: illegal order: Coconuts has no free action" in text
    assert "cards with free actions: The Finger of God" in text
    assert ("orders.txt:3:28: illegal order: Grim Reaper is a Creeper, but the Keeper to take "
            "must be a Keeper") in text
    assert "the Basic Rules card stays on the table" in text


def test_legality_is_checked_against_the_position(game):
    text = check(game, "Anna", "play Jackpot! taking The Foot\nplay Move a Creeper to Bert\n"
                 "join\nplay Coconuts\nplay Coconuts\nuse Finger on Grim Reaper\n"
                 "use Finger on Killer Rabbit")
    assert "orders.txt:1:1: illegal order: Jackpot! takes no 'taking' choice" in text
    assert "Move a Creeper takes no 'to' choice" not in text
    assert "orders.txt:2:1: illegal order: 'to <player>' belongs to 'moving <creeper>'" in text
    assert "orders.txt:3:1: illegal order: you are already playing" in text
    assert "orders.txt:5:1: illegal order: Coconuts is played twice" in text
    assert "orders.txt:7:1: illegal order: The Finger of God can be used only once in a turn" in text
    text = check(game, "Cora", "play Coconuts\njoin")
    assert "orders.txt:1:1: illegal order: you have not joined the game yet" in text


def test_syntax_names_and_legality_errors_are_listed_together(game):
    text = check(game, "Anna", "plya x\nplay Jackpot! with Bert\nplay Cocoanuts")
    assert "orders.txt:1:1: syntax error" in text
    assert "orders.txt:2:1: illegal order" in text
    assert "orders.txt:3:6: unknown name" in text
    assert "3 errors in orders.txt" in text


def test_the_acknowledgement_explains_conditional_lines(game):
    result = service.check_orders(game, "g", "Anna", "play Jackpot!\nplay Coconuts\ntaking The Foot\n"
                                  "keep Coconuts\nask", "a.txt")
    assert result.understood == [
        "play Jackpot! (not in your hand now: played if you get it in time)",
        "play Coconuts",
        "if a card asks: taking The Foot",
        "keep Coconuts (standing: replaces your earlier keep list)",
        "ask: pause and ask me when my orders do not settle a choice"]


def test_orders_after_the_end_are_refused(game):
    store = game
    state = store.turn("g").state
    state["game"]["stage"] = "over"
    orders = KIND.parse_orders(state, "Anna", "play Coconuts", "o.txt")
    with pytest.raises(OrdersRejected) as info:
        KIND.check_orders(state, "Anna", orders, "o.txt")
    assert "the game is over" in info.value.render()


def random_states(count: int):
    from fluxx_play import engine_game

    rng = random.Random(5)
    out = []
    import copy

    for seed in range(count):
        opts = {"missing": "wait", "others": "wait"} if seed % 2 else {}
        seen = []
        engine_game(seed, 2 + seed % 5, opts, max_turns=30,
                    on_turn=lambda s: seen.append(copy.deepcopy(s)))
        paused = [s for s in seen if s["pending"]]
        out += rng.sample(seen, k=min(3, len(seen))) + paused[:2]
    return out


def test_every_option_line_is_valid_input_on_its_own():
    checked = 0
    paused = 0
    for state in random_states(12):
        if state["game"]["stage"] == "over":
            continue
        paused += bool(state["pending"])
        for player in state["players"]:
            for line in KIND.options_for(state, player):
                if PLACEHOLDER in line:     # a template: refused until the player writes a line
                    with pytest.raises(OrdersRejected):
                        KIND.check_orders(state, player, KIND.parse_orders(
                            state, player, line, "o.txt"), "o.txt")
                    line = line.replace(PLACEHOLDER, "Ni!")
                orders = KIND.parse_orders(state, player, line, "o.txt")
                KIND.check_orders(state, player, orders, "o.txt")
                checked += 1
    assert checked > 100 and paused >= 3


def test_options_name_every_card_in_the_hand_and_the_free_actions(game):
    state = game.turn("g").state
    lines = KIND.options_for(state, "Anna")
    assert "play Steal a Keeper taking The Foot" in lines
    assert "play Coconuts" in lines
    assert "play Trade Hands with Bert" in lines
    assert "play Draw 3, Play 2 of Them" in lines
    assert "use The Finger of God on Killer Rabbit" in lines
    assert "use Excalibur moving Grim Reaper to Bert" in lines
    assert KIND.options_for(state, "Bert") == []
    assert KIND.options_for(state, "Cora") == ["join"]


def test_an_unclosed_quote_is_a_located_syntax_error():
    text = errors_of('sing "We are the knights who say Ni\nplay Coconuts "')
    assert "orders.txt:1:6: syntax error: a quoted line opens here but is not closed" in text
    assert "orders.txt:2:15: syntax error: a quoted line opens here" in text
    assert parse('quote "Ni" # a comment with a " in it').quote == {"words": "Ni", "judged": None}


def test_a_missing_card_name_is_reported_in_words():
    text = errors_of("play\nuse Excalibur on")
    assert "orders.txt:1:5: syntax error: expected the card to play (a card's name) (the line " \
           "ends here)" in text
    assert "orders.txt:2:17: syntax error: expected the card in play (a card's name)" in text


def test_a_finished_game_refuses_only_with_located_errors(game):
    state = game.turn("g").state
    state["game"]["stage"] = "over"
    with pytest.raises(OrdersRejected) as info:
        KIND.parse_orders(state, "Anna", "plya Coconuts", "o.txt")
    assert info.value.partial.lines == []
    KIND.check_orders(state, "Anna", info.value.partial, "o.txt")     # nothing more to say


def _scan(query: str, pairs: list) -> tuple:
    """Matching by scanning the names in deck order (what the bisecting index stands in for)."""
    if not query:
        return None, ()
    exact = {}
    for key, item in pairs:
        exact.setdefault(key, item)
    if query in exact:
        return exact[query], ()
    suffixes = [(key[i + 1:], item) for key, item in pairs
                for i, ch in enumerate(key) if ch == " "]
    for table in (pairs, suffixes):
        found = []
        for key, item in table:
            if key.startswith(query) and item not in found:
                found.append(item)
        if len(found) == 1:
            return found[0], ()
        if found:
            return None, tuple(i.name for i in found)
    return None, ()


@pytest.mark.parametrize("types", [("keeper", "creeper", "goal", "rule", "action"),
                                   ("keeper",), ("goal",), ("rule", "action")])
def test_card_name_index_matches_a_scan_of_the_names(types):
    """Every beginning of every card name and of each later word in it, and some misses,
    match through the index as through a plain scan (same card, same candidates, same order)."""
    from companion.fluxx.cards import norm

    index = DECK.name_table(types)
    pairs = [(norm(c.name), c) for c in DECK.cards if c.type in types]
    queries = {"", "zz", "the q", "a", "s", "x y"}
    for key, _ in pairs:
        words = key.split()
        for w in range(len(words)):
            rest = " ".join(words[w:])
            queries.update(rest[:n] for n in range(1, len(rest) + 1))
    for query in sorted(queries):
        assert index.match(query) == _scan(query, pairs), query


def test_a_short_name_means_the_one_card_of_that_name_before_the_player(game):
    """'draw' begins seven cards, but the only one before Anna (hand, table, rules, goals) is
    Draw 3, Play 2 of Them: it means that one. Bert, who sees only the table, gets the
    candidates he can see, or all of them."""
    result = service.check_orders(game, "g", "Anna", "play draw\n", "orders.txt")
    assert "Draw 3, Play 2 of Them" in "\n".join(result.understood)
    out = check(game, "Bert", "play hand limit\n")
    assert "could be any of: Hand Limit 1, Hand Limit 2, Hand Limit 3, Hand Limit 4" in out
    assert "ambiguous" in errors_of("play draw\n")        # without a position: all of them


def test_a_bonus_line_without_its_rule_in_play_is_acknowledged_as_conditional(game):
    """'accent "..."' with no Outrageous Accent Bonus in play is accepted (the rule may be
    played before it is reached) but the acknowledgement says it counts only then."""
    result = service.check_orders(game, "g", "Anna", 'accent "I fart in your general '
                                  'direction"\n', "orders.txt")
    assert "no rule in play now gives a bonus for it" in "\n".join(result.understood)
