"""The game store: SQLite (standard library), one file holding every game.

For each game it keeps the kind, id, seed, options and players (name, optional email, a secret
token); for each processed turn the inputs (the order texts as submitted, dice supplied), the
decisions taken with their answers, the chance outcomes, the events, the full state, and a
SHA-256 hash of the state chained to the previous turn's. A turn is written in one transaction:
a process killed in the middle leaves the previous turn intact, and the turn can be run again.
Submissions are never deleted: a replaced or used submission keeps its row with its status.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from companion.engine.canon import GENESIS_HASH, canonical_json, state_hash
from companion.errors import StoreError

SCHEMA_VERSION = 1
DEFAULT_STORE = "companion.sqlite3"
EXPORT_FORMAT = "companion-game"

_SCHEMA = """
CREATE TABLE companion_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed TEXT NOT NULL,
    options TEXT NOT NULL,
    base_url TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup TEXT
);
CREATE TABLE players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    email TEXT,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, slug)
);
CREATE TABLE turns (
    game_id TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    processed_at TEXT NOT NULL,
    state TEXT NOT NULL,
    hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    inputs TEXT NOT NULL,
    decisions TEXT NOT NULL,
    chance TEXT NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    for_turn INTEGER NOT NULL,
    text TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'replaced', 'used')),
    used_in INTEGER
);
CREATE INDEX submissions_pending ON submissions (game_id, status);
"""


@dataclass
class Player:
    seat: int
    name: str
    slug: str
    email: str | None
    token: str


@dataclass
class Game:
    id: str
    kind: str
    seed: str
    options: dict[str, Any]
    base_url: str
    created_at: str
    setup: str | None
    players: list[Player] = field(default_factory=list)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass
class Turn:
    game_id: str
    number: int
    processed_at: str
    state: dict[str, Any]
    hash: str
    prev_hash: str
    inputs: dict[str, Any]
    decisions: list[dict[str, Any]]
    chance: list[dict[str, Any]]
    events: list[dict[str, Any]]


@dataclass
class Submission:
    id: int
    player: str
    for_turn: int
    text: str
    submitted_at: str
    status: str
    used_in: int | None


def default_store_path() -> Path:
    return Path(os.environ.get("COMPANION_STORE") or DEFAULT_STORE)


class Store:
    """A connection to one store file."""

    def __init__(self, path: str | Path, *, create: bool = False):
        self.path = Path(path)
        if not self.path.exists():
            if not create:
                raise StoreError(f"no store at {self.path}",
                                 hint="create a game first with 'companion new', or give "
                                      "--store PATH / COMPANION_STORE")
            if self.path.parent and not self.path.parent.exists():
                raise StoreError(f"cannot create store {self.path}: folder "
                                 f"{self.path.parent} does not exist")
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None)
            self.db.execute("PRAGMA foreign_keys = ON")
            self._check_schema(create)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a companion store ({exc})",
                             hint="check the --store path; a damaged store can be restored "
                                  "from an export made with 'companion export'") from None

    # -- schema ---------------------------------------------------------------------------------
    def _check_schema(self, create: bool) -> None:
        tables = {row[0] for row in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if "companion_meta" not in tables:
            if tables:
                raise StoreError(f"{self.path} is an SQLite file but not a companion store "
                                 f"(it has tables: {', '.join(sorted(tables))})")
            if not create:
                raise StoreError(f"{self.path} is empty, not a companion store")
            with self.transaction():
                for statement in _SCHEMA.strip().split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute("INSERT INTO companion_meta VALUES ('schema', ?)",
                                (str(SCHEMA_VERSION),))
            return
        row = self.db.execute("SELECT value FROM companion_meta WHERE key='schema'").fetchone()
        if row is None or row[0] != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path} has store schema {row[0] if row else '?'}; this "
                             f"version of companion reads schema {SCHEMA_VERSION}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    # -- games ----------------------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    def has_game(self, game_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is not None

    def game(self, game_id: str) -> Game:
        row = self.db.execute("SELECT id, kind, seed, options, base_url, created_at, setup "
                              "FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            import difflib
            ids = self.game_ids()
            close = difflib.get_close_matches(game_id, ids, n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'?" if close else (
                f"games in this store: {', '.join(ids)}" if ids else "this store has no games")
            raise StoreError(f"no game '{game_id}' in {self.path}", hint=hint)
        game = Game(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6])
        for p in self.db.execute("SELECT seat, name, slug, email, token FROM players "
                                 "WHERE game_id=? ORDER BY seat", (game_id,)):
            game.players.append(Player(*p))
        return game

    def create_game(self, game: Game, turn0: Turn) -> None:
        with self.transaction() as db:
            if self.has_game(game.id):
                raise StoreError(f"a game '{game.id}' already exists in {self.path}",
                                 hint="choose another GAME_ID")
            self._insert_game(db, game)
            self._insert_turn(db, turn0)

    def delete_game(self, game_id: str) -> None:
        with self.transaction() as db:
            for table in ("submissions", "turns", "players"):
                db.execute(f"DELETE FROM {table} WHERE game_id=?", (game_id,))
            db.execute("DELETE FROM games WHERE id=?", (game_id,))

    @staticmethod
    def _insert_game(db: sqlite3.Connection, game: Game) -> None:
        db.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?)",
                   (game.id, game.kind, game.seed, canonical_json(game.options), game.base_url,
                    game.created_at, game.setup))
        for p in game.players:
            db.execute("INSERT INTO players VALUES (?,?,?,?,?,?)",
                       (game.id, p.seat, p.name, p.slug, p.email, p.token))

    @staticmethod
    def _insert_turn(db: sqlite3.Connection, turn: Turn) -> None:
        db.execute("INSERT INTO turns VALUES (?,?,?,?,?,?,?,?,?,?)",
                   (turn.game_id, turn.number, turn.processed_at, canonical_json(turn.state),
                    turn.hash, turn.prev_hash, canonical_json(turn.inputs),
                    canonical_json(turn.decisions), canonical_json(turn.chance),
                    canonical_json(turn.events)))

    # -- turns ----------------------------------------------------------------------------------
    def turn(self, game_id: str, number: int | None = None) -> Turn:
        if number is None:
            row = self.db.execute("SELECT * FROM turns WHERE game_id=? ORDER BY number DESC "
                                  "LIMIT 1", (game_id,)).fetchone()
        else:
            row = self.db.execute("SELECT * FROM turns WHERE game_id=? AND number=?",
                                  (game_id, number)).fetchone()
        if row is None:
            last = self.db.execute("SELECT MAX(number) FROM turns WHERE game_id=?",
                                   (game_id,)).fetchone()[0]
            raise StoreError(f"game '{game_id}' has no turn {number}",
                             hint=f"turns 0 to {last} have been processed" if last is not None
                             else None)
        return self._turn_from_row(row)

    def turns(self, game_id: str) -> list[Turn]:
        return [self._turn_from_row(r) for r in self.db.execute(
            "SELECT * FROM turns WHERE game_id=? ORDER BY number", (game_id,))]

    @staticmethod
    def _turn_from_row(row: tuple) -> Turn:
        return Turn(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5],
                    json.loads(row[6]), json.loads(row[7]), json.loads(row[8]), json.loads(row[9]))

    def commit_turn(self, turn: Turn, used: dict[str, int], *, crash_hook=None) -> None:
        """Write a processed turn and mark the submissions it used, in one transaction."""
        with self.transaction() as db:
            current = db.execute("SELECT number, hash FROM turns WHERE game_id=? ORDER BY "
                                 "number DESC LIMIT 1", (turn.game_id,)).fetchone()
            if current is None or current[0] != turn.number - 1 or current[1] != turn.prev_hash:
                raise StoreError(f"game '{turn.game_id}' changed while turn {turn.number} was "
                                 "being processed; nothing was written", hint="run it again")
            self._insert_turn(db, turn)
            if crash_hook:
                crash_hook()
            for player, submission_id in used.items():
                db.execute("UPDATE submissions SET status='used', used_in=? WHERE id=?",
                           (turn.number, submission_id))

    # -- submissions ----------------------------------------------------------------------------
    def submit(self, game_id: str, player: str, for_turn: int, text: str, at: str) -> int:
        with self.transaction() as db:
            db.execute("UPDATE submissions SET status='replaced' WHERE game_id=? AND player=? "
                       "AND status='pending'", (game_id, player))
            cur = db.execute("INSERT INTO submissions (game_id, player, for_turn, text, "
                             "submitted_at, status) VALUES (?,?,?,?,?, 'pending')",
                             (game_id, player, for_turn, text, at))
            return int(cur.lastrowid)

    def pending(self, game_id: str) -> dict[str, Submission]:
        rows = self.db.execute("SELECT id, player, for_turn, text, submitted_at, status, used_in "
                               "FROM submissions WHERE game_id=? AND status='pending' "
                               "ORDER BY id", (game_id,))
        return {row[1]: Submission(*row) for row in rows}

    def submissions(self, game_id: str) -> list[Submission]:
        rows = self.db.execute("SELECT id, player, for_turn, text, submitted_at, status, used_in "
                               "FROM submissions WHERE game_id=? ORDER BY id", (game_id,))
        return [Submission(*row) for row in rows]

    # -- export and import ----------------------------------------------------------------------
    def export_game(self, game_id: str) -> dict[str, Any]:
        game = self.game(game_id)
        return {
            "format": EXPORT_FORMAT,
            "version": SCHEMA_VERSION,
            "game": {"id": game.id, "kind": game.kind, "seed": game.seed,
                     "options": game.options, "base_url": game.base_url,
                     "created_at": game.created_at, "setup": game.setup},
            "players": [vars(p) for p in game.players],
            "turns": [{k: v for k, v in vars(t).items() if k != "game_id"}
                      for t in self.turns(game_id)],
            "submissions": [vars(s) for s in self.submissions(game_id)],
        }

    def import_game(self, data: dict[str, Any], *, new_id: str | None = None) -> str:
        game, turns, submissions = parse_export(data, new_id)
        with self.transaction() as db:
            if self.has_game(game.id):
                raise StoreError(f"a game '{game.id}' already exists in {self.path}",
                                 hint="import it under another id with --as NEW_ID")
            self._insert_game(db, game)
            for turn in turns:
                self._insert_turn(db, turn)
            for s in submissions:
                db.execute("INSERT INTO submissions (game_id, player, for_turn, text, "
                           "submitted_at, status, used_in) VALUES (?,?,?,?,?,?,?)",
                           (game.id, s["player"], s["for_turn"], s["text"], s["submitted_at"],
                            s["status"], s["used_in"]))
        return game.id


def parse_export(data: Any, new_id: str | None) -> tuple[Game, list[Turn], list[dict]]:
    """Validate an export file's content; every turn's hash chain is verified."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError("not a companion game export (missing \"format\": \"companion-game\")")
    if data.get("version") != SCHEMA_VERSION:
        raise StoreError(f"export version {data.get('version')!r} is not supported "
                         f"(this companion reads version {SCHEMA_VERSION})")
    try:
        g = data["game"]
        game = Game(new_id or g["id"], g["kind"], str(g["seed"]), dict(g["options"]),
                    g["base_url"], g["created_at"], g.get("setup"))
        for p in data["players"]:
            game.players.append(Player(int(p["seat"]), p["name"], p["slug"], p.get("email"),
                                       p["token"]))
        turns = []
        previous = GENESIS_HASH
        for index, t in enumerate(data["turns"]):
            turn = Turn(game.id, int(t["number"]), t["processed_at"], t["state"], t["hash"],
                        t["prev_hash"], t["inputs"], t["decisions"], t["chance"], t["events"])
            if turn.number != index:
                raise StoreError(f"export: turn {index} is numbered {turn.number}")
            if turn.prev_hash != previous or state_hash(turn.state, previous) != turn.hash:
                raise StoreError(f"export: turn {turn.number} does not match its hash; the file "
                                 "was changed after it was exported")
            previous = turn.hash
            turns.append(turn)
        submissions = list(data["submissions"])
        for s in submissions:
            for key in ("player", "for_turn", "text", "submitted_at", "status", "used_in"):
                if key not in s:
                    raise StoreError(f"export: a submission lacks '{key}'")
    except (KeyError, TypeError, ValueError) as exc:
        raise StoreError(f"export file is incomplete or malformed ({exc!r})") from None
    if not turns:
        raise StoreError("export: the game has no turns")
    return game, turns, submissions
