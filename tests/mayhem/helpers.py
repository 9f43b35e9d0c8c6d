"""Shared helpers of the Medieval Mayhem tests: games through the service layer, zones by name,
the card-conservation invariant."""
from __future__ import annotations

from pathlib import Path

from companion import service
from companion.registry import get_kind
from companion.store import Store
from tests.pdftext import pdf_text  # noqa: F401 (for the tests that import it from here)

KIND = get_kind("mayhem")
CAT = KIND.catalogue
ALL_IDS = sorted(c.id for c in CAT.cards)
NAMES = ["Anna", "Bert", "Cora", "Dora", "Emil", "Fritz"]


def card_id(name: str) -> str:
    return CAT.card_by_name[name]


def names(ids) -> list[str]:
    return [CAT.card[c].name for c in ids]


def zone(state: dict, where: str) -> list[str]:
    """'Anna hand', 'Anna play', 'Anna sets', 'barracks', 'discard', 'deck' -> card names."""
    parts = where.split()
    if len(parts) == 1:
        return names(state[parts[0]])
    player, z = parts
    if z == "sets":
        return names([c for s in state["sets"][player] for c in s])
    return names(state["hands" if z == "hand" else z][player])


def check_conservation(state: dict) -> None:
    from companion.mayhem.rules import all_cards

    cards = all_cards(state)
    assert sorted(cards) == ALL_IDS, f"cards lost or doubled: {len(cards)} cards"
    chars = [c for c in state["characters"].values() if c] + list(state["box"])
    if state.get("draft"):
        for dealt in state["draft"]["dealt"].values():
            chars += dealt
    assert sorted(chars) == sorted(c.id for c in CAT.characters), "character cards lost"


def new_store(tmp_path: Path, name: str = "s") -> Store:
    return Store(tmp_path / f"{name}.sqlite3", create=True)


def setup_game(store: Store, game_id: str, position: str, options=(), seed: str = "case"):
    path = Path(store.path).parent / f"{game_id}.txt"
    path.write_text("game: mayhem\n" + position, encoding="utf-8")
    return service.new_game(store, "mayhem", game_id, [], seed=seed, option_args=list(options),
                            setup=str(path))
