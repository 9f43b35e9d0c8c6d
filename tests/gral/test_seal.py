"""Sealed sheets: commitments hide the sheets, and the disclosure check catches tampering."""
from __future__ import annotations

import copy

import pytest

from companion import service
from companion.engine.canon import canonical_json, sha256_hex
from companion.registry import get_kind
from companion.store import Store

KIND = get_kind("gral")


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    from companion.gral.demo import run_demo

    tmp_path = tmp_path_factory.mktemp("seal")
    store = Store(tmp_path / "s.sqlite3", create=True)
    game_id = run_demo(store, tmp_path / "out", lambda *_: None)
    game = store.game(game_id)
    return store, game, KIND.disclosure(game, store.turns(game_id))


def test_commitments_change_every_turn_even_without_assignments(tmp_path, fixed_date):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="1", option_args=["first=Anna"])
    service.run_turn(store, "g")            # both pass the opening
    service.run_turn(store, "g")            # both pass a round
    t1, t2 = store.turns("g")[1:]
    assert t1.state["sheets"] == t2.state["sheets"]
    assert t1.state["commitments"]["Anna"] != t2.state["commitments"]["Anna"]


def test_disclosure_verifies_and_the_recipe_works(finished):
    store, game, data = finished
    assert KIND.verify_disclosure(data) == []
    entry = data["turns"][3]
    salt = entry["salts"]["Inga"]
    # the documented recipe, by hand: sha256 of salt + canonical JSON of the sheet
    assert sha256_hex(salt + canonical_json(entry["sheets"]["Inga"])) == entry["commitments"]["Inga"]
    for turn in store.turns(game.id):
        assert data["turns"][turn.number]["commitments"] == turn.state["commitments"]


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d["turns"][2]["sheets"]["Gregor"]["units"].update({"B9": "yusuf-ibn-tariq"}),
     "does not match the commitment"),
    (lambda d: d["turns"][3]["salts"].update({"Manuel": "00" * 32}), "does not match the commitment"),
    (lambda d: d["turns"][4]["reveals"].append({"player": "Inga", "initiate": "mansur-al-jallah",
                                                 "amount": 40}), "revealed 40"),
    (lambda d: d["turns"][5]["lost"][0].update({"amount": 1}), "declared 1 lost"),
    (lambda d: d["result"]["totals"].update({"Gregor": 3}), "result: Gregor held 15"),
])
def test_tampering_is_detected(finished, tamper, message):
    _, _, data = finished
    bad = copy.deepcopy(data)
    tamper(bad)
    problems = KIND.verify_disclosure(bad)
    assert any(message in p for p in problems), problems


def test_a_sheet_changed_without_an_assignment_is_detected(finished):
    _, _, data = finished
    bad = copy.deepcopy(data)
    # pretend Inga's opening assignment of the 4 came a turn later, and re-seal honestly
    entry = bad["turns"][1]
    del entry["sheets"]["Inga"]["units"]["A4"]
    entry["commitments"]["Inga"] = sha256_hex(entry["salts"]["Inga"] +
                                              canonical_json(entry["sheets"]["Inga"]))
    problems = KIND.verify_disclosure(bad)
    assert any("Inga's sheet gained units A4 without an assignment" in p for p in problems), problems
