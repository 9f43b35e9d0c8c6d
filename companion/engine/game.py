"""What a game kind provides to the shared engine, and the context a turn is processed in.

The engine model every game follows: the rules advance the game until a player must choose.
Each choice is a decision (player, prompt, legal options). Answers come from that player's orders
for this turn, then their standing orders, then a documented default; with the game option
``missing=wait`` the game pauses instead and the reports ask. Every answer is recorded with its
source, every chance outcome with its purpose (see :mod:`companion.engine.chance`), and every
event with who may see it.
"""
from __future__ import annotations

import difflib
from dataclasses import field
from typing import Any, Callable, Sequence

from companion.engine.chance import Chance
from companion.engine.record import record
from companion.errors import CompanionError

PUBLIC = "public"
MODERATOR = "moderator"


@record(frozen=True)
class OptionSpec:
    """A documented game option (``--option KEY=VALUE``)."""

    key: str
    help: str
    default: str
    choices: tuple[str, ...] | None = None
    parse: Callable[[str, Sequence[str]], Any] | None = None   # (value, players) -> parsed

    def convert(self, value: str, players: Sequence[str]) -> Any:
        if self.choices is not None:
            folded = value.strip().lower()
            if folded not in self.choices:
                close = difflib.get_close_matches(folded, self.choices, n=1)
                hint = f"did you mean '{close[0]}'?" if close else None
                raise CompanionError(
                    f"option {self.key}: '{value}' is not one of {', '.join(self.choices)}",
                    hint=hint)
            value = folded
        if self.parse is not None:
            try:
                return self.parse(value, players)
            except ValueError as exc:
                raise CompanionError(f"option {self.key}: {exc}") from None
        return value


COMMON_OPTIONS = (
    OptionSpec("missing", "what happens when a player's orders do not settle a decision: "
               "'default' takes the documented default; 'wait' pauses the game and the report asks",
               "default", ("default", "wait")),
)


def parse_option_args(items: Sequence[str]) -> dict[str, str]:
    """``['a=1', 'b=x']`` -> ``{'a': '1', 'b': 'x'}`` with a clear error for malformed items."""
    raw: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise CompanionError(f"--option {item!r}: expected KEY=VALUE",
                                 hint="for example --option missing=wait")
        key, value = item.split("=", 1)
        key = key.strip().lower()
        if not key:
            raise CompanionError(f"--option {item!r}: the key is empty")
        if key in raw:
            raise CompanionError(f"--option {key} is given twice")
        raw[key] = value.strip()
    return raw


def resolve_options(specs: Sequence[OptionSpec], raw: dict[str, str],
                    players: Sequence[str]) -> dict[str, Any]:
    by_key = {s.key: s for s in specs}
    for key in raw:
        if key not in by_key:
            close = difflib.get_close_matches(key, list(by_key), n=1)
            hint = f"did you mean '{close[0]}'?" if close else \
                f"this game's options: {', '.join(by_key)}"
            raise CompanionError(f"unknown option '{key}'", hint=hint)
    result: dict[str, Any] = {}
    for spec in specs:
        result[spec.key] = spec.convert(raw.get(spec.key, spec.default), players)
    return result


@record
class Decision:
    """A choice a player must make now, with the order lines that are legal answers."""

    player: str
    kind: str
    prompt: str
    options: list[str]
    default: str          # what happens when the orders do not answer it


class TurnContext:
    """Everything a game's rules may use while processing one turn."""

    def __init__(self, *, turn: int, key: bytes, chance: Chance, orders: dict[str, Any],
                 options: dict[str, Any], secret: bytes = b""):
        self.turn = turn
        self.key = key
        self.secret = secret
        """The game's own secret (never derived from the seed): the key of salts and anything
        else secret a game derives. ``key`` (from the seed) is only for the chance stream."""
        self.chance = chance
        self.orders = orders
        self.options = options
        self.events: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.used: list[str] = []
        self.awaiting: list[str] = []

    @property
    def wait_for_orders(self) -> bool:
        return self.options.get("missing") == "wait"

    def event(self, text: str, *, to: Sequence[str] | None = None, kind: str = "info",
              **data: Any) -> None:
        """Record an event; ``to`` lists the players who may see it (None: everybody)."""
        entry: dict[str, Any] = {"kind": kind, "text": text,
                                 "to": sorted(to) if to is not None else PUBLIC}
        if data:
            entry["data"] = data
        self.events.append(entry)

    def decided(self, player: str, kind: str, answer: str, source: str) -> None:
        """Record an answered decision. ``source``: 'orders', 'standing' or 'default'."""
        self.decisions.append({"player": player, "kind": kind, "answer": answer,
                               "source": source})

    def use_orders(self, player: str) -> None:
        if player not in self.used:
            self.used.append(player)

    def await_orders(self, player: str) -> None:
        if player not in self.awaiting:
            self.awaiting.append(player)


def visible(event: dict[str, Any], viewer: str) -> bool:
    if viewer == MODERATOR or event["to"] == PUBLIC:
        return True
    return viewer in event["to"]


def edition(state: dict) -> int:
    """The rules edition a game is played under (``GameKind.edition``; 0 for games begun
    before editions were recorded)."""
    return state.get("edition", 0)


@record
class DemoScript:
    """A bundled game played from order files written as players would mail them: the
    players in seat order, the seed, the options, and each turn's order texts by player (a
    player without one that turn sends nothing)."""

    players: list[str]
    seed: str
    options: list[str]
    turns: list[dict[str, str]]


class GameKind:
    """Base class of a game kind. Subclasses implement the rules; metadata comes from the
    registry entry (see :mod:`companion.registry`)."""

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 8
    option_specs: tuple[OptionSpec, ...] = COMMON_OPTIONS
    playable: bool = True
    """False for a kind whose data, charts and printables exist but whose rules engine does not
    yet; such a kind cannot start games. Like ``id`` and ``title``, copied from the kind's
    registry entry, which ``companion games`` reads without importing the kind."""
    edition: int = 0
    """The rules edition new games of this kind are played under. A change to what the engine
    does or says in a situation an earlier release already played raises it, and the engine
    asks ``edition(state)`` which way to go: a game keeps the edition it began with (turn 0's
    inputs record it; ``state["edition"]`` holds it, absent for edition 0), so games stored by
    an earlier release still replay to the same bytes while new games get the change."""

    # -- data, charts and routes (optional) -----------------------------------------------------
    def data_export(self) -> dict:
        """The game's data (cards, boards, charts) as JSON-serialisable data."""
        raise CompanionError(f"{self.title} has no data to export")

    def data_check(self, folder) -> list:
        """Validate an edited copy of the game's data folder; the list of DataErrors found."""
        raise CompanionError(f"{self.title} has no data files to check")

    def roll(self, chart: str, dice: list[int] | None, chance: Chance) -> str:
        """Resolve ``dice`` (or dice from ``chance``) on a chart; the printed result."""
        raise CompanionError(f"{self.title} has no charts to roll on")

    def route(self, start: str, goal: str, by: str) -> str:
        raise CompanionError(f"{self.title} has no map to find routes on")

    def demo_script(self) -> DemoScript | None:
        """The kind's bundled demo game, if it has one ('companion mail demo' plays it by mail;
        without one, random legal orders)."""
        return None

    # -- creation and positions ---------------------------------------------------------------
    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        raise NotImplementedError

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        raise NotImplementedError

    def write_position(self, state: dict, viewer: str = MODERATOR) -> str:
        raise NotImplementedError

    def players(self, state: dict) -> list[str]:
        return list(state["players"])

    def setup_players(self, text: str) -> list[str]:
        """The players a position text names (a ``players: A, B`` line), in seat order; empty
        if it names none (the position's own reader then reports it)."""
        import re

        for raw in text.splitlines():
            m = re.match(r"\s*players\s*:\s*(.*)$", raw.split("#", 1)[0], re.IGNORECASE)
            if m:
                return [p.strip() for p in m.group(1).split(",") if p.strip()]
        return []

    # -- orders -------------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str) -> Any:
        """Parse an order text (syntax and names); raise OrdersRejected listing every error."""
        raise NotImplementedError

    def check_orders(self, state: dict, player: str, orders: Any, filename: str) -> None:
        """Check parsed orders against the position now; raise OrdersRejected if illegal."""
        raise NotImplementedError

    def acknowledge(self, state: dict, player: str, orders: Any) -> list[str]:
        """The orders as understood, one line each, for the confirmation."""
        raise NotImplementedError

    def options_for(self, state: dict, player: str) -> list[str]:
        """Order lines legal for ``player`` now; empty when nothing is asked of them."""
        raise NotImplementedError

    # -- turns --------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        raise NotImplementedError

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        """Called after ``process`` (e.g. to refresh commitments); default does nothing."""

    def is_over(self, state: dict) -> bool:
        raise NotImplementedError

    def result_lines(self, state: dict) -> list[str]:
        """The result of the game so far, a line each (winners, final standings), public;
        empty while there is nothing to say. ``companion show`` prints them."""
        return []

    def awaited(self, state: dict) -> list[str]:
        """Players from whom orders are needed before the game can move on."""
        raise NotImplementedError

    def progress(self, state: dict) -> str | None:
        """Where the game's own count stands when it differs from the store's turns (a game
        turn of several players' turns, run in steps while answers are awaited): 'game turn 2
        under way'. None when the store's turn number says it all."""
        return None

    # -- views and reports --------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        """What ``viewer`` (a player, 'public' or 'moderator') may see: a pure function."""
        raise NotImplementedError

    def report(self, view: dict) -> dict:
        """The report document (see :mod:`companion.render.document`) built from a view only."""
        raise NotImplementedError

    def player_files(self, view: dict) -> dict[str, bytes]:
        """Files a player receives beside his report every turn, built from his view only
        (which carries the report's ``envelope``): name suffix (``'journal.pdf'``) -> bytes,
        written as ``<player>-<suffix>``. None by default."""
        return {}
