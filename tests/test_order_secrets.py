"""The answer to a player's orders depends only on what that player may see.

A player's order text is parsed and checked against the whole state (every hand, sheet and
standing order), and the answer goes back to the player: the refusal with its errors and
suggestions, or the lines the orders are understood as. As for the reports
(tests/test_reports.py), secrecy is tested by non-interference: for every playable kind, on a
game played a few turns (tests/every_kind.py), at several positions, changing another player's
secrets (``scrambled``) must not change

* the legal order lines ``options_for`` lists for a player, nor
* the answer to any order text of that player (the refusal as the mail reply and the web
  page give it, or the lines the orders are understood as, and by mail the greeting and
  sign-off lines set aside): every legal line alone, a few of them together, the other
  player's legal lines, lines naming what only the other player knows (their cards, their
  character, their sheet's units, their Lady), near-misses and typos of those names (a "did
  you mean" must not suggest a name the player cannot know), and junk.

Besides the positions of a game played a few turns, two that random play seldom reaches are
compared (``special``): two knights met in Knights of Camelot, and Medieval Mayhem's character
draft. A kind with a planted leak fails the comparison (``test_a_planted_leak_is_found``).

A game whose rules make an order depend on hidden facts accepts the order and resolves it when
the turn runs (telling the player then, privately), as a moderator would.
"""
from __future__ import annotations

import copy

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.store import Store
from tests.conftest import shared_game
from tests.every_kind import PLAYABLE, play, players_for, scrambled

POSITIONS = (1, 3, 5)
"""The turns after which the answers are compared (hands and sheets change as a game goes)."""

FILENAME = "orders.txt"


@pytest.fixture(scope="module", params=PLAYABLE)
def positions(request, tmp_path_factory):
    """(kind id, [(players, state)]): the states after each turn of POSITIONS that was
    played, and the positions of ``special``."""
    kind_id = request.param
    players = players_for(kind_id, 3)

    def make(folder):
        store = Store(folder / "s.sqlite3", create=True)
        play(store, kind_id, "g", players, seed="order-secrets", turns=max(POSITIONS))
        states = [(players, t.state) for t in store.turns("g") if t.number in POSITIONS]
        assert states, f"{kind_id}: no turn was played"
        states += special(store, kind_id, states[-1][1], players)
        store.close()
        return states

    return kind_id, shared_game(tmp_path_factory, f"order-secrets-{kind_id}", make)


def special(store: Store, kind_id: str, state: dict, players: list[str]) -> list[tuple]:
    """Positions a few random turns seldom reach, with secrets of their own:

    * Knights of Camelot: the last position with the second knight moved to where the first
      stands, so that the orders against another knight (join, challenge, challenge for his
      Lady, attack, pray for) are legal lines;
    * Medieval Mayhem: the character draft of optional rule A (four players: each is dealt
      four characters in secret, two stay in the box), where each player picks one."""
    if kind_id == "koc":
        met = copy.deepcopy(state)
        first, second = (met["knights"][p] for p in players[:2])
        second["at"] = dict(first["at"])
        return [(players, met)]
    if kind_id == "mayhem":
        four = players_for(kind_id, 4)
        service.new_game(store, kind_id, "draft", four, seed="order-secrets",
                         option_args=["draft=on"])
        return [(four, store.turn("draft").state)]
    return []


def answer(kind, state: dict, player: str, text: str) -> str:
    """What the player is told about ``text``: on the web page, every error (message,
    location, suggestion, hint) or the lines the orders are understood as
    (service.check_orders); by mail besides, the greeting and sign-off lines set aside before
    the rest is checked (companion/mail/run.py)."""
    from companion.mail.parse import without_courtesies
    from companion.mail.run import reads_as_order

    told = [checked(kind, state, player, text)]
    mailed, ignored = without_courtesies(text, reads_as_order(kind, state, player))
    if ignored:
        told += [c.said(" of your message") for c in ignored]
        told.append(checked(kind, state, player, mailed))
    return "\n".join(told)


def checked(kind, state: dict, player: str, text: str) -> str:
    try:
        service.validate_orders(kind, state, player, text, FILENAME)
        orders = kind.parse_orders(state, player, text, FILENAME)
        return "understood:\n" + "\n".join(kind.acknowledge(state, player, orders))
    except OrdersRejected as refused:
        return refused.render() + "".join(f"\n[{e.kind}|{e.col}|{e.length}|{e.suggestion}|"
                                          f"{e.hint}]" for e in refused.errors)
    except CompanionError as refused:
        return refused.render()


# --------------------------------------------------------------------------- what to send
def secret_names(kind_id: str, state: dict, owner: str) -> list[str]:
    """Names of things only ``owner`` knows in ``state``: the cards in their hand (and deck),
    their character, what their sheet and standing orders name."""
    kind = get_kind(kind_id)
    if kind_id == "mayhem":
        cat = kind.catalogue
        names = [cat.card[c].name for c in state["hands"].get(owner, [])]
        char = state.get("characters", {}).get(owner)
        names += [cat.character[char].name] if char in cat.character else []
        dealt = (state.get("draft") or {}).get("dealt", {}).get(owner, [])
        return names + [cat.character[c].name for c in dealt if c in cat.character]
    if kind_id == "fluxx":
        g = state["game"]
        return [kind.deck[c].name for c in g["hands"].get(owner, [])]
    if kind_id == "grailccg":
        g = state["game"]
        cards = kind.for_game(state).cards
        insts = list(g["hands"].get(owner, [])) + list(g.get("decks", {}).get(owner, []))[-5:]
        return [cards.get(g["cards"][i]).name for i in insts]
    if kind_id == "gral":
        world = kind.world
        ids = list(state["sheets"][owner]["units"].values())
        for order in state["standing"].get(owner, []):
            ids += [order.get("initiate"), order.get("to")]
        return [n for n in (_gral_name(world, i) for i in ids if i) if n]
    if kind_id == "koc":
        rec = state["knights"][owner]
        lady = (rec.get("lady") or {}).get("name")
        return [n for n in (lady, *(rec.get("oaths") or [])) if n]
    return []


def _gral_name(world, ident: str) -> str | None:
    item = world.initiate.get(ident) or world.field.get(ident)
    return item.name if item is not None else None


def extra_texts(kind_id: str, state: dict, owner: str) -> list[str]:
    """Orders shaped after ``owner``'s secrets: in Gral, assigning the units of their sheet to
    the initiates they back; in Knights of Camelot, praying for their knight (whose wounds and
    enchantments are his journal's) and asking a favour of their Lady."""
    if kind_id == "koc":
        rec = state["knights"][owner]
        lady = (rec.get("lady") or {}).get("name") or "Lady Lyonesse"
        return [f"pray for {owner}", f"pray for {rec['name']} to heal", f"seek {lady}",
                f"request heal of {lady}", f"challenge {owner} for lady"]
    if kind_id != "gral":
        return []
    world = get_kind("gral").world
    units = state["sheets"][owner]["units"]
    texts = [f"assign {world.unit[u].value} to {world.initiate[i].name}"
             for u, i in units.items() if u in world.unit and i in world.initiate]
    texts += [f"object {world.initiate[i].name} up to all" for i in set(units.values())
              if i in world.initiate]
    return texts


def typos(name: str) -> list[str]:
    """Near-misses of a name: a letter dropped in the middle, the first four letters."""
    if len(name) <= 4:
        return [name.lower()]
    mid = len(name) // 2
    return [name[:mid] + name[mid + 1:], name[:4].lower()]


JUNK = ["hello", "play xyzzy", "draw 2 cards please", "move", "assign 10 to"]


def own_texts(mine: list[str]) -> list[str]:
    """From the player's own legal lines: each alone, a few together, near-misses of the last
    word of some (a "did you mean" answer, drawn from what the player may know)."""
    texts = list(mine) + ["\n".join(mine[i:i + 3]) for i in range(0, len(mine), 3)][:4]
    texts.append("\n".join(mine))
    texts += [f"Hi all,\n{line}\nThanks!\nCheers, Anna" for line in mine[:1]]
    lasts = {}
    for line in mine:
        words = line.split()
        if len(words) > 1 and len(words[-1]) > 4:
            lasts.setdefault(words[-1], words)
    for words in list(lasts.values())[:3]:
        texts.append(" ".join(words[:-1] + [typos(words[-1])[0]]))
    return texts + JUNK


def their_texts(kind, kind_id: str, state: dict, mine: list[str], other: str) -> list[str]:
    """From what only ``other`` knows: their legal lines (which name their cards), orders
    naming their secrets, and near-misses of those names."""
    theirs = kind.options_for(state, other)
    texts = list(theirs[:15])
    verbs = [line.split()[0] for line in mine + theirs if line.split()] or ["play"]
    for name in secret_names(kind_id, state, other)[:3]:
        verb = next((line.split()[0] for line in theirs if name in line), verbs[0])
        texts += [f"{verb} {name}"] + [f"{verb} {form}" for form in typos(name)]
    return texts + extra_texts(kind_id, state, other)


# ----------------------------------------------------------------------------------- tests
def leaks(kind, kind_id: str, states: list[tuple], *, first: bool = False) -> list[tuple]:
    """Every (position, player, other, text, answer, answer with other's secrets changed)
    that differs (with ``first``, the first one only); text 'options_for' for the legal
    lines."""
    found = []
    for number, (players, state) in enumerate(states):
        changed = {o: scrambled(kind_id, state, o) for o in players}
        for player in players:
            mine = kind.options_for(state, player)
            base: dict[str, str] = {}
            for other in players:
                if other == player:
                    continue
                after = kind.options_for(changed[other], player)
                if after != mine:
                    found.append((number, player, other, "options_for", mine, after))
                    continue
                texts = own_texts(mine) + their_texts(kind, kind_id, state, mine, other)
                for text in dict.fromkeys(texts):
                    if text not in base:
                        base[text] = answer(kind, state, player, text)
                    after = answer(kind, changed[other], player, text)
                    if after != base[text]:
                        found.append((number, player, other, text, base[text], after))
                        if first:
                            return found
    return found


def described(kind_id: str, found: list[tuple]) -> str:
    return "\n\n".join(f"{kind_id} position {n}: {p}'s answer to {t!r} depends on {o}'s "
                       f"secrets:\n--- before\n{b}\n--- after\n{a}"
                       for n, p, o, t, b, a in found[:8]) + f"\n({len(found)} in all)"


def test_answers_to_orders_depend_only_on_what_the_player_may_see(positions):
    kind_id, states = positions
    found = leaks(get_kind(kind_id), kind_id, states)
    assert not found, described(kind_id, found)


def test_the_owners_own_answers_change_with_their_secrets(positions):
    """The changes are ones the order answers can show: the owner's own legal lines or the
    answers to their own orders change somewhere (else the test above would prove nothing)."""
    kind_id, states = positions
    kind = get_kind(kind_id)
    for players, state in states:
        for owner in players:
            changed = scrambled(kind_id, state, owner)
            mine = kind.options_for(state, owner)
            if kind.options_for(changed, owner) != mine:
                return
            for text in own_texts(mine) + secret_texts(kind_id, state, changed, owner):
                if answer(kind, state, owner, text) != answer(kind, changed, owner, text):
                    return
    pytest.fail(f"{kind_id}: no owner's answers show the change of their secrets")


def secret_texts(kind_id: str, state: dict, changed: dict, owner: str) -> list[str]:
    """Orders of the owner naming their secrets before and after the change."""
    names = secret_names(kind_id, state, owner) + secret_names(kind_id, changed, owner)
    return [f"{verb} {name}" for name in names for verb in ("play", "keep", "recruit")] + \
        extra_texts(kind_id, state, owner) + extra_texts(kind_id, changed, owner)


def test_the_texts_reach_every_kind_of_answer(positions):
    """The texts sent above are not all refused alike: some are understood, some refused."""
    kind_id, states = positions
    kind = get_kind(kind_id)
    seen = set()
    for players, state in states:
        for player in players:
            mine = kind.options_for(state, player)
            for text in mine[:4] + JUNK:
                seen.add(answer(kind, state, player, text).split("\n", 1)[0] == "understood:")
    assert seen == {True, False}, kind_id


def everyone(state: dict) -> list[str]:
    return state["koc"]["order"] if "koc" in state else state["players"]


class Leaky:
    """A kind that tells a player another player's secret in its answers (a planted leak)."""

    def __init__(self, kind, kind_id: str, where: str):
        self.kind, self.kind_id, self.where = kind, kind_id, where

    def __getattr__(self, name):
        return getattr(self.kind, name)

    def secrets(self, state: dict, player: str) -> str:
        """What the others' private events say, and the names of their secrets."""
        return repr([e["text"] for e in state["events"] if e["to"] not in ("public", [player])]
                    + [secret_names(self.kind_id, state, p) for p in everyone(state)
                       if p != player])

    def acknowledge(self, state, player, orders):
        lines = self.kind.acknowledge(state, player, orders)
        return lines + ([self.secrets(state, player)] if self.where == "acknowledge" else [])

    def options_for(self, state, player):
        lines = self.kind.options_for(state, player)
        return lines + ([self.secrets(state, player)] if self.where == "options" else [])


@pytest.mark.parametrize("where", ["acknowledge", "options"])
def test_a_planted_leak_is_found(where, positions):
    """The test above fails for a kind whose answers tell another player's secrets."""
    kind_id, states = positions
    leaky = Leaky(get_kind(kind_id), kind_id, where)
    assert leaks(leaky, kind_id, states[:1], first=True)


def test_the_draft_is_covered(tmp_path):
    """Medieval Mayhem's draft position (``special``): changing a player's secrets there
    changes the characters they were dealt (so their 'pick' lines), and nobody else's lines."""
    kind = get_kind("mayhem")
    store = Store(tmp_path / "s.sqlite3", create=True)
    [(players, state)] = special(store, "mayhem", {}, [])
    store.close()
    assert state["phase"] == "draft" and len(players) == 4
    owner = players[0]
    changed = scrambled("mayhem", state, owner)
    assert changed["draft"]["dealt"][owner] != state["draft"]["dealt"][owner]
    assert kind.options_for(changed, owner) != kind.options_for(state, owner)
    assert all(kind.options_for(changed, p) == kind.options_for(state, p) for p in players[1:])
