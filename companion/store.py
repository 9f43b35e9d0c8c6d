"""The game store: SQLite (standard library), one file holding every game.

For each game it keeps the kind, id, seed, a per-game secret (never the seed; salts and other
derived secrets come from it), options and players (name, optional email, a random secret token);
for each processed turn the inputs (the order texts as submitted, dice supplied), the decisions
taken with their answers, the chance outcomes, the events, the full state, the processing time,
a SHA-256 digest of each of these columns (taken over their canonical JSON), and a hash over the digests chained to the previous
turn's. A turn is written in one transaction: a process killed in the middle leaves the previous
turn intact, and the turn can be run again. A turn is marked published once its reports are in
place; a turn committed without them is found and published by the next command that looks.
Submissions are never deleted: a replaced, withdrawn or used submission keeps its row.

The JSON columns of a turn (state, inputs, decisions, chance, events) are stored as canonical
JSON compressed with zlib (schema 3; a turn of an 8-player game takes a few kilobytes instead of
about a hundred). A column holding plain JSON text (schema 2, or edited by hand) still reads.
Schema 4 adds the tables of play by email (``MAIL_SCHEMA``); schema 5 the turns a moderator took
back (``REWIND_SCHEMA``, ``companion rewind``); schema 6 whether a game's turns may run before
their deadline, and the players who asked a turn to wait for it (``WAIT_SCHEMA``); schema 7
whether a seat's change of address is to be announced to the other players (``SEAT_SCHEMA``).
The schema is versioned in ``companion_meta``; an older store is upgraded in place when opened
(:mod:`companion.migrations`), in one transaction.

Every row read is checked: ids, names, slugs and tokens pass the checks of
:mod:`companion.engine.identity`, every turn column must be valid JSON and match its digest, and
the digests its hash; a damaged row gives a StoreError naming the game, the turn and the column.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import Any, Iterable, Iterator

from companion.engine.canon import GENESIS_HASH, canonical_json, sha256_hex
from companion.engine.identity import IdentityError, check_game_id, check_players, new_token
from companion.engine.record import record
from companion.errors import StoreError, TurnMovedOn

SCHEMA_VERSION = 7
OLDER_SCHEMAS = ("1", "2", "3", "4", "5", "6")
"""Schemas an opened store is upgraded from (in place, by :mod:`companion.migrations`)."""
EXPORT_VERSION = 2
"""The version of the export format (a JSON file, independent of how the store keeps it)."""
TURN_COLUMNS = ("processed_at", "state", "inputs", "decisions", "chance", "events")
"""The columns of a turn its hash covers (besides the number and the previous hash)."""
DEFAULT_STORE = "companion.sqlite3"
EXPORT_FORMAT = "companion-game"
ADDRESS_CHANGE_KEYS = ("player", "old_email", "new_email", "changed_at", "message_id")
"""The columns of ``mail_address_changes`` an export carries, in order."""

_SCHEMA = """
CREATE TABLE companion_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seed TEXT NOT NULL,
    options TEXT NOT NULL,
    base_url TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup TEXT,
    secret TEXT NOT NULL
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
    state BLOB NOT NULL,
    hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    inputs BLOB NOT NULL,
    decisions BLOB NOT NULL,
    chance BLOB NOT NULL,
    events BLOB NOT NULL,
    digests TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, number)
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    for_turn INTEGER NOT NULL,
    text TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'replaced', 'withdrawn', 'used',
                                           'rewound')),
    used_in INTEGER
);
CREATE INDEX submissions_pending ON submissions (game_id, status);
"""

REWIND_SCHEMA = """
CREATE TABLE rewound_turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    rewound_at TEXT NOT NULL,
    reason TEXT NOT NULL,
    processed_at TEXT NOT NULL,
    state BLOB NOT NULL,
    hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    inputs BLOB NOT NULL,
    decisions BLOB NOT NULL,
    chance BLOB NOT NULL,
    events BLOB NOT NULL,
    digests TEXT NOT NULL
);
"""
"""Schema 5: the turns a moderator took back (``companion rewind``), kept whole with when and
why; a submission they had used is 'rewound', or pending again if it was pending when the first
of them ran."""

MAIL_SCHEMA = """
CREATE TABLE mail_in (
    message_id TEXT PRIMARY KEY,
    received_at TEXT NOT NULL,
    source TEXT NOT NULL,
    raw BLOB NOT NULL,
    sender TEXT NOT NULL,
    subject TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('new', 'done', 'refused', 'review', 'ignored')),
    game_id TEXT,
    player TEXT,
    outcome TEXT NOT NULL DEFAULT '',
    processed_at TEXT
);
CREATE INDEX mail_in_state ON mail_in (state);
CREATE TABLE mail_out (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    game_id TEXT,
    player TEXT,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    message_id TEXT NOT NULL,
    raw BLOB NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    answer TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE INDEX mail_out_state ON mail_out (state);
CREATE TABLE mail_games (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    deadline TEXT,
    deadline_turn INTEGER,
    period INTEGER,
    remind_before INTEGER,
    held INTEGER NOT NULL DEFAULT 0,
    reminded_turn INTEGER NOT NULL DEFAULT -1,
    mailed_turn INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE mail_address_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    old_email TEXT,
    new_email TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    message_id TEXT NOT NULL
);
"""
"""Schema 4: play by email (:mod:`companion.mail`). ``mail_in`` every incoming message, raw,
keyed by its Message-ID, with its processing state; ``mail_out`` every outgoing message with
its state (queued, sending, sent, failed) and the server's last answer; ``mail_games`` a game's
deadline (and the turn it is for), default period, reminder time, hold, and the turns already reminded and mailed;
``mail_address_changes`` every change of a player's address, made by mail or by the moderator
(``message_id`` names the message, or 'moderator: ...'; ``new_email`` '' for none)."""

WAIT_SCHEMA = """
ALTER TABLE mail_games ADD COLUMN early INTEGER NOT NULL DEFAULT 1;
CREATE TABLE mail_waits (
    game_id TEXT NOT NULL REFERENCES games(id),
    for_turn INTEGER NOT NULL,
    player TEXT NOT NULL,
    asked_at TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (game_id, for_turn, player)
);
"""
"""Schema 6: ``mail_games.early`` (1: a turn runs as soon as every awaited player has sent
orders; 0: a turn with a deadline runs only at it, ``companion deadline GAME --early no``) and
``mail_waits``, the players who asked (``wait`` by mail) that turn ``for_turn`` run only at its
deadline, with when and which message (``nowait`` deletes the row). Applied to a schema-4 table
``mail_games`` (a new store's and an upgraded one's are alike)."""

SEAT_SCHEMA = """
ALTER TABLE mail_address_changes ADD COLUMN announce TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_address_changes ADD COLUMN from_turn INTEGER
"""
"""Schema 7: whether the other players are told of a change of a seat's address
(:mod:`companion.mail.seats`): ``announce`` 'due' (the moderator gave the seat to a new player:
the next mail pass tells the others, then 'told'), 'quiet' (the moderator said it was a
correction: nobody is told) or '' (nothing to tell: a player's own change, none, the same
address, a game not mailed yet or over, and every change recorded before schema 7);
``from_turn`` the first turn the new player plays. Applied to a schema-4 table
``mail_address_changes`` (a new store's and an upgraded one's are alike)."""
_SCHEMA += MAIL_SCHEMA + REWIND_SCHEMA + WAIT_SCHEMA + SEAT_SCHEMA


@record
class Player:
    seat: int
    name: str
    slug: str
    email: str | None
    token: str


@record
class Game:
    id: str
    kind: str
    seed: str
    options: dict[str, Any]
    base_url: str
    created_at: str
    setup: str | None
    players: list[Player] = field(default_factory=list)
    secret: str = ""

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def secret_key(self) -> bytes:
        """The key salts and other derived secrets are made with (see :mod:`identity`)."""
        return bytes.fromhex(self.secret)


JSON_COLUMNS = ("state", "inputs", "decisions", "chance", "events")
"""The turn columns stored as compressed canonical JSON."""


def pack(value: Any) -> bytes:
    """A turn column as stored: its canonical JSON, zlib-compressed."""
    return pack_text(canonical_json(value))


def pack_text(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), 9)


def unpack_text(stored: bytes | str) -> tuple[Any, str]:
    """A stored turn column's value and its canonical JSON (ValueError when it is damaged).
    A compressed column holds canonical JSON as written; plain text (an older schema, or an
    edit by hand) is made canonical."""
    if isinstance(stored, bytes):
        try:
            text = zlib.decompress(stored).decode("utf-8")
        except (zlib.error, UnicodeDecodeError) as exc:
            raise ValueError(str(exc)) from None
        return json.loads(text), text
    value = json.loads(stored)
    return value, canonical_json(value)


def unpack(stored: bytes | str) -> Any:
    """A stored turn column's value (ValueError when it is damaged)."""
    return unpack_text(stored)[0]


def column_digests(texts: dict[str, str]) -> dict[str, str]:
    """The digest of each column a turn's hash covers, from the columns' canonical JSON."""
    return {c: sha256_hex(texts[c]) for c in TURN_COLUMNS}


def turn_hash(prev_hash: str, number: int, digests: dict[str, str]) -> str:
    """A turn's hash: SHA-256 over the previous turn's hash, the turn number and the digest of
    each stored column (state, inputs, decisions, chance, events, processing time)."""
    return sha256_hex(prev_hash + "\n" + canonical_json({"number": number, "digests": digests}))


@record
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

    @classmethod
    def sealed(cls, game_id: str, number: int, processed_at: str, state: dict, prev_hash: str,
               inputs: dict, decisions: list, chance: list, events: list) -> "Turn":
        """A new turn record with its hash computed."""
        turn = cls(game_id, number, processed_at, state, "", prev_hash, inputs, decisions,
                   chance, events)
        turn.hash = turn.compute_hash()
        return turn

    def texts(self) -> dict[str, str]:
        """The canonical JSON of each column the hash covers."""
        return {c: canonical_json(getattr(self, c)) for c in TURN_COLUMNS}

    def digests(self) -> dict[str, str]:
        return column_digests(self.texts())

    def compute_hash(self, digests: dict[str, str] | None = None) -> str:
        return turn_hash(self.prev_hash, self.number,
                         self.digests() if digests is None else digests)


@record
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


def store_failure(path: Path, exc: sqlite3.Error) -> StoreError:
    """One clear line for what SQLite (or the operating system beneath it) refused."""
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text:
        return StoreError(f"the store {path} is read-only; nothing was changed",
                          hint="check the file's and its folder's permissions, or use a "
                               "writable copy with --store")
    if "full" in text:
        return StoreError(f"the disk holding the store {path} is full; nothing was changed",
                          hint="free some space and run the command again")
    if "locked" in text or "busy" in text:
        return StoreError(f"the store {path} is in use by another companion process; nothing "
                          "was changed", hint="wait for it to finish and run the command again")
    if "unable to open" in text or "cannot open" in text:
        return StoreError(f"cannot open the store {path}",
                          hint="check that its folder exists and can be written")
    if "i/o" in text:
        return StoreError(f"the store {path} could not be read or written (disk I/O error); "
                          "nothing was changed", hint="check the disk; restore from an export "
                                                      "if the file is damaged")
    return StoreError(f"the store {path} refused the operation ({exc}); nothing was changed",
                      hint="a damaged store can be restored from an export made with "
                           "'companion export'")


class Store:
    """A connection to one store file."""

    def __init__(self, path: str | Path, *, create: bool = False, timeout: float = 5.0):
        self.path = Path(path)
        self.notes: list[str] = []
        """What opening the store did that the user should know (a migration)."""
        if not self.path.exists():
            if not create:
                raise StoreError(f"no store at {self.path}",
                                 hint="create a game first with 'companion new', or give "
                                      "--store PATH / COMPANION_STORE")
            if self.path.parent and not self.path.parent.exists():
                raise StoreError(f"cannot create store {self.path}: folder "
                                 f"{self.path.parent} does not exist")
        elif self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a companion store",
                             hint="give the store's file with --store PATH")
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=timeout)
            self.db.execute("PRAGMA foreign_keys = ON")
            self._check_schema(create)
        except StoreError:
            raise
        except sqlite3.OperationalError as exc:
            raise store_failure(self.path, exc) from None
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
        version = row[0] if row else "?"
        if version in OLDER_SCHEMAS:
            from companion.migrations import STEPS

            with self.transaction() as db:
                # read again inside the transaction: another process may have upgraded it
                version = db.execute("SELECT value FROM companion_meta WHERE key='schema'"
                                     ).fetchone()[0]
                while version in STEPS:
                    self.notes.extend(STEPS[version](db, self.path))
                    version = db.execute("SELECT value FROM companion_meta WHERE "
                                         "key='schema'").fetchone()[0]
            try:
                self.db.execute("VACUUM")     # give the space the upgrade freed back to the disk
            except sqlite3.Error:
                pass                          # (another connection is reading: it stays)
            return
        if version != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path} has store schema {version}; this version of "
                             f"companion reads schema {SCHEMA_VERSION}",
                             hint="use the companion version that wrote it, or a newer one")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise store_failure(self.path, exc) from None
        try:
            yield self.db
        except BaseException:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        else:
            try:
                self.db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise store_failure(self.path, exc) from None

    def close(self) -> None:
        self.db.close()

    # -- games ----------------------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    def has_game(self, game_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is not None

    def game(self, game_id: str) -> Game:
        row = self.db.execute("SELECT id, kind, seed, options, base_url, created_at, setup, "
                              "secret FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            import difflib
            ids = self.game_ids()
            close = difflib.get_close_matches(game_id, ids, n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'?" if close else (
                f"games in this store: {', '.join(ids)}" if ids else "this store has no games")
            raise StoreError(f"no game '{game_id}' in {self.path}", hint=hint)
        where = f"game '{game_id}' in {self.path}"
        try:
            options = json.loads(row[3])
            if not isinstance(options, dict):
                raise ValueError("not a table")
        except ValueError:
            raise StoreError(f"{where}: its stored options are damaged",
                             hint="restore the game from an export") from None
        game = Game(row[0], row[1], row[2], options, row[4], row[5], row[6], secret=row[7])
        for p in self.db.execute("SELECT seat, name, slug, email, token FROM players "
                                 "WHERE game_id=? ORDER BY seat", (game_id,)):
            game.players.append(Player(*p))
        try:
            check_game(game, where)
        except IdentityError as exc:
            raise StoreError(exc.message, hint="the store was changed outside companion; "
                                               "restore the game from an export") from None
        return game

    def create_game(self, game: Game, turn0: Turn) -> None:
        check_game(game, f"game '{game.id}'")
        with self.transaction() as db:
            if self.has_game(game.id):
                raise StoreError(f"a game '{game.id}' already exists in {self.path}",
                                 hint="choose another GAME_ID")
            self._insert_game(db, game)
            self._insert_turn(db, turn0)

    def delete_game(self, game_id: str) -> None:
        with self.transaction() as db:
            for table in ("mail_games", "mail_waits", "mail_address_changes", "submissions",
                          "turns", "rewound_turns", "players"):
                db.execute(f"DELETE FROM {table} WHERE game_id=?", (game_id,))
            db.execute("DELETE FROM games WHERE id=?", (game_id,))

    @staticmethod
    def change_email(db: sqlite3.Connection, game_id: str, player: Player, new: str | None,
                     when: str, source: str, *, announce: str = "",
                     from_turn: int | None = None) -> str | None:
        """Inside the caller's transaction: set a player's address (None: none, no mail) and
        record the change in ``mail_address_changes`` (``source``: the message that asked, or
        who did it; ``announce`` and ``from_turn``: whether the other players are to be told
        that the seat has a new player, and from which turn, :mod:`companion.mail.seats`).
        Returns the old address."""
        old = player.email
        db.execute("UPDATE players SET email=? WHERE game_id=? AND seat=?",
                   (new, game_id, player.seat))
        db.execute("INSERT INTO mail_address_changes (game_id, player, old_email, new_email, "
                   "changed_at, message_id, announce, from_turn) VALUES (?,?,?,?,?,?,?,?)",
                   (game_id, player.name, old, new or "", when, source, announce, from_turn))
        player.email = new
        return old

    def rewound(self, game_id: str) -> list[tuple[int, str, str]]:
        """The turns taken back from a game, oldest first: (number, when, why)."""
        return [tuple(r) for r in self.db.execute(
            "SELECT number, rewound_at, reason FROM rewound_turns WHERE game_id=? ORDER BY id",
            (game_id,))]

    def latest_number(self, game_id: str) -> int | None:
        """The number of a game's latest turn, without reading it (None: no turns)."""
        return self.latest_in(self.db, game_id)

    @staticmethod
    def latest_in(db: sqlite3.Connection, game_id: str) -> int | None:
        """:meth:`latest_number` inside a caller's transaction."""
        return db.execute("SELECT MAX(number) FROM turns WHERE game_id=?",
                          (game_id,)).fetchone()[0]

    def rewound_turns(self, game_id: str) -> list[tuple[Turn, str, str]]:
        """The turns taken back from a game, whole, oldest first: (turn, when, why); a damaged
        record raises StoreError."""
        out = []
        for row in self.db.execute(
                "SELECT game_id, number, processed_at, state, hash, prev_hash, inputs, "
                "decisions, chance, events, digests, rewound_at, reason FROM rewound_turns "
                "WHERE game_id=? ORDER BY id", (game_id,)):
            turn, texts = self._turn_from_row(row)
            problem = verify_turn(turn, row[10], texts)
            if problem:
                raise damaged(game_id, turn.number, f"(taken back {row[11]}) {problem}")
            out.append((turn, row[11], row[12]))
        return out

    def rewound_hashes(self, game_id: str, number: int) -> list[str]:
        """The hashes of every turn ``number`` taken back from a game, oldest first (it may be
        taken back, run again and taken back once more)."""
        if not _sql_int(number):
            return []
        return [r[0] for r in self.db.execute(
            "SELECT hash FROM rewound_turns WHERE game_id=? AND number=? ORDER BY id",
            (game_id, number))]

    def rewind(self, game_id: str, to: int, when: str, reason: str,
               expect_latest: int | None = None) -> list[int]:
        """:meth:`rewind_in` in a transaction of its own; with ``expect_latest``, only while
        that is still the latest turn (a page shown before another process ran a turn)."""
        with self.transaction() as db:
            if expect_latest is not None:
                self.moved_on(db, game_id, expect_latest,
                              lambda latest: f"game '{game_id}' is at turn {latest} now, not "
                                             f"{expect_latest}; nothing was taken back",
                              "look at the game again and choose the turn to keep")
            return self.rewind_in(db, game_id, to, when, reason)

    @staticmethod
    def moved_on(db: sqlite3.Connection, game_id: str, expected: int, say, hint: str) -> None:
        """Inside a transaction: TurnMovedOn (``say(latest)``) unless ``expected`` is still the
        game's latest turn."""
        latest = Store.latest_in(db, game_id)
        if latest != expected:
            raise TurnMovedOn(say(latest), hint=hint)

    @staticmethod
    def rewind_in(db: sqlite3.Connection, game_id: str, to: int, when: str,
                  reason: str) -> list[int]:
        """Inside the caller's transaction, take back every turn after ``to``: the turns move
        whole to ``rewound_turns``; the orders that were pending when the first of them ran
        are pending again (``pending_when_run``), other orders used by the turns taken back or
        pending for a turn now gone become 'rewound'; a play-by-email game is held (its orders
        may be changed before the turn runs again), a deadline for a gone turn is cleared and
        the gone turns' reports count as not mailed. Returns the numbers taken back."""
        numbers = [r[0] for r in db.execute(
            "SELECT number FROM turns WHERE game_id=? AND number>? ORDER BY number",
            (game_id, to))]
        if not numbers:
            return []
        again = Store.pending_when_run(db, game_id, to + 1)
        db.execute("INSERT INTO rewound_turns (game_id, number, rewound_at, reason, "
                   "processed_at, state, hash, prev_hash, inputs, decisions, chance, events, "
                   "digests) SELECT game_id, number, ?, ?, processed_at, state, hash, "
                   "prev_hash, inputs, decisions, chance, events, digests FROM turns WHERE "
                   "game_id=? AND number>? ORDER BY number", (when, reason, game_id, to))
        db.execute("DELETE FROM turns WHERE game_id=? AND number>?", (game_id, to))
        db.execute("UPDATE submissions SET status='rewound' WHERE game_id=? AND "
                   "status='pending'", (game_id,))
        db.execute("UPDATE submissions SET status='rewound' WHERE game_id=? AND "
                   "status='used' AND used_in>?", (game_id, to))
        db.executemany("UPDATE submissions SET status='pending', used_in=NULL WHERE id=?",
                       [(i,) for i in again])
        db.execute("UPDATE mail_games SET mailed_turn=MIN(mailed_turn, ?), "
                   "reminded_turn=MIN(reminded_turn, ?), held=1 WHERE game_id=?",
                   (to, to, game_id))
        db.execute("UPDATE mail_games SET deadline=NULL, deadline_turn=NULL WHERE "
                   "game_id=? AND deadline_turn>?", (game_id, to))
        db.execute("DELETE FROM mail_waits WHERE game_id=? AND for_turn>?", (game_id, to + 1))
        return numbers

    @staticmethod
    def pending_when_run(db: sqlite3.Connection, game_id: str, number: int) -> list[int]:
        """The ids of the orders that were pending when turn ``number`` ran, whatever became
        of them since. Orders are stored for the turn after the one they were checked
        against (``for_turn``), so a player's latest orders for turn ``number`` or before are
        the ones that turn read, unless they were a withdrawal, were used by an earlier turn
        or were taken back by an earlier rewind. A turn need not use what it reads: it may hold
        orders for a later turn (standing orders, an answer to a question not yet asked), and
        those were pending when it ran though no turn has used them, or a later one has, or
        newer orders have replaced them since."""
        rows = db.execute(
            "SELECT id, status, used_in FROM submissions WHERE id IN (SELECT MAX(id) FROM "
            "submissions WHERE game_id=? AND for_turn<=? GROUP BY player)", (game_id, number))
        return sorted(i for i, status, used_in in rows
                      if status in ("pending", "replaced")
                      or (status == "used" and used_in is not None and used_in >= number))

    def set_token(self, game_id: str, seat: int, token: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE players SET token=? WHERE game_id=? AND seat=?",
                       (token, game_id, seat))

    @staticmethod
    def _insert_game(db: sqlite3.Connection, game: Game) -> None:
        db.execute("INSERT INTO games (id, kind, seed, options, base_url, created_at, setup, "
                   "secret) VALUES (?,?,?,?,?,?,?,?)",
                   (game.id, game.kind, game.seed, canonical_json(game.options), game.base_url,
                    game.created_at, game.setup, game.secret))
        for p in game.players:
            db.execute("INSERT INTO players VALUES (?,?,?,?,?,?)",
                       (game.id, p.seat, p.name, p.slug, p.email, p.token))

    @staticmethod
    def _insert_turn(db: sqlite3.Connection, turn: Turn, published: bool = False) -> None:
        db.execute("INSERT INTO turns (game_id, number, " + STORED_TURN + ", published) "
                   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (turn.game_id, turn.number, *stored_turn(turn), int(published)))

    # -- turns ----------------------------------------------------------------------------------
    _TURN_SELECT = ("SELECT game_id, number, processed_at, state, hash, prev_hash, inputs, "
                    "decisions, chance, events, digests FROM turns ")

    def turn(self, game_id: str, number: int | None = None) -> Turn:
        if number is None:
            row = self.db.execute(self._TURN_SELECT + "WHERE game_id=? ORDER BY number DESC "
                                  "LIMIT 1", (game_id,)).fetchone()
        elif not _sql_int(number):
            row = None                  # beyond what SQLite counts: no such turn, said so
        else:
            row = self.db.execute(self._TURN_SELECT + "WHERE game_id=? AND number=?",
                                  (game_id, number)).fetchone()
        if row is None:
            last = self.latest_number(game_id)
            if number is None:
                raise StoreError(f"game '{game_id}' has no turns in {self.path}",
                                 hint="the store was changed outside companion; restore the "
                                      "game from an export")
            raise StoreError(f"game '{game_id}' has no turn {number}",
                             hint=f"turns 0 to {last} have been processed" if last is not None
                             else None)
        turn, texts = self._turn_from_row(row)
        problem = verify_turn(turn, row[10], texts)
        if problem is None and turn.number > 0:
            prev = self.db.execute("SELECT hash FROM turns WHERE game_id=? AND number=?",
                                   (game_id, turn.number - 1)).fetchone()
            if prev is None or prev[0] != turn.prev_hash:
                problem = "its link to the previous turn (prev_hash) is broken"
        if problem:
            raise damaged(game_id, turn.number, problem)
        return turn

    def turns(self, game_id: str, *, check: bool = True) -> list[Turn]:
        """Every turn of a game in order; with ``check``, a damaged record raises StoreError
        (replay reads them unchecked, to report what differs)."""
        turns = []
        previous = GENESIS_HASH
        for index, row in enumerate(self.db.execute(
                self._TURN_SELECT + "WHERE game_id=? ORDER BY number", (game_id,))):
            turn, texts = self._turn_from_row(row)
            if check:
                problem = verify_turn(turn, row[10], texts)
                if problem is None and (turn.number != index or turn.prev_hash != previous):
                    problem = "its link to the previous turn (prev_hash) is broken"
                if problem:
                    raise damaged(game_id, turn.number, problem)
            previous = turn.hash
            turns.append(turn)
        return turns

    def stored_digests(self, game_id: str, number: int) -> dict[str, str]:
        row = self.db.execute("SELECT digests FROM turns WHERE game_id=? AND number=?",
                              (game_id, number)).fetchone()
        try:
            return json.loads(row[0])
        except (TypeError, ValueError):
            return {}

    @staticmethod
    def _turn_from_row(row: tuple) -> tuple[Turn, dict[str, str]]:
        """A turn from its row, with the canonical JSON of its columns (for its digests)."""
        values = list(row[:10])
        texts = {"processed_at": canonical_json(values[2])}
        for index, column in ((3, "state"), (6, "inputs"), (7, "decisions"), (8, "chance"),
                              (9, "events")):
            try:
                values[index], texts[column] = unpack_text(values[index])
            except (TypeError, ValueError):
                raise damaged(row[0], row[1], f"the stored '{column}' is not valid (compressed) "
                                              "JSON") from None
        return Turn(*values), texts

    def unpublished(self, game_id: str) -> list[int]:
        """Turns committed whose reports were never put in place (a crash between the two)."""
        return [row[0] for row in self.db.execute(
            "SELECT number FROM turns WHERE game_id=? AND published=0 ORDER BY number",
            (game_id,))]

    def mark_published(self, game_id: str, number: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE turns SET published=1 WHERE game_id=? AND number=?",
                       (game_id, number))

    def commit_turn(self, turn: Turn, used: dict[str, int], *, crash_hook=None,
                    read: Iterable[int] | None = None) -> None:
        """Write a processed turn and mark the submissions it used, in one transaction.
        ``read`` is the ids of the pending submissions the turn was computed from: when the
        pending submissions are others by now (orders stored or replaced meanwhile by another
        process), nothing is written and :class:`TurnMovedOn` says so (compute it again)."""
        with self.transaction() as db:
            current = db.execute("SELECT number, hash FROM turns WHERE game_id=? ORDER BY "
                                 "number DESC LIMIT 1", (turn.game_id,)).fetchone()
            if current is None or current[0] != turn.number - 1 or current[1] != turn.prev_hash:
                raise StoreError(f"game '{turn.game_id}' changed while turn {turn.number} was "
                                 "being processed; nothing was written", hint="run it again")
            if read is not None:
                now = [row[0] for row in db.execute(
                    "SELECT id FROM submissions WHERE game_id=? AND status='pending' "
                    "ORDER BY id", (turn.game_id,))]
                if now != sorted(read):
                    raise TurnMovedOn(f"orders of game '{turn.game_id}' arrived while turn "
                                      f"{turn.number} was being processed; nothing was written",
                                      hint="run it again")
            self._insert_turn(db, turn)
            if crash_hook:
                crash_hook()
            for player, submission_id in used.items():
                db.execute("UPDATE submissions SET status='used', used_in=? WHERE id=?",
                           (turn.number, submission_id))

    # -- submissions ----------------------------------------------------------------------------
    def submit(self, game_id: str, player: str, for_turn: int, text: str, at: str, *,
               withdraw: bool = False, expect_latest: int | None = None) -> int:
        """Store a player's orders (replacing their pending ones); with ``withdraw`` the row
        records the withdrawal and nothing stays pending. With ``expect_latest`` (the turn the
        orders were checked against) nothing is stored and :class:`TurnMovedOn` is raised when
        the game's latest turn is another one by now."""
        with self.transaction() as db:
            return self.submit_in(db, game_id, player, for_turn, text, at, withdraw=withdraw,
                                  expect_latest=expect_latest)

    @staticmethod
    def submit_in(db: sqlite3.Connection, game_id: str, player: str, for_turn: int, text: str,
                  at: str, *, withdraw: bool = False, expect_latest: int | None = None) -> int:
        """``submit`` inside a transaction the caller holds (the mail reader stores orders,
        the message's state and the reply in one)."""
        if expect_latest is not None:
            Store.moved_on(db, game_id, expect_latest,
                           lambda latest: f"turn {latest} of game '{game_id}' was processed "
                                          f"while the orders of {player} were being checked; "
                                          "nothing was stored",
                           "check them against the new turn")
        db.execute("UPDATE submissions SET status='replaced' WHERE game_id=? AND player=? "
                   "AND status='pending'", (game_id, player))
        cur = db.execute("INSERT INTO submissions (game_id, player, for_turn, text, "
                         "submitted_at, status) VALUES (?,?,?,?,?,?)",
                         (game_id, player, for_turn, text, at,
                          "withdrawn" if withdraw else "pending"))
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
            "version": EXPORT_VERSION,
            "game": {"id": game.id, "kind": game.kind, "seed": game.seed,
                     "secret": game.secret, "options": game.options,
                     "base_url": game.base_url, "created_at": game.created_at,
                     "setup": game.setup},
            "players": [vars(p) for p in game.players],
            "turns": [{k: v for k, v in vars(t).items() if k != "game_id"}
                      for t in self.turns(game_id)],
            "submissions": [vars(s) for s in self.submissions(game_id)],
            # the game's history beside its turns (read when present; older files lack them)
            "rewound_turns": [{k: v for k, v in vars(t).items() if k != "game_id"} |
                              {"rewound_at": when, "reason": why}
                              for t, when, why in self.rewound_turns(game_id)],
            "address_changes": [dict(zip(ADDRESS_CHANGE_KEYS, row)) for row in self.db.execute(
                "SELECT " + ", ".join(ADDRESS_CHANGE_KEYS) + " FROM mail_address_changes "
                "WHERE game_id=? ORDER BY id", (game_id,))],
        }

    def import_game(self, data: dict[str, Any], *, new_id: str | None = None) -> str:
        game, turns, submissions, history = parse_export(data, new_id)
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
            for turn, when, why in history.rewound:
                db.execute("INSERT INTO rewound_turns (game_id, number, rewound_at, reason, "
                           + STORED_TURN + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           (game.id, turn.number, when, why, *stored_turn(turn)))
            for change in history.address_changes:
                db.execute("INSERT INTO mail_address_changes (game_id, "
                           + ", ".join(ADDRESS_CHANGE_KEYS) + ") VALUES (?,?,?,?,?,?)",
                           (game.id, *(change[k] for k in ADDRESS_CHANGE_KEYS)))
        return game.id


def verify_turn(turn: Turn, stored_digests: str | None,
                texts: dict[str, str] | None = None) -> str | None:
    """What is wrong with a stored turn record (None: it matches its digests and hash).
    ``texts``: the canonical JSON of its columns, when known."""
    try:
        digests = json.loads(stored_digests or "")
    except ValueError:
        digests = None
    actual = column_digests(texts or turn.texts())
    if isinstance(digests, dict):
        for column in TURN_COLUMNS:
            if digests.get(column) != actual[column]:
                return f"its '{column}' was changed after the turn was processed"
    if turn.compute_hash(actual) != turn.hash:
        return "its hash (or the digests it covers) was changed after the turn was processed"
    return None


STORED_TURN = "processed_at, state, hash, prev_hash, inputs, decisions, chance, events, digests"
"""The columns a turn record is stored in (in ``turns`` and ``rewound_turns``)."""


def stored_turn(turn: Turn) -> tuple:
    """A turn's values for the STORED_TURN columns: its JSON columns packed, their digests."""
    texts = turn.texts()
    packed = {c: pack_text(texts[c]) for c in JSON_COLUMNS}
    return (turn.processed_at, packed["state"], turn.hash, turn.prev_hash, packed["inputs"],
            packed["decisions"], packed["chance"], packed["events"],
            canonical_json(column_digests(texts)))


def _sql_int(number: int) -> bool:
    """Whether SQLite can hold the number (a 64-bit integer); a larger one names no row."""
    return -2**63 <= number < 2**63


def damaged(game_id: str, number: int, problem: str) -> StoreError:
    return StoreError(f"game '{game_id}', turn {number}: the stored record is damaged: {problem}",
                      hint=f"run 'companion replay {game_id}' for details; restore the game "
                           "from an export made with 'companion export'")


def check_game(game: Game, where: str) -> None:
    """The identity checks every game passes, from whatever route it enters or leaves the
    store."""
    check_game_id(game.id, f"{where}: game id")
    from companion.registry import kind_ids

    if game.kind not in kind_ids():
        raise IdentityError(f"{where}: unknown game kind {game.kind!r}",
                            hint=f"known kinds: {', '.join(kind_ids())}")
    if not isinstance(game.seed, str) or not game.seed:
        raise IdentityError(f"{where}: the seed is missing")
    if not isinstance(game.secret, str) or len(game.secret) != 64 or \
            any(ch not in "0123456789abcdef" for ch in game.secret):
        raise IdentityError(f"{where}: the game's secret is missing or malformed")
    if not isinstance(game.base_url, str) or any(ch.isspace() for ch in game.base_url) or \
            "?" in game.base_url or "#" in game.base_url:
        raise IdentityError(f"{where}: base URL {game.base_url!r} is not usable",
                            hint="a URL without spaces, '?' or '#', e.g. https://example.org/g")
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", game.base_url):     # RFC 3986's scheme
        raise IdentityError(f"{where}: base URL {game.base_url!r} does not start with a scheme "
                            "such as 'https:'",
                            hint="e.g. https://pbem.example.org (a phone opens the links)")
    scheme = game.base_url.split(":", 1)[0].lower()
    if scheme in SCRIPT_SCHEMES:    # a link that runs code or carries a document: never a page
        raise IdentityError(f"{where}: base URL {game.base_url!r} uses the '{scheme}:' scheme, "
                            "which a browser runs or opens as content, not as a web page",
                            hint="use https: (or http: on a test machine); companion:/ is the "
                                 "default without a web view")
    if [p.seat for p in game.players] != list(range(len(game.players))):
        raise IdentityError(f"{where}: the players' seats are not 0, 1, 2, ...")
    check_players([(p.name, p.slug, p.token, p.email) for p in game.players], where)


SCRIPT_SCHEMES = ("javascript", "vbscript", "data", "blob", "file", "about")


def parse_export(data: Any, new_id: str | None
                 ) -> tuple[Game, list[Turn], list[dict], "History"]:
    """Validate an export file's content: every identity as 'new' checks it, every turn's
    digests and hash chain, every submission."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError("not a companion game export (missing \"format\": \"companion-game\")")
    if data.get("version") not in (1, EXPORT_VERSION):
        raise StoreError(f"export version {data.get('version')!r} is not supported "
                         f"(this companion reads versions 1 and {EXPORT_VERSION})")
    legacy = data.get("version") == 1
    notes: list[str] = []
    try:
        g = _table(data, "game")
        game = Game(new_id or _text(g, "id", "game"), _text(g, "kind", "game"),
                    _text(g, "seed", "game"), _table(g, "options"), _text(g, "base_url", "game"),
                    _text(g, "created_at", "game"), _text(g, "setup", "game", optional=True),
                    secret=None if legacy else _text(g, "secret", "game"))
        if legacy:
            from companion.engine.chance import seed_key

            game.secret = seed_key(game.seed).hex()
        for index, (where, p) in enumerate(_rows(data, "players")):
            seat = p.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise StoreError(f"export: {where}.seat must be a whole number")
            game.players.append(Player(seat, _text(p, "name", where), _text(p, "slug", where),
                                       _text(p, "email", where, optional=True),
                                       new_token(f"imported/{game.id}/{index}") if legacy
                                       else _text(p, "token", where)))
        if legacy:
            notes.append("players got new tokens")
        check_game(game, "export")
        if not isinstance(data.get("turns"), list) or not data["turns"]:
            raise StoreError("export: the game has no turns")
        turns = []
        previous = GENESIS_HASH
        for index, (where, t) in enumerate(_rows(data, "turns")):
            number = t.get("number")
            if number != index or isinstance(number, bool):
                raise StoreError(f"export: turn {index} is numbered {number!r}")
            turn = _turn(game.id, index, t, where)
            if legacy:
                from companion.engine.canon import state_hash

                if turn.prev_hash != previous or \
                        state_hash(turn.state, turn.prev_hash) != turn.hash:
                    raise StoreError(f"export: turn {index} does not match its hash; the file "
                                     "was changed after it was exported")
                turn.prev_hash = previous
                turn.hash = turn.compute_hash()
            elif turn.prev_hash != previous or turn.compute_hash() != turn.hash:
                raise StoreError(f"export: turn {index} does not match its hash; the file was "
                                 "changed after it was exported")
            previous = turn.hash
            turns.append(turn)
        listed = _rows(data, "submissions")
        submissions = [s for _, s in listed]
        names = {p.name for p in game.players}
        for where, s in listed:
            for key in ("player", "for_turn", "text", "submitted_at", "status", "used_in"):
                if key not in s:
                    raise StoreError(f"export: {where} lacks '{key}'")
            if s["player"] not in names:
                raise StoreError(f"export: {where} is from {s['player']!r}, not a player of "
                                 "the game")
            if s["status"] not in ("pending", "replaced", "withdrawn", "used", "rewound"):
                raise StoreError(f"export: {where} has status {s['status']!r}")
            if not isinstance(s["text"], str) or not isinstance(s["submitted_at"], str) or \
                    not isinstance(s["for_turn"], int) or \
                    not (s["used_in"] is None or isinstance(s["used_in"], int)):
                raise StoreError(f"export: {where} has a value of the wrong type")
        history = _parse_history(data, game, names)
    except IdentityError as exc:
        raise StoreError(exc.message if exc.message.startswith("export") else
                         f"export: {exc.message}", hint=exc.hint) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoreError(f"export file is incomplete or malformed ({exc!r})") from None
    return game, turns, submissions, history


@record
class History:
    """What an export holds beside a game's turns and orders: the turns a moderator took back
    (each whole, with when and why) and every change of a player's address."""
    rewound: list[tuple[Turn, str, str]]
    address_changes: list[dict[str, Any]]


def _parse_history(data: dict, game: Game, names: set[str]) -> History:
    """The optional 'rewound_turns' and 'address_changes' of an export (files made before
    they were exported lack them): each turn taken back must match its own hash."""
    rewound = []
    for where, t in _rows(data, "rewound_turns", optional=True):
        number = t.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise StoreError(f"export: {where} is numbered {number!r}")
        turn = _turn(game.id, number, t, where)
        if turn.compute_hash() != turn.hash:
            raise StoreError(f"export: {where} (turn {number} taken back) does not match its "
                             "hash; the file was changed after it was exported")
        rewound.append((turn, _text(t, "rewound_at", where), _text(t, "reason", where)))
    changes = []
    for where, c in _rows(data, "address_changes", optional=True):
        change = {key: _text(c, key, where, optional=key == "old_email")
                  for key in ADDRESS_CHANGE_KEYS}
        if change["player"] not in names:
            raise StoreError(f"export: {where} is for {change['player']!r}, not a player of "
                             "the game")
        changes.append(change)
    return History(rewound, changes)


def _rows(data: dict, key: str, *, optional: bool = False) -> list[tuple[str, dict]]:
    """The tables of the list ``key`` of an export, each with where it is ('turns[3]');
    with ``optional``, a missing list is an empty one."""
    value = data.get(key, [] if optional else None)
    if not isinstance(value, list):
        raise StoreError(f"export: '{key}' must be a list")
    for index, row in enumerate(value):
        if not isinstance(row, dict):
            raise StoreError(f"export: {key}[{index}] is not a table")
    return [(f"{key}[{index}]", row) for index, row in enumerate(value)]


def _turn(game_id: str, number: int, t: dict, where: str) -> Turn:
    return Turn(game_id, number, _text(t, "processed_at", where), _table(t, "state"),
                _text(t, "hash", where), _text(t, "prev_hash", where), _table(t, "inputs"),
                _list(t, "decisions"), _list(t, "chance"), _list(t, "events"))


def _table(data: dict, key: str) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise StoreError(f"export: '{key}' is missing or not a table")
    return value


def _list(data: dict, key: str) -> list:
    value = data.get(key)
    if not isinstance(value, list):
        raise StoreError(f"export: '{key}' is missing or not a list")
    return value


def _text(data: dict, key: str, where: str, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise StoreError(f"export: {where}.{key} is missing or not text")
    return value
