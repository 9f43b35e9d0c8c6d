"""The plain-text email body of every game: no line wider than 76 characters, header values in
one column, the link on a line of its own, and an order form with one order per line."""
from __future__ import annotations

import importlib
import re

import pytest

from companion import service
from companion.engine.orders import OrdersRejected
from companion.registry import get_kind
from companion.render.report_text import WIDTH, render_text, table_text
from companion.store import Store

KINDS = {"gral": ["first=Anna"], "koc": [], "mayhem": [], "fluxx": []}
NAMES = ["Anna Maria von Hohenzollern-Sigmaringen", "Bert", "Cora"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_line_of_every_report_fits_an_email_line(tmp_path, kind):
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g", NAMES, seed="6", option_args=KINDS[kind])
    for _ in range(3):
        try:
            service.run_turn(store, "g")
        except Exception:  # noqa: BLE001 - a game waiting for orders: enough turns then
            break
    game = store.game("g")
    for turn in store.turns("g"):
        for viewer, doc in service.report_documents(game, turn).items():
            text = render_text(doc)
            for number, line in enumerate(text.split("\n"), 1):
                if len(line) > WIDTH:
                    assert " " not in line.strip(), (viewer, turn.number, number, line)
            header = [line for line in text.split("\n")[2:8] if re.match(r"\w[\w ]*: ", line)]
            starts = {len(re.match(r"[^:]+:\s+", line).group(0)) for line in header}
            assert len(starts) == 1, header
            label = "Public link:" if viewer == "public" else "Your private link:"
            lines = text.split("\n")
            assert lines[lines.index(label) + 1].strip() == doc["qr"]


def test_a_wide_table_becomes_records():
    wide = table_text(["Knight", "Where", "What he carries"],
                      [["Sir Anna Maria von Hohenzollern", "Forest of Broceliande",
                        "a lance, a shield, a sword and a horse called Gringolet"]])
    assert all(len(line) <= WIDTH for line in wide.split("\n"))
    assert "Knight:" in wide and "Where:" in wide


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_order_form_shows_one_order_per_line(tmp_path, kind):
    """Every line of the order help that is a whole order by itself parses as one order (two
    orders side by side would not)."""
    store = Store(tmp_path / "s.sqlite3", create=True)
    service.new_game(store, kind, "g", ["Anna", "Bert", "Cora"], seed="1",
                     option_args=KINDS[kind])
    state = store.turn("g").state
    help_lines = importlib.import_module(f"companion.{kind}.views").ORDER_HELP
    assert all(len(line) <= WIDTH - 2 for line in help_lines)
    whole = [line.split("   ")[0].strip() for line in help_lines
             if not line.startswith(" ") and not line.endswith(":")
             and not any(ch in line.split("   ")[0] for ch in "<[(.")]
    assert whole
    for line in whole:
        try:
            get_kind(kind).parse_orders(state, "Anna", line + "\n", "form")
        except OrdersRejected as exc:
            pytest.fail(f"{kind}: the order form line {line!r} does not parse: "
                        f"{exc.errors[0].message}")
