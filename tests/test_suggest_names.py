"""The suggestions for a mistyped name skip the exact difflib ratio where its cheap upper
bounds cannot reach the threshold: they must be the suggestions of the plain computation, for
every query and every game's names."""
from __future__ import annotations

import difflib

from hypothesis import given, settings, strategies as st

from companion.engine.names import fold, suggest_names

NAMES = ["Alberto Castellano", "Anna", "Ann-Katrin", "Sir Lancelot du Lac", "Camelot Castle",
         "King Arthur", "Airborne Cow", "The Holy Grail", "Keeper: Shrubbery", "Draw 2",
         "Lady of the Lake", "Black Knight", "Bert", "Cora", "Sir Bedevere the Wise"]


def plain(query: str, table: dict[str, str], limit: int = 3) -> tuple[str, ...]:
    scored = []
    for key, name in table.items():
        pieces = [key] + key.split() + [key[: len(query)]]
        score = max(difflib.SequenceMatcher(None, query, piece).ratio() for piece in pieces)
        if score >= 0.6:
            scored.append((-score, name))
    scored.sort()
    return tuple(dict.fromkeys(name for _, name in scored))[:limit]


def table(names) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        out.setdefault(fold(name), name)
    return out


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.sampled_from(NAMES).map(str.lower),
                 st.text(alphabet="abcdeilnorst -:", min_size=1, max_size=25)),
       st.data())
def test_the_same_suggestions_as_the_plain_computation(query, data):
    query = fold(query) or "a"
    if data.draw(st.booleans()):            # a typo of a known name
        name = fold(data.draw(st.sampled_from(NAMES)))
        cut = data.draw(st.integers(0, len(name)))
        query = name[:cut] + data.draw(st.text(alphabet="aeiou xz", max_size=2)) + name[cut + 1:]
        query = query.strip() or "a"
    known = table(NAMES)
    assert suggest_names(query, known) == plain(query, known)


def data_names(data, out: set[str]) -> set[str]:
    """Every ``name`` in a game's data export."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "name" and isinstance(value, str):
                out.add(value)
            else:
                data_names(value, out)
    elif isinstance(data, list):
        for value in data:
            data_names(value, out)
    return out


def test_every_games_names():
    from companion.registry import KINDS, get_kind

    for info in KINDS:
        known = table(sorted(data_names(get_kind(info.id).data_export(), set())))
        assert len(known) > 30, info.id
        for name in list(known)[::29]:
            for typo in (name[1:], name.replace("e", "a")[: len(name) // 2 + 2]):
                if typo.strip():
                    assert suggest_names(typo, known) == plain(typo, known), (info.id, typo)
