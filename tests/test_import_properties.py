"""Property test of `companion import` (docs/security.md): an export with any one value
replaced by any other JSON value, or any key added or removed (its turns taken back and address
history included), is imported whole (only when it still replays) or refused with a StoreError naming the file; a refusal leaves the store as it
was, and nothing raises anything else."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.errors import CompanionError
from companion.store import Store

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) |
                    st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def places(value, path=()):
    """Every (path) to a value inside a JSON document, the root aside."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path + (k,)
            yield from places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield path + (i,)
            yield from places(v, path + (i,))


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    """A Gral game after one turn, exported; the paths of its values, sorted."""
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1767225600"
    try:
        store = Store(tmp_path_factory.mktemp("src") / "s.sqlite3", create=True)
        service.new_game(store, "gral", "g", ["Anna", "Bert"], seed="5")
        for name in ("Anna", "Bert"):
            service.submit_orders(store, "g", name, "assign 10 to Alberto\n", "o")
        service.run_turn(store, "g")
        service.change_address(store, "g", "Anna", "anna@example.org")
        service.rewind(store, "g", 0, None, "late orders")   # a turn taken back, run again
        service.run_turn(store, "g")
        data = store.export_game("g")
        assert data["rewound_turns"] and data["address_changes"]
        store.close()
    finally:
        if old is None:
            os.environ.pop("SOURCE_DATE_EPOCH")
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old
    data = json.loads(json.dumps(data))
    return data, sorted(places(data), key=repr)


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("dst") / "t.sqlite3", create=True)
    yield store
    store.close()


def snapshot(store: Store) -> list:
    return [store.db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("games", "players", "turns", "submissions", "rewound_turns",
                      "mail_address_changes")]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), how=st.sampled_from(["replace", "drop", "add"]), value=JSON)
def test_any_damaged_export_is_refused_whole_or_imported_whole(export, target, data, how,
                                                               value):
    original, paths = export
    doc = json.loads(json.dumps(original))
    path = data.draw(st.sampled_from(paths))
    *parents, last = path
    holder = doc
    for key in parents:
        holder = holder[key]
    if how == "replace":
        holder[last] = value
    elif how == "drop":
        del holder[last]
    elif isinstance(holder, dict):
        holder[data.draw(st.text(min_size=1, max_size=8))] = value
    else:
        holder.insert(last, value)
    before = snapshot(target)
    try:
        game_id = service.import_game(target, doc, "g.json", new_id="fresh")
    except CompanionError as exc:
        assert exc.message.startswith(("g.json", "the game id", "game id")) or \
            "g.json" in exc.message, exc.message
        assert snapshot(target) == before, path
    else:           # a harmless change (an unused extra key): the game is whole and replays
        assert service.replay(target, game_id).ok
        target.delete_game(game_id)
