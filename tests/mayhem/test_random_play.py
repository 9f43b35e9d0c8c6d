"""Random play of whole Medieval Mayhem games: orders chosen from the legal options (plus random
standing orders and answers), checking after every processed turn that the 70 cards are all
there, that no report shows another player's hand, concealed character side, standing orders or
private events, that every game ends by a rule, that replay verifies and that the same seed and
orders give the same game. A few games run through the installed command line.

Set COMPANION_SOAK=1 for the long run.
"""
from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.render.report_text import render_text
from companion.store import Store

from .helpers import CAT, KIND, NAMES, check_conservation, pdf_text

SOAK = os.environ.get("COMPANION_SOAK") == "1"
STANDING = ["defend", "no defense", "defend against Dragon", "no defense against Attack",
            "defend from set", "no defense from hand", "give any", "defend none", "give none"]


class RandomPlayer:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def orders(self, state: dict, player: str, lines: list[str]) -> list[str]:
        rng = self.rng
        asked = KIND.asked(state, player)
        chosen: list[str] = []
        if asked in ("defense", "give", "limit", "pick"):
            chosen.append(rng.choice(lines))
        elif asked == "turn" and lines:
            picks = rng.sample(lines, k=min(len(lines), rng.randint(1, 3)))
            for line in picks:
                if line.startswith("set ") and rng.random() < 0.5:
                    line += rng.choice([" then attack draw 1", " then numbers none",
                                        " then crimson none", " then gilded none",
                                        " then sapphire", " then defense none"])
                if line.startswith(("play ", "character")) and rng.random() < 0.2:
                    line += " up to 1"
                chosen.append(line)
        if rng.random() < 0.15:
            extra = rng.choice(STANDING + [f"defend by {rng.choice(state['players'])}"])
            chosen.append(extra)
        if rng.random() < 0.1 and state["hands"][player]:
            card = CAT.card[rng.choice(state["hands"][player])].name
            chosen.append(f"{rng.choice(['give', 'keep'])} {card}")
        return chosen


def submit_random(rp: RandomPlayer, submit, state: dict, player: str, lines: list[str]) -> None:
    chosen = rp.orders(state, player, lines)
    while chosen:
        if submit(player, "\n".join(chosen) + "\n"):
            return
        chosen = chosen[:-1]          # an unlucky combination: drop lines until accepted
    for line in rp.rng.sample(lines, k=len(lines)):
        if submit(player, line + "\n"):
            return


# --------------------------------------------------------------------------------- checks
def check_invariants(state: dict) -> None:
    check_conservation(state)
    if state["phase"] == "play" and state["pending"] is None:
        raise AssertionError("a game in play always waits for someone")
    for p in state["players"]:
        assert len(state["sets"][p]) <= 9
        for st in state["sets"][p]:
            assert len(st) == 3
    if state["phase"] == "play":
        # zone limits hold for everybody who has finished a turn since (checked at turn end)
        assert len(state["barracks"]) == 5 or not state["deck"]
    if state["phase"] == "over":
        r = state["result"]
        assert r["winners"] and set(r["winners"]) <= set(state["players"])
        rules = state["rules"]
        assert (state["end"] is not None or rules["rounds"] or r["charm"]), \
            "the game ended without a rule's trigger"


def hidden_names(state: dict, viewer: str) -> dict[str, list[str]]:
    """What ``viewer`` must not see before the end, per other player: hand card names and the
    concealed side of the character card."""
    if state["phase"] == "over":
        return {}
    mates = set()
    for team in state["rules"].get("teams") or []:
        if viewer in team:
            mates = set(team)
    out = {}
    for p in state["players"]:
        if p == viewer or p in mates:
            continue
        secrets = [CAT.card[c].name for c in state["hands"][p]]
        cid = state["characters"].get(p)
        if cid:
            secrets.append(CAT.character[cid].bonus_text)
            secrets.append(CAT.character[cid].name)
        out[p] = secrets
    return out


def own_words(state: dict, viewer: str) -> list[str]:
    """What the viewer wrote themselves (standing orders, planned actions): may name any card."""
    from companion.mayhem.orders import defend_text, hand_text

    if viewer not in state["players"]:
        return []
    st = state["standing"][viewer]
    return ([defend_text(CAT, r) for r in st["defend"]] + hand_text(CAT, st["hand"])
            + [a["text"] for a in state["plans"].get(viewer, [])])


def check_secrecy(state: dict, texts: dict[str, str], tokens: dict[str, str]) -> None:
    for viewer, text in texts.items():
        seen_events = [e["text"] for e in state["events"]
                       if e["to"] == "public" or viewer in e["to"]] + own_words(state, viewer)
        for owner, secrets in hidden_names(state, viewer).items():
            assert tokens[owner] not in text, f"{viewer} sees {owner}'s link"
            for secret in secrets:
                pattern = re.escape(secret) + r"(?![\w])"
                if not re.search(pattern, text):
                    continue
                assert any(re.search(pattern, e) for e in seen_events), \
                    f"{viewer}'s report reveals {owner}'s secret {secret!r}"
            private = [e["text"] for e in state["events"]
                       if e["to"] != "public" and owner in e["to"] and viewer not in e["to"]]
            for line in private:
                if any(line in e for e in seen_events):
                    continue    # the viewer's own event says the same ('Your standing
                    #             orders now: defend lines: defend.', seed 74412)
                assert line not in text, f"{viewer} sees {owner}'s private event {line!r}"


def check_views_depend_on_own_part(state: dict) -> None:
    """Another player's hand (not a teammate's) changed, a card of it swapped with one of the
    deck, and a private event of theirs added: every viewer's view stays the same, with any
    number of players (before the end, while the deck has a card to swap)."""
    import copy

    if state["phase"] == "over" or not state["deck"]:
        return
    before = {viewer: KIND.view(state, viewer) for viewer in state["players"]}
    for other in state["players"]:
        if not state["hands"][other]:
            continue
        changed = copy.deepcopy(state)
        hand = changed["hands"][other]
        hand[0], changed["deck"][-1] = changed["deck"][-1], hand[0]
        for viewer in state["players"]:
            mates = [t for t in state["rules"].get("teams") or [] if viewer in t]
            if viewer == other or (mates and other in mates[0]):
                continue
            events = [e for e in changed["events"] if e["to"] == "public" or viewer in e["to"]]
            events.append({"kind": "mayhem", "text": "a secret", "to": [other]})
            after = KIND.view(dict(changed, events=events), viewer)
            assert after == before[viewer], f"{viewer}'s view depends on {other}'s hand"


OPTION_SETS = {
    2: [[], ["missing=wait"], ["charm=on"], ["free-sets=on", "best-defense=on"], ["rounds=short"],
        ["draft=on"]],
    3: [[], ["right-hand=on"], ["missing=wait", "best-defense=on"], ["draft=on", "charm=on"],
        ["chaos=on"]],
    4: [[], ["teams=on"], ["teams=on", "missing=wait"], ["right-hand=on", "free-sets=on"],
        ["rounds=short"]],
    5: [[], ["missing=wait"], ["best-defense=on", "draft=on"], ["chaos=on"]],
    6: [["teams=on"], ["teams=trios", "free-sets=on"]],
}


def play_in_process(tmp: Path, players: int, seed: int, options: list[str],
                    render: bool = False, check_every: int = 1) -> tuple[Store, str]:
    store = Store(tmp / f"game{seed}.sqlite3", create=True)
    names = NAMES[:players]
    output = tmp / "out" if render else None
    service.new_game(store, "mayhem", "g", names, seed=str(seed), option_args=options,
                     output=output)
    rp = RandomPlayer(seed)
    game = store.game("g")
    tokens = {p.name: p.token for p in game.players}

    def submit(player: str, text: str) -> bool:
        try:
            service.submit_orders(store, "g", player, text, "random.txt")
            return True
        except OrdersRejected as rejected:
            assert rejected.errors and rejected.render()
            return False

    for number in range(400):
        state = store.turn("g").state
        if state["phase"] == "over":
            break
        for p in names:
            lines = KIND.options_for(state, p)
            if lines or rp.rng.random() < 0.05:
                submit_random(rp, submit, state, p, lines)
        service.run_turn(store, "g", output=output)
        turn = store.turn("g")
        check_invariants(turn.state)
        if number % check_every == 0 or turn.state["phase"] == "over":
            texts = {v: render_text(doc) for v, doc in
                     service.report_documents(game, turn).items()}
            check_secrecy(turn.state, texts, tokens)
            check_views_depend_on_own_part(turn.state)
    final = store.turn("g").state
    assert final["phase"] == "over", "the game did not end"
    result = service.replay(store, "g")
    assert result.ok, result.message
    return store, "g"


# more mixes at the edges of the player count (2 and 5 players, and 6, the most, which play
# only with Team Tactics), played with COMPANION_SOAK=1: a six-player game takes 5 to 60 s
EDGE_SETS = {
    2: [["draft=on", "chaos=on", "charm=on"], ["best-defense=on", "free-sets=on", "rounds=3",
                                               "missing=wait", "first=Bert"]],
    5: [["draft=on", "right-hand=on", "charm=on"], ["chaos=on", "best-defense=on", "first=Emil"]],
    6: [["teams=Anna+Bert/Cora+Dora/Emil+Fritz", "right-hand=on", "best-defense=on"],
        ["teams=trios", "draft=on", "chaos=on"],
        ["teams=pairs", "charm=on", "missing=wait", "rounds=long"],
        ["teams=Anna+Cora+Fritz/Bert+Dora+Emil", "right-hand=on", "free-sets=on", "draft=on"]],
}
GAMES = [(n, seed, opts) for n, sets in OPTION_SETS.items() for i, opts in enumerate(sets)
         for seed in ([100 * n + i] + ([1000 + 100 * n + i, 2000 + 100 * n + i] if SOAK else []))]


@pytest.mark.parametrize("players, seed, options", GAMES,
                         ids=[f"{n}p-seed{s}-{'+'.join(o) or 'standard'}" for n, s, o in GAMES])
def test_random_whole_games(tmp_path, fixed_date, players, seed, options):
    play_in_process(tmp_path, players, seed, options, check_every=2)


EDGE_GAMES = [(n, 3000 + 100 * n + 10 * i + k, opts) for n, sets in EDGE_SETS.items()
              for i, opts in enumerate(sets) for k in range(3)]


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set COMPANION_SOAK=1 for the long run")
@pytest.mark.parametrize("players, seed, options", EDGE_GAMES,
                         ids=[f"{n}p-seed{s}-{'+'.join(o)}" for n, s, o in EDGE_GAMES])
def test_random_games_at_the_edges_soak(tmp_path, fixed_date, players, seed, options):
    play_in_process(tmp_path, players, seed, options, render=seed % 7 == 0, check_every=2)


def test_the_view_check_takes_every_viewer_and_every_other_hand(tmp_path, fixed_date,
                                                               monkeypatch):
    """The view checker compares every viewer's view with each other player's hand changed,
    teammates aside: a view showing the sixth player's hand to the fourth is caught."""
    store = Store(tmp_path / "v.sqlite3", create=True)
    service.new_game(store, "mayhem", "g", NAMES[:6], seed="5", option_args=["teams=pairs"])
    state = store.turn("g").state
    check_views_depend_on_own_part(state)
    real = KIND.view

    def leaking_to(who):
        def leaky(st, viewer):
            v = real(st, viewer)
            return dict(v, leak=list(st["hands"]["Fritz"])) if viewer == who else v
        return leaky

    monkeypatch.setattr(KIND, "view", leaking_to("Dora"))
    with pytest.raises(AssertionError, match="Dora's view depends on Fritz's hand"):
        check_views_depend_on_own_part(state)
    # Cora is Fritz's partner (pairs: seats 3 and 6): she may see his hand
    monkeypatch.setattr(KIND, "view", leaking_to("Cora"))
    check_views_depend_on_own_part(state)


@pytest.mark.parametrize("seed", range(8))
def test_more_random_games_engine_only(tmp_path, fixed_date, seed):
    """More games, secrecy checked only at the end (the per-turn checks run above)."""
    players = 2 + seed % 4
    play_in_process(tmp_path, players, 5000 + seed, [], check_every=1000)


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set COMPANION_SOAK=1 for the long run")
@pytest.mark.parametrize("seed", range(60))
def test_random_games_soak(tmp_path, fixed_date, seed):
    players = 2 + seed % 5
    options = random.Random(seed).choice(OPTION_SETS[players])
    play_in_process(tmp_path, players, 9000 + seed, options, render=seed % 10 == 0)


def test_same_seed_same_game(tmp_path, fixed_date):
    hashes = []
    for run in ("a", "b"):
        folder = tmp_path / run
        folder.mkdir()
        store, gid = play_in_process(folder, 3, 77, ["best-defense=on"], check_every=1000)
        hashes.append([t.hash for t in store.turns(gid)])
    assert hashes[0] == hashes[1] and len(hashes[0]) > 5


# ------------------------------------------------------------------------ the command line
def play_cli(cli, players: int, seed: int, options: list[str], max_turns: int = 400) -> None:
    names = NAMES[:players]
    args = ["new", "mayhem", "g", "--seed", str(seed)]
    for o in options:
        args += ["--option", o]
    for n in names:
        args += ["--player", n]
    cli.ok(*args)
    rp = RandomPlayer(seed)

    def submit(player: str, text: str) -> bool:
        result = cli("orders", "submit", "g", player, "-", input=text)
        assert result.code in (0, 1), result.text
        if result.code == 1:
            assert "error" in result.err and "no orders were accepted" in result.err
        return result.code == 0

    for _ in range(max_turns):
        store = Store(cli.store)
        state = store.turn("g").state
        store.close()
        if state["phase"] == "over":
            break
        for p in names:
            lines = cli.ok("options", "g", p).out.splitlines()
            if lines:
                submit_random(rp, submit, state, p, lines)
        cli.ok("turn", "g")
        store = Store(cli.store)
        turn = store.turn("g")
        game = store.game("g")
        store.close()
        check_invariants(turn.state)
        folder = cli.output / "g" / f"turn-{turn.number:03d}"
        texts = {p.name: (folder / f"{p.slug}.txt").read_text() for p in game.players}
        texts["public"] = (folder / "public.txt").read_text()
        if turn.number % 5 == 0 or turn.state["phase"] == "over":
            for p in game.players:
                texts[p.name] += pdf_text(folder / f"{p.slug}.pdf")
        check_secrecy(turn.state, texts, {p.name: p.token for p in game.players})
    store = Store(cli.store)
    assert store.turn("g").state["phase"] == "over"
    store.close()
    assert "every hash matches" in cli.ok("replay", "g").out


@pytest.mark.parametrize("players, seed, options", [(2, 11, ["rounds=2"]),
                                                    (4, 12, ["teams=on", "rounds=1"])])
def test_whole_games_through_the_command_line(cli, players, seed, options):
    play_cli(cli, players, seed, options)


def test_same_seed_same_bytes_through_the_command_line(tmp_path, cli):
    Cli = type(cli)              # the conftest's runner, whichever conftest module name it has
    outputs = []
    for run in ("a", "b"):
        root = tmp_path / run
        root.mkdir()
        cli = Cli(root)
        play_cli(cli, 3, 77, ["rounds=1"])
        outputs.append({p.relative_to(cli.output): p.read_bytes()
                        for p in sorted(cli.output.rglob("*")) if p.is_file()})
    assert outputs[0].keys() == outputs[1].keys() and len(outputs[0]) > 20
    differing = sorted(str(k) for k in outputs[0] if outputs[0][k] != outputs[1][k])
    assert not differing, f"these outputs differ between two identical runs: {differing}"
