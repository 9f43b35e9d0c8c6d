"""``@record`` (companion/engine/record.py) behaves as ``@dataclass`` with the same options: each
check makes the same class both ways and compares what they do."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.record import _COMPILE_AFTER, _compile, record


def both(compiled=False, **options):
    """The same class made by ``dataclass`` and by ``record`` (with, if ``compiled``, the
    ``__init__`` a record class gets once it is built often)."""

    def make(decorator):
        class Point:
            """A point with a label."""
            x: int
            y: int = 0
            label: str = "p"
            tags: list = field(default_factory=list)
            hidden: int = field(default=7, repr=False, compare=False)
            derived: int = field(default=0, init=False)
            made: list = field(default_factory=lambda: ["made"], init=False, compare=False)
        return decorator(**options)(Point)

    ours = make(record)
    if compiled:
        _compile(ours.__record__)
    return make(dataclass), ours


# module level, so pickle can find them
@record(frozen=True)
class Frozen:
    """Frozen for pickling."""
    a: int
    b: tuple = ()


@record
class Nested:
    """Holds itself, for repr's recursion guard."""
    other: object = None


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("options", [{}, {"frozen": True}, {"frozen": True, "order": True},
                                     {"order": True}])
def test_same_behaviour_as_dataclass(options, compiled):
    dc, rc = both(compiled, **options)
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((1, 2, "q", [3], 9), {}),
                         ((), {"x": 4, "label": "z"}), ((5,), {"tags": ["a"]})]:
        a, b = dc(*args, **kwargs), rc(*args, **kwargs)
        assert repr(a) == repr(b)
        assert vars(a) == vars(b) and list(vars(a)) == list(vars(b))
        assert dataclasses.asdict(a) == dataclasses.asdict(b)
        assert (a == dc(*args, **kwargs)) and (b == rc(*args, **kwargs))
        assert a != b and b != a        # never equal to another class, as with dataclasses
    assert dc(1).tags is not dc(1).tags and rc(1).tags is not rc(1).tags   # fresh defaults
    assert (rc(1, hidden=1) == rc(1, hidden=2)) == (dc(1, hidden=1) == dc(1, hidden=2))
    assert [f.name for f in dataclasses.fields(rc)] == [f.name for f in dataclasses.fields(dc)]
    assert dataclasses.is_dataclass(rc) and rc.__match_args__ == dc.__match_args__
    assert rc.__doc__ == dc.__doc__
    assert dataclasses.replace(rc(1, 2), y=5) == rc(1, 5)
    if options.get("frozen"):
        assert hash(rc(1, 2, tags=None)) == hash(dc(1, 2, tags=None))
        for obj in (dc(1), rc(1)):
            with pytest.raises(dataclasses.FrozenInstanceError):
                obj.x = 2
            with pytest.raises(dataclasses.FrozenInstanceError):
                del obj.x
    else:
        assert rc.__hash__ is None and dc.__hash__ is None
        obj = rc(1)
        obj.x = 3
        assert obj.x == 3
    if options.get("order"):
        assert (rc(1, 2) < rc(1, 3)) and (rc(2) > rc(1, 9)) and rc(1) <= rc(1) and rc(1) >= rc(1)
        assert sorted([rc(3), rc(1, 5), rc(1, 2)]) == [rc(1, 2), rc(1, 5), rc(3)]
    else:
        with pytest.raises(TypeError):
            rc(1) < rc(2)


@pytest.mark.parametrize("compiled", [False, True])
def test_wrong_arguments_are_refused_as_dataclasses_refuse_them(compiled):
    dc, rc = both(compiled)
    for args, kwargs in [((), {}), ((1, 2, 3, [], 5, 6), {}), ((1,), {"x": 2}),
                         ((1,), {"nope": 1})]:
        with pytest.raises(TypeError) as ours:
            rc(*args, **kwargs)
        with pytest.raises(TypeError) as theirs:
            dc(*args, **kwargs)
        assert str(ours.value).split("__init__() ")[1] == str(theirs.value).split("__init__() ")[1]


def test_copies_pickles_and_recursive_repr():
    item = Frozen(1, (2, 3))
    assert copy.copy(item) == item and copy.deepcopy(item) == item
    assert pickle.loads(pickle.dumps(item)) == item
    loop = Nested()
    loop.other = loop
    assert repr(loop) == "Nested(other=...)"


def test_post_init_and_unsupported_options():
    @record
    class Sum:
        """Derives its total."""
        a: int
        b: int
        total: int = field(init=False, default=0)

        def __post_init__(self):
            self.total = self.a + self.b

    assert Sum(1, 2).total == 3 and Sum(a=2, b=2).total == 4
    made = [Sum(k, 1) for k in range(_COMPILE_AFTER + 5)]      # compiled on the way
    assert Sum.__init__.__qualname__.endswith("<locals>.Sum.__init__")
    assert [m.total for m in made] == [k + 1 for k in range(_COMPILE_AFTER + 5)]
    assert list(vars(made[-1])) == ["a", "b", "total"]
    with pytest.raises(TypeError, match="InitVar"):
        @record
        class Bad:
            """InitVar is not supported."""
            a: dataclasses.InitVar[int]
    with pytest.raises(TypeError, match="defines __eq__"):
        @record
        class Own:
            """Its own equality."""
            a: int

            def __eq__(self, other):
                return True


@given(st.lists(st.tuples(st.integers(), st.integers()), max_size=6))
def test_sorting_and_sets_agree_with_dataclasses(pairs):
    dc, rc = both(frozen=True, order=True)
    ours = sorted(rc(x, y) for x, y in pairs)
    theirs = sorted(dc(x, y) for x, y in pairs)
    assert [(p.x, p.y) for p in ours] == [(p.x, p.y) for p in theirs]
    assert len({rc(x, y, tags=()) for x, y in pairs}) == len({dc(x, y, tags=()) for x, y in pairs})
