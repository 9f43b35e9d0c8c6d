"""Stateful property test of `companion rewind` (docs/mail.md, "A turn taken back"): any
sequence of orders, turns, turns taken back, address changes and holds on a Gral game keeps
the store whole. After every step: the game replays with every hash; each pending order is for
the next turn, one per player at most; every turn taken back is kept with its hash; a turn run
again with the orders it had used (none changed since) comes out as the very same turn; the
export imports into another store as the same game, history and all."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion import service
from companion.errors import CompanionError
from companion.store import Store

PLAYERS = ["Anna", "Bert", "Cora"]


class RewindMachine(RuleBasedStateMachine):
    """A three-player Gral game driven through the service layer, as the CLI, mail and the
    web do."""

    def __init__(self):
        super().__init__()
        import tempfile
        from pathlib import Path

        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        self.output = self.root / "out"
        self.store: Store | None = None
        self.epoch: str | None = None
        self.again: dict[int, str] = {}    # turn -> hash it must have if run again untouched
        self.taken_back = 0
        self.imports = 0

    @initialize(seed=st.integers(0, 10**6))
    def new_game(self, seed):
        self.epoch = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = "1767225600"
        self.store = Store(self.root / "s.sqlite3", create=True)
        service.new_game(self.store, "gral", "g", PLAYERS, seed=str(seed), output=self.output)
        with self.store.transaction() as db:     # a play-by-email game: rewinds hold it
            db.execute("INSERT INTO mail_games (game_id, held, reminded_turn, mailed_turn) "
                       "VALUES ('g', 0, -1, 0)")

    def latest(self) -> int:
        return self.store.latest_number("g")

    def over(self) -> bool:
        from companion.registry import get_kind

        return get_kind("gral").is_over(self.store.turn("g").state)

    @precondition(lambda self: not self.over())
    @rule(player=st.sampled_from(PLAYERS), pick=st.integers(0, 10**6))
    def submit(self, player, pick):
        lines = service.legal_options(self.store, "g", player)
        if not lines:
            return
        service.submit_orders(self.store, "g", player, lines[pick % len(lines)] + "\n", "o")
        self.again.pop(self.latest() + 1, None)     # the next turn's orders changed

    @precondition(lambda self: not self.over())
    @rule(fill=st.booleans())
    def run(self, fill):
        number = self.latest() + 1
        if fill:            # the players whose orders are missing send their first option
            for player in set(PLAYERS) - set(self.store.pending("g")):
                self.submit(player, 0)
        try:
            service.run_turn(self.store, "g", output=self.output)
        except CompanionError as exc:           # orders refused by the new position
            event(f"refused: {exc.message[:40]}")
            assert self.latest() == number - 1, exc.message
            self.again.pop(number, None)
            return
        expected = self.again.pop(number, None)
        if expected is not None:
            event("a turn taken back ran again with the same orders")
            assert self.store.turn("g").hash == expected, "the same orders, another turn"

    @precondition(lambda self: self.latest() > 0)
    @rule(back=st.integers(1, 3))
    def rewind(self, back):
        latest = self.latest()
        to = max(0, latest - back)
        first = self.store.turn("g", to + 1).hash
        self.again = {to + 1: first}
        done = service.rewind(self.store, "g", to, self.output, "property")
        assert done.numbers == list(range(to + 1, latest + 1)) and done.held
        event(f"{len(done.numbers)} turn(s) taken back")
        self.taken_back += len(done.numbers)
        assert not any((self.output / "g" / f"turn-{n:03d}").exists() for n in done.numbers)

    @rule(player=st.sampled_from(PLAYERS), n=st.integers(0, 3))
    def address(self, player, n):
        service.change_address(self.store, "g", player, f"p{n}@example.org" if n else "none")

    @rule()
    def release(self):
        service.set_held(self.store, "g", False)

    @precondition(lambda self: self.imports < 2)
    @rule()
    def export_and_import(self):
        data = self.store.export_game("g")
        other = Store(self.root / f"copy{self.imports}.sqlite3", create=True)
        self.imports += 1
        try:
            assert service.import_game(other, data, "g.json") == "g"
            assert other.export_game("g") == data
        finally:
            other.close()

    @invariant()
    def whole(self):
        if self.store is None:
            return
        assert service.replay(self.store, "g").ok
        latest = self.latest()
        pending = self.store.pending("g")
        assert all(s.for_turn == latest + 1 for s in pending.values()), pending
        assert len(self.store.rewound("g")) == self.taken_back
        folders = sorted(p.name for p in (self.output / "g").iterdir()
                         if p.name.startswith("turn-"))
        assert folders == [f"turn-{n:03d}" for n in range(latest + 1)], folders

    def teardown(self):
        if self.store is not None:
            self.store.close()
        self.folder.cleanup()
        if self.epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = self.epoch


# bounded by default (each step renders PDF reports); COMPANION_SOAK=1 tries eight times as many
EXAMPLES = 40 if os.environ.get("COMPANION_SOAK") == "1" else 5
RewindMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("COMPANION_REWIND_EXAMPLES", EXAMPLES)), stateful_step_count=12,
    deadline=None, suppress_health_check=[HealthCheck.too_slow])
TestRewindSequences = RewindMachine.TestCase
