"""Findings of a rules-fidelity audit (casebook cases 110-112), each pinned by a test:

* rules edition 3: a single New Rule discarded (Rules Reset, This Game Has Become Too Silly) is
  "The New Rule X is discarded", and a one-card discard pile shuffled into a new draw pile is
  "(1 card)"; games of edition 2 and older keep the old wording, so they replay to the same
  bytes;
* a choice that can never work for the card named is refused when the orders are checked, with
  a hint, and nothing is stored: The Finger of God or Trash a Keeper on a card of the wrong
  type, I'm Not Dead Yet! or Let's Do That Again! choosing a card they cannot take, Trade Hands
  with yourself, Excalibur moving your Creeper to you;
* rules edition 4 (casebook 114-119, the reports read as on a phone): card lists holding a
  name with a comma use semicolons, no full stop after a name ending in ! or ?, a card played
  from Draw 2 and Use 'em / Draw 3, Play 2 of Them is named first, and the hand line agrees
  with its count."""
from __future__ import annotations

import pytest

from companion.engine.chance import Chance, seed_key
from companion.engine.game import TurnContext
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind

KIND = get_kind("fluxx")
OPTIONS = {"missing": "default", "others": "default", "first": "random", "social": "trust",
           "waiting": [], "turn-limit": 0}

POSITION = """game: fluxx
players: Anna, Bert, Cora
active: Anna
stage: play
turn: 1
turns-done: 0
drawn: 1
played: 0
rules: {rules}
goals:
hand: Anna: Rules Reset; Jackpot!; Trade Hands; I'm Not Dead Yet!; Let's Do That Again!; Trash a Keeper
hand: Bert: The Foot
hand: Cora: Coconuts
table: Anna: Grim Reaper; The Finger of God; Excalibur
table: Bert: Sir Robin
table: Cora:
deck: {deck}
discard: {discard}
rest: {rest}
"""


def state_of(rules="Draw 2", deck="Sir Galahad", discard="", rest="deck", edition=None):
    state = KIND.read_position(POSITION.format(rules=rules, deck=deck, discard=discard,
                                               rest=rest), "p.txt", OPTIONS)
    state["edition"] = KIND.edition if edition is None else edition
    return state


def play(state: dict, text: str) -> list[str]:
    orders = KIND.parse_orders(state, "Anna", text, "o.txt")
    KIND.check_orders(state, "Anna", orders, "o.txt")
    key = seed_key("audit")
    ctx = TurnContext(turn=1, key=key, chance=Chance(key, 1), orders={"Anna": orders},
                      options=dict(OPTIONS))
    KIND.process(state, ctx)
    KIND.finish_turn(state, ctx)
    return [e["text"] for e in state["events"] if e["to"] == "public"]


def test_the_kind_is_at_rules_edition_5():
    assert KIND.edition == 5


@pytest.mark.parametrize("edition, text", [
    (3, "The New Rule Draw 2 is discarded; the Basic Rules stay."),
    (2, "The New Rules Draw 2 are discarded; the Basic Rules stay."),
    (1, "The New Rules Draw 2 are discarded; the Basic Rules stay."),
])
def test_one_new_rule_discarded_is_said_in_the_singular_from_edition_3(edition, text):
    public = play(state_of(edition=edition), "play Rules Reset")
    assert text in public, public


def test_several_new_rules_discarded_keep_the_plural():
    public = play(state_of(rules="Draw 2; Hand Limit 4"), "play Rules Reset")
    assert "The New Rules Draw 2 and Hand Limit 4 are discarded; the Basic Rules stay." in public


@pytest.mark.parametrize("edition, text", [
    (3, "The draw pile is empty: the discard pile (1 card) is shuffled into a new draw pile."),
    (2, "The draw pile is empty: the discard pile (1 cards) is shuffled into a new draw pile."),
])
def test_a_one_card_discard_pile_reshuffled_is_one_card_from_edition_3(edition, text):
    # both piles emptied (the position is cut down for this message only): Jackpot! draws
    # nothing and goes to the discard pile when done; Bert's draw then reshuffles it alone
    state = state_of(deck="", discard="", rest="discard", edition=edition)
    g = state["game"]
    g["deck"], g["discard"] = [], []
    public = play(state, "play Jackpot!")
    assert text in public, public


@pytest.mark.parametrize("text, needle, hint", [
    ("use The Finger of God on Sir Robin",
     "Sir Robin is a Keeper, and The Finger of God discards only a Creeper",
     "name a Creeper in play after 'on'"),
    ("play Trash a Keeper on Grim Reaper",
     "Grim Reaper is a Creeper, and Trash a Keeper discards only a Keeper",
     "name a Keeper in play after 'on'"),
    ("play I'm Not Dead Yet! choosing Draw 2",
     "Draw 2 is a New Rule, and I'm Not Dead Yet! takes back only a Keeper",
     "name a Keeper in the discard pile after 'choosing'"),
    ("play Let's Do That Again! choosing Sir Robin",
     "Sir Robin is a Keeper, and Let's Do That Again! plays again only an Action or a New Rule",
     "name such a card in the discard pile after 'choosing'"),
    ("play Trade Hands with Anna",
     "Trade Hands trades your hand with another player's, not with your own",
     "name another player after 'with'"),
    ("use Excalibur moving Grim Reaper to Anna",
     "Excalibur moves your Creeper to another player, not to you",
     "name another player after 'to'"),
])
def test_a_choice_that_can_never_work_is_refused_when_checked(text, needle, hint):
    state = state_of()
    orders = KIND.parse_orders(state, "Anna", text, "o.txt")
    with pytest.raises(OrdersRejected) as info:
        KIND.check_orders(state, "Anna", orders, "o.txt")
    out = info.value.render()
    assert "o.txt:1:1: illegal order: " + needle in out, out
    assert hint in out, out


@pytest.mark.parametrize("text", [
    "use The Finger of God on Grim Reaper",
    "play Trash a Keeper on Sir Robin",
    "play I'm Not Dead Yet! choosing Sir Galahad",
    "play Let's Do That Again! choosing Jackpot!",
    "play Trade Hands with Bert",
    "use Excalibur moving Grim Reaper to Cora",
    "play Steal a Keeper taking The Finger of God",  # yours now, another's later perhaps
])
def test_choices_that_may_work_are_still_taken(text):
    state = state_of()
    orders = KIND.parse_orders(state, "Anna", text, "o.txt")
    KIND.check_orders(state, "Anna", orders, "o.txt")


# -- the placeholder for a line of one's own (casebook case 113) -------------------------------
@pytest.mark.parametrize("social", ["trust", "judge"])
@pytest.mark.parametrize("text, where", [
    ('quote "(write your line here)"', "'quote'"),
    ('quote "write your line here"', "'quote'"),
    ('sing "(Write your line here.)" judged ok', "'sing'"),
    ('accent "(write your line here)" judged ok', "'accent'"),
    ('play Jackpot!\nplay What Is Your Quote? quoting "(write your line here)" judged ok',
     "'quoting'"),
])
def test_the_placeholder_for_a_line_of_ones_own_is_refused(social, text, where):
    state = state_of(rules="Draw 2; Sing-Along Bonus; Outrageous Accent Bonus")
    state["social"] = social
    state["game"]["hands"]["Anna"].append(next(c.id for c in KIND.deck.cards
                                               if c.name == "What Is Your Quote?"))
    before = repr(state)
    with pytest.raises(OrdersRejected) as info:
        KIND.check_orders(state, "Anna", KIND.parse_orders(state, "Anna", text, "o.txt"), "o.txt")
    rendered = info.value.render()
    assert f'"(write your line here)" after {where} only marks where your own line goes' \
        in rendered, rendered
    assert "write a line of your own between the double quotes in its place" in rendered
    assert repr(state) == before


def test_a_line_that_only_mentions_the_placeholder_is_taken():
    state = state_of()
    for text in ('quote "I wrote my line here"', 'quote "(write your line here) Ni!"'):
        KIND.check_orders(state, "Anna", KIND.parse_orders(state, "Anna", text, "o.txt"), "o.txt")


@pytest.mark.parametrize("edition, text", [
    (3, "Exchange Keepers needs a Keeper in front of Anna and one in front of another player: "
        "nothing happens."),
    (2, "Exchange Keepers needs a Keeper in front of you and one in front of someone else: "
        "nothing happens."),
])
def test_exchange_keepers_with_nothing_to_exchange_names_the_player_from_edition_3(edition,
                                                                                    text):
    """Found by random play: a public line said "in front of you" to every reader."""
    state = state_of(edition=edition)
    g = state["game"]
    g["table"]["Anna"] = [c for c in g["table"]["Anna"] if KIND.deck[c].type != "keeper"]
    g["hands"]["Anna"].append(next(c.id for c in KIND.deck.cards
                                   if c.name == "Exchange Keepers"))
    public = play(state, "play Exchange Keepers")
    assert text in public, public


def test_card_lists_set_off_names_holding_a_comma_from_edition_4():
    """Rules edition 4 (casebook 114-119): a list with a name holding a comma uses
    semicolons; other lists are unchanged; no full stop after a name's ! or ?."""
    from companion.fluxx.rules import card_list, end_stop

    assert card_list(["Coconuts", "The Foot"]) == "Coconuts and The Foot"
    assert card_list(["Message For You, Sir"]) == "Message For You, Sir"
    assert card_list(["Hand Limit 4", "Draw 3, Play 2 of Them", "A Shrubbery"]) == \
        "Hand Limit 4; Draw 3, Play 2 of Them; and A Shrubbery"
    assert end_stop("Anna plays Jackpot!.") == "Anna plays Jackpot!"
    assert end_stop("Anna plays Who Leaps Out?.") == "Anna plays Who Leaps Out?"
    assert end_stop("The Foot (Jackpot!).") == "The Foot (Jackpot!)."


@pytest.mark.parametrize("edition, text", [
    (3, "Anna plays Jackpot!."),
    (4, "Anna plays Jackpot!"),
])
def test_no_full_stop_after_a_name_ending_in_an_exclamation_mark_from_edition_4(edition, text):
    public = play(state_of(edition=edition), "play Jackpot!")
    assert text in public, public
