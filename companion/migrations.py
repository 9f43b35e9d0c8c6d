"""Store migrations: each upgrades a store from one schema version to the next, inside the
transaction that opened it (all or nothing), and returns notes for the user."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.engine.canon import GENESIS_HASH, canonical_json, state_hash
from companion.engine.identity import new_token
from companion.engine.words import counted


def rebuild_submissions(db: sqlite3.Connection, statuses: tuple[str, ...]) -> None:
    """The submissions table made anew with these statuses allowed (SQLite cannot change a
    CHECK in place); rows, ids and index kept. Each migration names its own statuses, so that
    it does what it did when it was written."""
    allowed = ", ".join(f"'{s}'" for s in statuses)
    db.execute(f"""CREATE TABLE submissions_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    for_turn INTEGER NOT NULL,
    text TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ({allowed})),
    used_in INTEGER
)""")
    db.execute("INSERT INTO submissions_new SELECT id, game_id, player, for_turn, text, "
               "submitted_at, status, used_in FROM submissions")
    db.execute("DROP TABLE submissions")
    db.execute("ALTER TABLE submissions_new RENAME TO submissions")
    db.execute("CREATE INDEX submissions_pending ON submissions (game_id, status)")


def migrate_1_to_2(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 2: random player tokens (version 1 derived them from the seed), a per-game secret,
    turn hashes over every stored column (with per-column digests), a published flag on turns,
    and withdrawn submissions.

    A game created under schema 1 keeps the key its Gral salts were made with as its secret (its
    commitments are already printed in reports); every new game gets a random secret.
    """
    from companion.engine.chance import seed_key
    from companion.store import Turn

    notes = []
    db.execute("ALTER TABLE games ADD COLUMN secret TEXT NOT NULL DEFAULT ''")
    games = db.execute("SELECT id, seed FROM games ORDER BY id").fetchall()
    for game_id, seed in games:
        db.execute("UPDATE games SET secret=? WHERE id=?", (seed_key(seed).hex(), game_id))
    players = db.execute("SELECT game_id, seat FROM players ORDER BY game_id, seat").fetchall()
    for game_id, seat in players:
        db.execute("UPDATE players SET token=? WHERE game_id=? AND seat=?",
                   (new_token(f"migrated/{game_id}/{seat}"), game_id, seat))

    db.execute("ALTER TABLE turns ADD COLUMN digests TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE turns ADD COLUMN published INTEGER NOT NULL DEFAULT 1")
    broken = []
    for game_id, _seed in games:
        previous = old_previous = GENESIS_HASH
        rows = db.execute("SELECT number, processed_at, state, hash, prev_hash, inputs, "
                          "decisions, chance, events FROM turns WHERE game_id=? ORDER BY number",
                          (game_id,)).fetchall()
        for row in rows:
            try:
                values = [json.loads(row[i]) for i in (2, 5, 6, 7, 8)]
            except ValueError:
                broken.append(f"{game_id} turn {row[0]}")
                continue
            state, inputs, decisions, chance, events = values
            if row[4] != old_previous or state_hash(state, row[4]) != row[3]:
                broken.append(f"{game_id} turn {row[0]}")
            old_previous = row[3]
            turn = Turn.sealed(game_id, row[0], row[1], state, previous, inputs, decisions,
                               chance, events)
            db.execute("UPDATE turns SET hash=?, prev_hash=?, digests=? WHERE game_id=? AND "
                       "number=?", (turn.hash, turn.prev_hash, canonical_json(turn.digests()),
                                    game_id, row[0]))
            previous = turn.hash

    rebuild_submissions(db, ("pending", "replaced", "withdrawn", "used"))
    db.execute("UPDATE companion_meta SET value='2' WHERE key='schema'")

    notes.append(f"the store {path} was upgraded from schema 1 to 2")
    if players:
        notes.append(f"{counted(len(players), 'player')} in {counted(len(games), 'game')} got "
                     "new secret tokens "
                     "drawn at random (they were derived from the seed before): links printed "
                     "in earlier reports no longer open private views; run 'companion report "
                     "GAME_ID' and send each player their new report")
    if games:
        notes.append("turn hashes now cover every stored column (state, orders, decisions, "
                     "chance, events, time); the hashes in earlier reports' links changed")
    if broken:
        notes.append("these turns did not match their old hashes before the upgrade (check "
                     "them with 'companion replay'): " + ", ".join(broken))
    return notes


def migrate_2_to_3(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 3: the JSON columns of every turn (state, inputs, decisions, chance, events)
    stored zlib-compressed. Their content, digests and hashes are unchanged, so every game
    replays and every printed link still opens."""
    from companion.store import pack, unpack

    db.create_function("companion_pack", 1, lambda stored: pack(unpack(stored)),
                       deterministic=True)
    db.execute("""CREATE TABLE turns_new (
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
)""")
    damaged = []
    rows = db.execute("SELECT game_id, number, state, inputs, decisions, chance, events "
                      "FROM turns ORDER BY game_id, number").fetchall()
    for row in rows:
        try:
            for value in row[2:]:
                unpack(value)
        except (TypeError, ValueError):
            damaged.append(f"{row[0]} turn {row[1]}")
    if damaged:
        from companion.errors import StoreError

        raise StoreError(f"the store {path} cannot be upgraded to schema 3: these turns hold "
                         f"damaged JSON: {', '.join(damaged)}; nothing was changed",
                         hint="restore those games from an export, or delete them with an "
                              "older companion")
    db.execute("INSERT INTO turns_new SELECT game_id, number, processed_at, "
               "companion_pack(state), hash, prev_hash, companion_pack(inputs), "
               "companion_pack(decisions), companion_pack(chance), companion_pack(events), "
               "digests, published FROM turns")
    db.execute("DROP TABLE turns")
    db.execute("ALTER TABLE turns_new RENAME TO turns")
    db.execute("UPDATE companion_meta SET value='3' WHERE key='schema'")
    return [f"the store {path} was upgraded from schema 2 to 3 (turns stored compressed)"]


def apply_schema(db: sqlite3.Connection, statements: str, version: int) -> None:
    """Run a schema text's statements (separated by ';') and record the store's new schema
    ``version``: the step of a migration that adds tables or columns."""
    for statement in statements.strip().split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("UPDATE companion_meta SET value=? WHERE key='schema'", (str(version),))


def migrate_3_to_4(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 4: the tables of play by email (incoming and outgoing messages, deadlines and
    holds, address changes; :data:`companion.store.MAIL_SCHEMA`). Nothing else changes."""
    from companion.store import MAIL_SCHEMA

    apply_schema(db, MAIL_SCHEMA, 4)
    return [f"the store {path} was upgraded from schema 3 to 4 (tables for play by email)"]


def migrate_4_to_5(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 5: turns a moderator takes back (``companion rewind``) are kept in
    ``rewound_turns``, and a submission may be 'rewound'. Nothing stored changes."""
    from companion.store import REWIND_SCHEMA

    rebuild_submissions(db, ("pending", "replaced", "withdrawn", "used", "rewound"))
    apply_schema(db, REWIND_SCHEMA, 5)
    return [f"the store {path} was upgraded from schema 4 to 5 (turns can be taken back)"]


def migrate_5_to_6(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 6: a game's setting whether a turn may run before its deadline
    (``mail_games.early``, 1 for every game: as they ran before) and the players' requests
    that a turn wait for its deadline (``mail_waits``, empty). Nothing stored changes."""
    from companion.store import WAIT_SCHEMA

    apply_schema(db, WAIT_SCHEMA, 6)
    return [f"the store {path} was upgraded from schema 5 to 6 (turns may wait for their "
            "deadline)"]


def migrate_6_to_7(db: sqlite3.Connection, path: Path) -> list[str]:
    """Schema 7: whether a change of a seat's address is announced to the other players
    (``mail_address_changes.announce`` and ``from_turn``). Every change recorded before is ''
    (nothing to announce: a game under way never learns of an old change now). Nothing stored
    changes."""
    from companion.store import SEAT_SCHEMA

    apply_schema(db, SEAT_SCHEMA, 7)
    return [f"the store {path} was upgraded from schema 6 to 7 (a seat given to a new player "
            "is announced to the others)"]


STEPS = {"1": migrate_1_to_2, "2": migrate_2_to_3, "3": migrate_3_to_4, "4": migrate_4_to_5,
         "5": migrate_5_to_6, "6": migrate_6_to_7}
"""The upgrade from each older schema to the next."""
