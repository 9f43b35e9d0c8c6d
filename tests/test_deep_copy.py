"""engine.canon.deep_copy (marshal for JSON-like values, copy.deepcopy for anything else) and the
memoised engine.names.fold: the same results as the plain functions they stand in for."""
from __future__ import annotations

import copy
import enum
import math
from collections import OrderedDict

from hypothesis import given, strategies as st

from companion.engine.canon import canonical_json, deep_copy
from companion.engine.names import fold

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
values = st.recursive(scalars, lambda inner: st.lists(inner) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(), inner), max_leaves=40)


def same(a, b) -> bool:
    """Equal, with the same types all the way down (NaN equal to NaN, -0.0 apart from 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) ==
                                                     math.copysign(1, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@given(values)
def test_deep_copy_matches_deepcopy(value):
    copied = deep_copy(value)
    assert same(copied, copy.deepcopy(value))
    assert same(copied, value)


def test_deep_copy_shares_nothing_mutable_and_keeps_shared_objects_shared():
    inner = [1, 2]
    state = {"a": inner, "b": inner, "c": {"d": [3]}}
    copied = deep_copy(state)
    copied["a"].append(9)
    copied["c"]["d"].append(4)
    assert state == {"a": [1, 2], "b": [1, 2], "c": {"d": [3]}}
    assert copied["b"] == [1, 2, 9]  # still one list, as deepcopy keeps it
    assert canonical_json(deep_copy(state)) == canonical_json(state)


def test_deep_copy_falls_back_for_other_types():
    class Colour(enum.Enum):
        RED = "red"

    class Thing:
        def __init__(self):
            self.items = [1]

    thing = Thing()
    value = {"colour": Colour.RED, "ordered": OrderedDict(a=1), "thing": thing}
    copied = deep_copy(value)
    assert copied["colour"] is Colour.RED
    assert type(copied["ordered"]) is OrderedDict and copied["ordered"] == {"a": 1}
    assert copied["thing"] is not thing and copied["thing"].items == [1]


@given(st.text())
def test_fold_memoised_gives_the_plain_result(text):
    assert fold(text) == fold.__wrapped__(text)
    assert fold(text) == fold.__wrapped__(text)  # second call from the memo


def test_fold_examples():
    assert fold("Rennes-le-Château") == fold("rennes le chateau") == "rennes le chateau"
    assert fold("  Sir  Kay's ") == "sir kay s"
