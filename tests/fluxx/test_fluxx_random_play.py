"""Random play of whole Fluxx games choosing orders from the legal options: no crash, the 101
cards conserved across the zones after every turn, a finished game has exactly one winner who
meets a Goal, no report shows another player's hand (also changed hands leave other reports
byte for byte the same), replay verifies, and the same seed and orders give the same bytes.

Most games run through the rules engine alone or the service layer; a few through the installed
console script. Set COMPANION_SOAK=1 for the long run.
"""
from __future__ import annotations

import copy
import os
import random
from pathlib import Path

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.errors import CompanionError
from companion.registry import get_kind
from companion.render.report_pdf import render_pdf
from companion.render.report_text import render_text
from companion.store import Store

from fluxx_play import NAMES, RandomPlayer, check_invariants, engine_game, submit_lines

KIND = get_kind("fluxx")
DECK = KIND.deck
SOAK = os.environ.get("COMPANION_SOAK") == "1"


def options_for_seed(seed: int) -> dict:
    opts = {}
    if seed % 3 == 1:
        opts["missing"] = "wait"
    if seed % 4 == 2:
        opts["others"] = "wait"
    if seed % 5 == 3:
        opts["social"] = "judge"
    if seed % 7 == 4:
        opts["waiting"] = ["Bert"]
    return opts


ENGINE_GAMES = [(2 + seed % 5, seed) for seed in range(600 if SOAK else 60)]


@pytest.mark.parametrize("players, seed", ENGINE_GAMES,
                         ids=[f"{p}p-seed{s}" for p, s in ENGINE_GAMES])
def test_random_whole_games_through_the_engine(players, seed):
    opts = options_for_seed(seed)
    if players == 2 and opts.get("waiting"):
        opts.pop("waiting")
    state, turns = engine_game(seed, players, opts, max_turns=600)
    assert state["edition"] == KIND.edition, "engine games play the current rules edition"
    g = state["game"]
    assert g["stage"] == "over", f"no end after {turns} turns"
    assert g["result"]["winner"] in g["seated"]


OLD_EDITION_GAMES = [(edition, 2 + seed % 5, seed) for edition in range(KIND.edition)
                     for seed in range(700, 700 + (40 if SOAK else 4))]


@pytest.mark.parametrize("edition, players, seed", OLD_EDITION_GAMES,
                         ids=[f"edition{e}-{p}p-seed{s}" for e, p, s in OLD_EDITION_GAMES])
def test_random_whole_games_of_earlier_editions_through_the_engine(edition, players, seed):
    """Games begun by an earlier release go on being played (and replayed) under their own
    edition, so its branches are played too, if fewer times."""
    opts = options_for_seed(seed)
    if players == 2:
        opts.pop("waiting", None)
    state, turns = engine_game(seed, players, opts, max_turns=600, edition=edition)
    assert state.get("edition", 0) == edition
    g = state["game"]
    assert g["stage"] == "over", f"no end after {turns} turns"
    assert g["result"]["winner"] in g["seated"]


# ------------------------------------------------------------------------- the service layer

def check_secrecy(state: dict, texts: dict[str, str], tokens: dict[str, str]) -> None:
    """No report holds another player's private events or link token."""
    private = {p: {e["text"] for e in state["events"] if e["to"] != "public" and p in e["to"]}
               for p in state["players"]}
    for viewer, text in texts.items():
        for owner in state["players"]:
            if owner == viewer:
                continue
            assert tokens[owner] not in text, f"{viewer} sees {owner}'s link"
            for line in private[owner] - private.get(viewer, set()):
                assert line not in text, f"{viewer}'s report shows {owner}'s event {line!r}"


def check_views(state: dict) -> None:
    g = state["game"]
    for viewer in state["players"] + ["public"]:
        v = KIND.view(state, viewer)
        if viewer == "public":
            assert "hand" not in v and "hands" not in v
        else:
            assert [c["name"] for c in v["hand"]] == [DECK.name(c) for c in g["hands"][viewer]]
            assert "hands" not in v and "question" not in v
            if "using" in v:
                assert viewer == g["active"]
        assert [r["hand"] for r in v["table"]] == [len(g["hands"][p]) for p in state["players"]]


def scrambled(state: dict, owner: str, rng: random.Random) -> dict | None:
    """The same position with ``owner``'s hand swapped for unseen cards of the draw pile."""
    other = copy.deepcopy(state)
    g = other["game"]
    hand = g["hands"][owner]
    if not hand or len(g["deck"]) < len(hand):
        return None
    fresh = rng.sample(g["deck"], k=len(hand))
    for card in fresh:
        g["deck"].remove(card)
    g["deck"] = hand + g["deck"]
    g["hands"][owner] = fresh
    other["standing"][owner] = {"keep": list(fresh[:1]), "quote": {"words": "secret", "judged": None}}
    other["events"] = other["events"] + [{"kind": "note", "text": "A secret for the owner.",
                                          "to": [owner]}]
    return other


def non_interference(game, turn, rng: random.Random, pdf: bool = False) -> None:
    base = {v: render_text(doc) for v, doc in service.report_documents(game, turn).items()}
    for owner in [p.name for p in game.players]:
        changed_state = scrambled(turn.state, owner, rng)
        if changed_state is None:
            continue
        changed = copy.copy(turn)
        changed.state = changed_state
        docs = service.report_documents(game, changed)
        for viewer, doc in docs.items():
            text = render_text(doc)
            if viewer == owner:
                assert text != base[viewer]
            else:
                assert text == base[viewer], f"{viewer}'s report depends on {owner}'s hand"
        if pdf:
            before = service.report_documents(game, turn)
            for viewer, doc in docs.items():
                if viewer != owner:
                    assert render_pdf(doc) == render_pdf(before[viewer])


def play_in_process(tmp: Path, players: int, seed: int, *, render: bool = False,
                    interference_every: int = 8, max_turns: int = 300) -> tuple[Store, list]:
    store = Store(tmp / f"game{seed}.sqlite3", create=True)
    output = tmp / "out" if render else None
    opts = options_for_seed(seed)
    args = []
    for key, value in opts.items():
        args.append(f"{key}={','.join(value) if isinstance(value, list) else value}")
    if players == 2:
        args = [a for a in args if not a.startswith("waiting")]
    service.new_game(store, "fluxx", "g", NAMES[:players], seed=str(seed), option_args=args,
                     output=output)
    rng = random.Random(seed)
    player_rng = RandomPlayer(seed, opts.get("social", "trust"))
    game = store.game("g")
    tokens = {p.name: p.token for p in game.players}
    hashes = []

    def submitter(player):
        def submit(text: str) -> bool:
            try:
                service.submit_orders(store, "g", player, text, "random.txt")
                return True
            except OrdersRejected as rejected:
                assert rejected.errors and rejected.render()
                return False
        return submit

    for number in range(max_turns):
        state = store.turn("g").state
        if KIND.is_over(state):
            break
        for p in NAMES[:players]:
            if p in KIND.awaited(state):
                lines = player_rng.turn_orders(state, p)
                if not submit_lines(submitter(p), lines):
                    options = [o for o in KIND.options_for(state, p)    # not a template
                               if "(write your line here)" not in o]
                    assert options and submitter(p)(options[0])
            elif p in state["game"]["waiting"] and rng.random() < 0.4:
                assert submitter(p)("join\n")
            elif rng.random() < 0.1 and p in state["game"]["seated"]:
                submit_lines(submitter(p), player_rng.standing(state, p))
        try:
            service.run_turn(store, "g", output=output)
        except CompanionError as exc:
            assert "nothing to adjudicate" in exc.message, exc.message
            continue
        turn = store.turn("g")
        hashes.append(turn.hash)
        check_invariants(turn.state)
        check_views(turn.state)
        texts = {v: render_text(doc) for v, doc in service.report_documents(game, turn).items()}
        check_secrecy(turn.state, texts, tokens)
        if interference_every and number % interference_every == 0:
            non_interference(game, turn, rng)
    state = store.turn("g").state
    assert KIND.is_over(state)
    result = service.replay(store, "g")
    assert result.ok, result.message
    return store, hashes


SERVICE_GAMES = [(2 + seed % 5, seed) for seed in range(200 if SOAK else 8)]


@pytest.mark.parametrize("players, seed", SERVICE_GAMES,
                         ids=[f"{p}p-seed{s}" for p, s in SERVICE_GAMES])
def test_random_whole_games_through_the_service(tmp_path, fixed_date, players, seed):
    play_in_process(tmp_path, players, 1000 + seed)


def test_same_seed_and_orders_give_the_same_record(tmp_path, fixed_date):
    runs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        store, hashes = play_in_process(folder, 4, 4242, interference_every=0)
        runs.append((hashes, [t.chance for t in store.turns("g")]))
    assert runs[0] == runs[1] and len(runs[0][0]) > 5


def test_changed_hands_leave_other_pdf_reports_byte_for_byte_the_same(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    names = ["Anna", "Jörg Ünal", "Борис"]
    service.new_game(store, "fluxx", "g", names, seed="9", option_args=["first=Anna"])
    for _ in range(3):
        state = store.turn("g").state
        player = KIND.awaited(state)[0]
        service.submit_orders(store, "g", player, KIND.options_for(state, player)[0], "o.txt")
        service.run_turn(store, "g")
    non_interference(store.game("g"), store.turn("g"), random.Random(1), pdf=True)


@pytest.mark.soak
@pytest.mark.skipif(not SOAK, reason="set COMPANION_SOAK=1 for the long run with reports")
@pytest.mark.parametrize("seed", range(12))
def test_random_games_with_rendered_reports_soak(tmp_path, fixed_date, seed):
    play_in_process(tmp_path, 2 + seed % 5, 5000 + seed, render=True, interference_every=2)


# ------------------------------------------------------------------------- the command line

def play_cli(cli, players: int, seed: int, turns: int, options=()) -> None:
    names = NAMES[:players]
    args = ["new", "fluxx", "g", "--seed", str(seed), "--option", f"turn-limit={turns}"]
    for option in options:
        args += ["--option", option]
    for n in names:
        args += ["--player", n]
    cli.ok(*args)
    player_rng = RandomPlayer(seed)

    for _ in range(turns + 2):
        store = Store(cli.store)
        state = store.turn("g").state
        game = store.game("g")
        store.close()
        if KIND.is_over(state):
            break
        for p in KIND.awaited(state):
            def submit(text: str, p=p) -> bool:
                result = cli("orders", "submit", "g", p, "-", input=text)
                assert result.code in (0, 1), result.text
                if result.code == 1:
                    assert "no orders were accepted" in result.err
                return result.code == 0
            options_out = cli.ok("options", "g", p).out.splitlines()
            assert options_out == KIND.options_for(state, p)
            if not submit_lines(submit, player_rng.turn_orders(state, p)):
                assert submit(options_out[0] + "\n")
        cli.ok("turn", "g")
        store = Store(cli.store)
        turn = store.turn("g")
        store.close()
        check_invariants(turn.state)
        folder = cli.output / "g" / f"turn-{turn.number:03d}"
        texts = {p.name: (folder / f"{p.slug}.txt").read_text() for p in game.players}
        texts["public"] = (folder / "public.txt").read_text()
        assert (folder / "public.pdf").read_bytes().startswith(b"%PDF")
        check_secrecy(turn.state, texts, {p.name: p.token for p in game.players})
    assert "every hash matches" in cli.ok("replay", "g").out


@pytest.mark.parametrize("players, seed, turns, options", [
    (3, 31, 3, ()), (2, 32, 3, ("missing=wait",)), (6, 33, 2, ("social=judge",))])
def test_random_games_through_the_command_line(cli, players, seed, turns, options):
    play_cli(cli, players, seed, turns if not SOAK else 60, options)


def test_same_seed_same_bytes_through_the_command_line(cli, tmp_path):
    Cli = type(cli)      # the shared fixture's class ('from conftest import' is ambiguous here)
    outputs = []
    for run in ("a", "b"):
        root = tmp_path / run
        root.mkdir()
        cli = Cli(root)
        play_cli(cli, 3, 77, turns=2)
        outputs.append({p.relative_to(cli.output): p.read_bytes()
                        for p in sorted(cli.output.rglob("*")) if p.is_file()})
    assert outputs[0].keys() == outputs[1].keys() and len(outputs[0]) > 20
    differing = sorted(str(k) for k in outputs[0] if outputs[0][k] != outputs[1][k])
    assert not differing, f"these outputs differ between two identical runs: {differing}"
