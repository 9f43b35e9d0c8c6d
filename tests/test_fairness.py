"""Provably fair chance (docs/fairness.md): for every game kind a game is played, disclosed and
verified from the disclosure alone; a die, a shuffle, an order text or a state changed afterwards
is found and named by turn; the seed appears in no artifact before the disclosure."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from companion import fairness, service
from companion.engine.canon import canonical_json
from companion.engine.chance import seed_key
from companion.registry import get_kind
from companion.store import Store, pack

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "fluxx"))


def finished_game(kind: str, tmp: Path, render: bool = False) -> tuple[Store, str]:
    """A whole game of each kind that can end, played by the random players of its tests;
    Knights of Camelot (no scenario end yet) plays three turns. With ``render`` the reports of
    the first two turns and the last are written (every turn's would cost ten times as much and
    prove nothing more: the commitment is in every report's header)."""
    tmp.mkdir(parents=True, exist_ok=True)
    if kind == "gral":
        import test_random_play

        store, game_id = test_random_play.play_in_process(tmp, 3, 5)
    elif kind == "mayhem":
        from mayhem import test_random_play as mayhem_play

        store, game_id = mayhem_play.play_in_process(tmp, 3, 5, [])
    elif kind == "fluxx":
        from test_fluxx_random_play import play_in_process

        store, _ = play_in_process(tmp, 3, 4)
        game_id = "g"
    else:
        store, game_id = Store(tmp / "koc.sqlite3", create=True), "g"
        service.new_game(store, "koc", "g", ["Anna", "Bert"], seed="5")
        for _ in range(3):
            service.run_turn(store, "g")
    if render:
        last = store.turn(game_id).number
        chosen = sorted({0, 1, last})
        for number in range(last + 1):      # the others count as published (else the first
            if number not in chosen:        # render_reports publishes every missing turn)
                store.mark_published(game_id, number)
        for number in chosen:
            service.render_reports(store, game_id, number, tmp / "out")
    return store, game_id


def disclose(store: Store, game_id: str) -> dict:
    game = store.game(game_id)
    return fairness.disclosure(game, store.turns(game_id))


def reseal(store: Store, game_id: str, number: int, change) -> None:
    """What a dishonest moderator would do: change turn ``number`` and recompute every hash
    from there on, so that the store itself looks consistent."""
    turns = store.turns(game_id, check=False)
    change(turns[number])
    for turn in turns[number:]:
        turn.prev_hash = turns[turn.number - 1].hash if turn.number else turn.prev_hash
        turn.hash = turn.compute_hash()
        store.db.execute("UPDATE turns SET state=?, chance=?, inputs=?, digests=?, hash=?, "
                         "prev_hash=? WHERE game_id=? AND number=?",
                         (pack(turn.state), pack(turn.chance), pack(turn.inputs),
                          canonical_json(turn.digests()),
                          turn.hash, turn.prev_hash, game_id, turn.number))


@pytest.mark.parametrize("kind", ["gral", "koc", "mayhem", "fluxx"])
def test_a_game_disclosed_and_verified_from_the_file_alone(tmp_path, kind, make_cli):
    store, game_id = finished_game(kind, tmp_path / "play", render=True)
    game = store.game(game_id)
    turns = store.turns(game_id)
    over = get_kind(kind).is_over(turns[-1].state)
    assert over or kind == "koc"
    # every report carries the commitment; none carries the seed
    commitment = fairness.chance_commitment(game)
    reports = sorted((tmp_path / "play" / "out" / game_id).rglob("*.txt"))
    assert reports
    for path in reports:
        text = path.read_text()
        assert commitment in text, path
        assert seed_key(game.seed).hex() not in text      # (short test seeds match anything)
    # the last turn's folder holds the disclosure when the game is over
    last = tmp_path / "play" / "out" / game_id / f"turn-{turns[-1].number:03d}"
    if over:
        data = json.loads((last / fairness.FILE_NAME).read_text())
        assert data == disclose(store, game_id)
    else:
        assert not (last / fairness.FILE_NAME).exists()
        data = disclose(store, game_id)
    # a player, in an empty folder, with the file and their own report
    player = make_cli(tmp_path / "player")
    (tmp_path / "player").mkdir()
    path = tmp_path / "player" / "disclosure.json"
    path.write_text(json.dumps(data))
    own = sorted(last.glob("*.txt"))[0]
    out = player.ok("verify", "--disclosure", str(path), "--report", str(own)).out
    assert "the commitment matches" in out and "every turn matches" in out, out
    assert not (tmp_path / "player" / "store.sqlite3").exists()
    verdict = fairness.verify(data)
    assert verdict.ok and verdict.commitment_ok and verdict.stream > 0
    assert len(verdict.turns) == len(turns)


def test_changes_afterwards_are_found_and_named(tmp_path, make_cli):
    store, game_id = finished_game("gral", tmp_path / "play", render=True)
    honest = disclose(store, game_id)
    assert fairness.verify(honest).ok

    def first_problem(data) -> str:
        verdict = fairness.verify(data)
        assert not verdict.ok
        return verdict.problems[0]

    # an order text changed in the disclosure
    data = json.loads(json.dumps(honest))
    used = next(t for t in data["turns"] if t["inputs"]["submissions"])
    used["inputs"]["submissions"][0]["text"] += "\n# changed\n"
    problem = first_problem(data)
    assert f"turn {used['number']}:" in problem and "orders or dice supplied" in problem
    # the seed swapped for another
    data = json.loads(json.dumps(honest))
    data["seed"] = "12345"
    assert "commitment does not match" in first_problem(data)
    # a die changed in the store and every hash recomputed
    koc_store, koc_id = finished_game("koc", tmp_path / "die")
    rolled = [t.number for t in koc_store.turns(koc_id)
              if t.number > 0 and any(o["kind"] == "die" for o in t.chance)]
    middle = rolled[len(rolled) // 2]

    def change_die(turn):
        die = next(o for o in turn.chance if o["kind"] == "die")
        die["value"] = die["value"] % die["n"] + 1

    reseal(koc_store, koc_id, middle, change_die)
    problem = first_problem(disclose(koc_store, koc_id))
    assert f"turn {middle}:" in problem and "dice and shuffles" in problem, problem
    # a shuffle at the start changed the same way
    fresh_store, fresh_id = finished_game("koc", tmp_path / "shuffle")

    def change_shuffle(turn):
        shuffle = next(o for o in turn.chance if o["kind"] == "shuffle")
        shuffle["value"][0], shuffle["value"][1] = shuffle["value"][1], shuffle["value"][0]

    reseal(fresh_store, fresh_id, 0, change_shuffle)
    problem = first_problem(disclose(fresh_store, fresh_id))
    assert "turn 0:" in problem and "dice and shuffles" in problem, problem
    # a state changed afterwards (the hashes rewritten): the reports still print the old ones
    reports = [p.read_text() for p in (tmp_path / "play" / "out" / game_id).rglob("*.txt")]
    reseal(store, game_id, 1, lambda turn: turn.state.__setitem__("rounds", 99))
    after = disclose(store, game_id)
    problem = first_problem(after)
    assert "turn 1:" in problem and "state" in problem and "dice" not in problem, problem
    printed = fairness.hashes_in_reports(reports)
    verdict = fairness.verify(honest, printed)
    assert verdict.ok, verdict.problems
    assert not fairness.verify(after, printed).ok


def test_moderator_dice_are_counted_apart(tmp_path, make_cli):
    cli = make_cli(tmp_path)
    cli.ok("new", "koc", "g", "--player", "Anna", "--player", "Bert", "--seed", "2")
    cli.ok("turn", "g", "--dice", "3,4")
    cli.ok("turn", "g")
    stored = cli.ok("verify", "g").out            # the moderator checks a stored game
    assert "every turn matches" in stored and "2 dice supplied by the moderator" in stored
    result = cli("disclose", "g")
    assert result.code == 1 and "--before-end" in result.err
    out = cli.ok("disclose", "g", "--before-end").out
    path = Path(out.strip().splitlines()[-1])
    text = cli.ok("verify", "--disclosure", str(path)).out
    assert re.search(r"2 dice supplied by the moderator \(turn 1\)", text), text
    verdict = fairness.verify(json.loads(path.read_text()))
    assert verdict.moderator == 2 and verdict.moderator_turns == [1]
    shape = json.loads(cli.ok("verify", "--disclosure", str(path), "--json").out)
    assert shape["ok"] and shape["commitment_matches"] and len(shape["turns"]) == 3
    assert shape["outcomes"]["moderator"] == 2 and shape["outcomes"]["moderator_turns"] == [1]


def test_the_seed_is_in_no_artifact_before_the_disclosure(tmp_path, make_cli):
    cli = make_cli(tmp_path)
    seed = "a-seed-nobody-should-see-4711"
    cli.ok("new", "fluxx", "g", "--player", "Anna", "--player", "Bert", "--seed", seed)
    cli.ok("turn", "g")
    key = seed_key(seed).hex()
    outputs = [cli.ok("show", "g", "--player", p).out for p in ("Anna", "Bert", "public")]
    outputs += [cli.ok("show", "g", "--player", "Anna", "--json").out,
                cli.ok("options", "g", "Anna").out, cli("orders", "check", "g", "Anna", "-",
                                                         input="fly away\n").text]
    for path in (tmp_path / "output").rglob("*"):
        if path.is_file():
            outputs.append(path.read_bytes().decode("latin-1"))
    for text in outputs:
        assert seed not in text and key not in text
