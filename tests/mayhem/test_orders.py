"""The Medieval Mayhem order grammar: every error kind with FILE:LINE:COL and a suggestion,
names matched ignoring case and accents with unique prefixes, legality against the position,
rejected files changing nothing, and every listed option being accepted."""
from __future__ import annotations

import pytest

from companion import service
from companion.engine.orders import OrdersRejected

from .helpers import KIND, new_store, setup_game

CARDS = {c.id: c.name for c in KIND.catalogue.cards}

POSITION = """
players: Anna, Bert, Cora
first: Anna
turn: Anna
character: Anna = The Thief I
character: Bert = The Seer II
character: Cora = The Scavenger III
hand: Anna = Hoard Wyrm, Tidal Queen, Siege Ram, Ember Drake, Cinder Whelp, Pyre Wyrm
hand: Bert = Rose Maiden, Golden Damsel
hand: Cora = Gold Coin
barracks: Pearl Maiden, Tidal Wave, Frost Drake, Rose Guard, Cutpurse
deck:
"""


@pytest.fixture
def game(tmp_path, fixed_date):
    store = new_store(tmp_path)
    setup_game(store, "g", POSITION)
    return store


def rejected(store, text: str, player: str = "Anna") -> str:
    with pytest.raises(OrdersRejected) as info:
        service.submit_orders(store, "g", player, text, "orders.txt")
    assert store.pending("g").get(player) is None, "a rejected file must change nothing"
    return info.value.render()


@pytest.mark.parametrize("text, kind, where, needle", [
    ("plya Hoard Wyrm at Bert", "syntax error", "orders.txt:1:1", "did you mean 'play'?"),
    ("play Hoard Wyrn at Bert", "unknown name", "orders.txt:1:6", "did you mean 'Hoard Wyrm'?"),
    ("play gold at Bert", "ambiguous name", "orders.txt:1:6", "could be any of"),
    ("play Hoard Wyrm at Bret", "unknown name", "orders.txt:1:20", "did you mean 'Bert'?"),
    ("play Hoard Wyrm at", "syntax error", "orders.txt:1:19", "expected a player's name"),
    ("play Hoard Wyrm aat Bert", "syntax error", "orders.txt:1:17", "expected 'at', 'choose'"),
    ("set Ember Drake, Cinder Whelp", "illegal order", "orders.txt:1:5", "a set is 3 different cards"),
    ("discard Ember Drake then", "syntax error", "orders.txt:1:25", "expected 'draw' after 'then'"),
    ("answer maybe", "syntax error", "orders.txt:1:8", "expected 'defend', 'no defense'"),
    ("play Hoard Wyrm at Anna", "illegal order", "orders.txt:1:1", "you cannot target yourself"),
    ("play Hoard Wyrm", "illegal order", "orders.txt:1:1", "add 'at <player>'"),
    ("play Siege Ram at Bert up to 3", "illegal order", "orders.txt:1:1", "allows up to 2, not 3"),
    ("play Tidal Queen", "illegal order", "orders.txt:1:1", "add 'choose A' or 'choose B'"),
    ("play Pearl Maiden at Bert", "illegal order", "orders.txt:1:1", "does not target a player"),
    ("set Ember Drake, Hoard Wyrm, Tidal Queen", "illegal order", "orders.txt:1:1", "share no number, colour or type"),
    ("set Ember Drake, Cinder Whelp, Pyre Wyrm by number", "illegal order", "orders.txt:1:1", "do not share a number"),
    ("set Ember Drake, Cinder Whelp, Pyre Wyrm then sapphire", "illegal order", "orders.txt:1:1", "does not fire the sapphire trigger"),
    ("set Ember Drake, Cinder Whelp, Pyre Wyrm then dragon princess Red Squire", "illegal order", "orders.txt:1:1", "Red Squire is not a Princess card"),
    ("recycle Ember Drake, Pyre Wyrm", "illegal order", "orders.txt:1:1", "The Best Defense (E)"),
    ("answer no defense", "illegal order", "orders.txt:1:1", "nothing is asked of you now"),
    ("pick The Thief II", "illegal order", "orders.txt:1:1", "there is no character draft now"),
    ("character at Bert taking Rose Maiden", "illegal order", "orders.txt:1:1",
     "takes from a hand, where its owner chooses the cards: 'taking' cannot name them"),
    ("character\ncharacter at Bert", "illegal order", "orders.txt:1:1", "add 'at <player>'"),
    ("defend against Dargon", "unknown name", "orders.txt:1:16", "card types:"),
    ("defend by Bert by Cora", "syntax error", "orders.txt:1:16", "'by' is given twice"),
    ("give Ember Drake\nkeep Ember Drake", "illegal order", "orders.txt:2:1", "already in a give or keep line"),
])
def test_error_kinds_are_located_and_explained(game, text, kind, where, needle):
    out = rejected(game, text)
    assert f"{where}: {kind}" in out, out
    assert needle in out, out
    assert "no orders were accepted" in out


def test_every_error_of_a_file_is_listed_together(game):
    out = rejected(game, "plya x\nplay Hoard Wyrm at Anna\ndraw\nrecruit Nobody\n")
    assert "orders.txt:1:1: syntax error" in out
    assert "orders.txt:2:1: illegal order" in out
    assert "orders.txt:4:9: unknown name" in out
    assert "3 errors in orders.txt" in out


def test_names_ignore_case_accents_and_take_unique_prefixes(game):
    text = ("# my turn\n> quoted text from an earlier email is ignored\n"
            "PLAY hoard at bert\nrecruit PEARL m   # a comment\n-- \nsignature draw\n")
    result = service.submit_orders(game, "g", "Anna", text, "orders.txt")
    assert result.understood[0] == "action line 1: play Hoard Wyrm at Bert"
    assert result.understood[1] == "action line 2: recruit Pearl Maiden"
    assert len([u for u in result.understood if u.startswith("action line")]) == 2


def test_a_short_name_means_the_one_card_of_that_name_before_the_player(game):
    """'ember' could be Ember Drake, Ember Lancer or Emberhoard Chest, but only Ember Drake
    is in Anna's hand: it means that one; 'pearl' the Pearl Maiden in the barracks. Among
    several before her ('tidal': Tidal Queen in hand, Tidal Wave in the barracks) it stays
    ambiguous, listing only those. Another player's hand never counts (Bert's Rose Maiden)."""
    out = rejected(game, "play tidal at bert\n")
    assert "could be any of: Tidal Queen, Tidal Wave" in out and "Tidal Trove" not in out
    out = rejected(game, "keep all\n")
    assert "no card called 'all'" in out and "Ember Drake" not in out
    assert "your report lists the names" in out
    result = service.submit_orders(game, "g", "Anna", "play ember at bert\nrecruit pearl\n",
                                   "orders.txt")
    assert result.understood[:2] == ["action line 1: play Ember Drake at Bert",
                                     "action line 2: recruit Pearl Maiden"]
    assert "recruit Rose Guard" in service.submit_orders(game, "g", "Anna", "recruit rose\n",
                                                         "o").understood[0]


def test_orders_for_a_card_not_in_hand_are_accepted_with_a_note(game):
    result = service.submit_orders(game, "g", "Anna", "play Red Squire at Bert\ndraw\n", "o")
    assert "not in your hand now" in result.understood[0]


def test_standing_orders_are_acknowledged(game):
    result = service.submit_orders(game, "g", "Bert", "defend by Anna against Dragon\n"
                                   "no defense from hand\nkeep Rose Maiden\n", "o")
    text = "\n".join(result.understood)
    assert "standing order: defend by Anna against Dragon" in text
    assert "standing order: no defense from hand" in text
    assert "keep Rose Maiden" in text


def test_defend_by_yourself_is_accepted_as_it_can_apply(tmp_path, fixed_date):
    """'defend by <yourself>' is a real choice, not a line that can never apply: a card that
    hits each hand, yours included (Sunblade Lord, casebook case 59), asks its own player for a
    Defense too. So the line is accepted, and 'no defense by George' lets George's own card
    take his Dragon where the default would have defended."""
    position = """
players: George, Chris, Dan
first: George
turn: George
character: George = The Marshal I
character: Chris = The Seer II
character: Dan = The Scavenger III
hand: George = Sunblade Lord, Tower Sentinels, Ember Drake
hand: Chris = Frost Drake, Gold Coin
hand: Dan = Pearl Necklace, Ruby Chalice
barracks: Pearl Maiden, Tidal Wave, Moonlit Lady, Rose Guard, Cutpurse
deck:
standing: George: no defense by George
"""
    store = new_store(tmp_path)
    setup_game(store, "g", position)
    result = service.submit_orders(store, "g", "George", "defend by George against Knight\n",
                                   "o")
    assert "standing order: defend by George against Knight" in "\n".join(result.understood)
    store2 = new_store(tmp_path, "t")
    setup_game(store2, "g", position)
    service.submit_orders(store2, "g", "George", "play Sunblade Lord\ndraw\n", "o")
    service.run_turn(store2, "g")
    state = store2.turn("g").state
    hand = [CARDS[c] for c in state["hands"]["George"]]
    assert "Ember Drake" not in hand and "Tower Sentinels" in hand


def test_orders_once_the_game_is_over_are_refused(tmp_path, fixed_date):
    store = new_store(tmp_path)
    setup_game(store, "g", """
players: Anna, Bert
first: Anna
turn: Bert
end: deck (Anna)
character: Anna = The Thief I
character: Bert = The Seer II
hand: Bert = Ember Drake
barracks:
deck:
rest: discard
""")
    service.submit_orders(store, "g", "Bert", "discard none\ndiscard none\n", "o")
    service.run_turn(store, "g")
    with pytest.raises(OrdersRejected) as info:
        service.submit_orders(store, "g", "Anna", "draw\n", "o")
    assert "the game is over" in info.value.render()


@pytest.mark.parametrize("options", [[], ["best-defense=on", "free-sets=on"], ["right-hand=on"]])
def test_every_listed_option_is_accepted(tmp_path, fixed_date, options):
    store = new_store(tmp_path)
    setup_game(store, "g", POSITION, options)
    state = store.turn("g").state
    lines = KIND.options_for(state, "Anna")
    assert "draw" in lines and any(l.startswith("play ") for l in lines)
    assert KIND.options_for(state, "Bert") == []
    for line in lines:
        service.validate_orders(KIND, state, "Anna", line + "\n", "line")


def test_a_draft_pick_by_a_short_name_means_the_character_dealt(tmp_path, fixed_date):
    """Optional rule A: 'pick thief' means the one Thief dealt to the player (there are three
    versions); a name fitting none of those dealt still lists every version."""
    store = new_store(tmp_path)
    service.new_game(store, "mayhem", "d", ["Anna", "Bert", "Cora"], seed="7",
                     option_args=["draft=on"])
    state = store.turn("d").state
    cat = KIND.catalogue
    dealt = [cat.character[c].name for c in state["draft"]["dealt"]["Anna"]]
    word = next(w for w in ("thief", "warlord", "scavenger", "marshal", "seer", "enchantress")
                if sum(w in n.lower() for n in dealt) == 1)
    mine = next(n for n in dealt if word in n.lower())
    result = service.submit_orders(store, "d", "Anna", f"pick {word}\n", "o")
    assert mine in "\n".join(result.understood)
