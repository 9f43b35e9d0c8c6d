"""Provably fair chance: every game's dice and shuffles are committed to when it starts, and any
player can check them when it ends.

A game's chance comes from one keyed stream derived from its seed (:mod:`engine.chance`). At
creation the tool publishes a commitment to the seed, SHA-256 over a salt and the seed, in every
report's header. The salt is derived from the game's secret, so the commitment reveals nothing
and cannot be recomputed by a player. When the game ends (or earlier, on the moderator's explicit
request) a disclosure file gives the seed, the salt, the game's secret (it only salts the sealed
Gral sheets, whose salts are disclosed at the end anyway) and the record: the orders as used, the
dice the moderator supplied, each turn's processing time and hash. ``companion verify
--disclosure FILE`` re-runs the whole game from that file alone and checks the commitment and every
turn's hash, so a player needs nothing but the file and the hashes printed in their own reports.

What it proves: the moderator did not change a die, a shuffle, an order or a state after the game
began; every outcome the seed decided was decided when the game was created. What it cannot
prove: that dice the moderator supplied (``--dice``, marked as such) were really rolled, or that
the moderator did not show the seed to a player (docs/fairness.md).
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.canon import canonical_json, keyed_hex, sha256_hex
from companion.errors import CompanionError

FORMAT = "companion-chance-disclosure"
VERSION = 1
FILE_NAME = "chance-disclosure.json"


def chance_salt(game) -> str:
    """The salt of a game's commitment: derived from the game's secret, never from the seed."""
    return keyed_hex(game.secret_key, "chance/commitment-salt")


def commitment_of(seed: str, salt: str) -> str:
    return sha256_hex(f"companion-chance\n{salt}\n{seed}")


def chance_commitment(game) -> str:
    """What every report prints: SHA-256 over the salt and the seed."""
    return commitment_of(game.seed, chance_salt(game))


def disclosure(game, turns: list) -> dict[str, Any]:
    """Everything needed to re-run a game and check its chance: the seed and salt, the game's
    secret, its players, options and setup, and per turn the inputs, time and hash."""
    return {
        "format": FORMAT, "version": VERSION,
        "game": game.id, "kind": game.kind, "players": [p.name for p in game.players],
        "options": game.options, "setup": game.setup, "created_at": game.created_at,
        "seed": game.seed, "salt": chance_salt(game), "secret": game.secret,
        "commitment": chance_commitment(game),
        "turns": [{"number": t.number, "processed_at": t.processed_at, "inputs": t.inputs,
                   "digests": t.digests(), "hash": t.hash} for t in turns],
    }


@dataclass
class Verdict:
    ok: bool
    commitment_ok: bool
    turns: list[tuple[int, str, bool]] = field(default_factory=list)
    """(turn, hash16, matches) for every turn re-run."""
    problems: list[str] = field(default_factory=list)
    stream: int = 0
    moderator: int = 0
    moderator_turns: list[int] = field(default_factory=list)


def verify(data: Any, report_hashes: dict[int, list[str]] | None = None) -> Verdict:
    """Re-run a game from its disclosure alone (in a fresh, temporary store) and compare: the
    commitment with the seed and salt, every turn's hash with the disclosed one and with any
    hashes taken from players' reports (``{turn: [hash16, ...]}``)."""
    from companion import service
    from companion.engine.identity import new_token
    from companion.registry import get_kind
    from companion.store import Game, Player, Store

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CompanionError("not a chance disclosure (missing \"format\": \"" + FORMAT + "\")")
    try:
        kind = get_kind(data["kind"])
        players = [str(p) for p in data["players"]]
        seed, salt, secret = str(data["seed"]), str(data["salt"]), str(data["secret"])
        recorded = list(data["turns"])
        game = Game(str(data["game"]), data["kind"], seed, dict(data["options"]), "companion:/",
                    str(data.get("created_at", "")), data.get("setup"),
                    [Player(i, n, "", None, new_token(f"verify/{n}"))
                     for i, n in enumerate(players)], secret=secret)
        bytes.fromhex(secret)
    except (KeyError, TypeError, ValueError) as exc:
        raise CompanionError(f"the disclosure is incomplete or malformed ({exc!r})") from None
    verdict = Verdict(False, commitment_of(seed, salt) == data.get("commitment"))
    if not verdict.commitment_ok:
        verdict.problems.append("the commitment does not match the seed and salt: this seed is "
                                "not the one the game was committed to")
    with tempfile.TemporaryDirectory(prefix="companion-verify-") as folder:
        store = Store(Path(folder) / "verify.sqlite3", create=True)
        try:
            rerun = service.rerun(store, kind, game, recorded)
        except CompanionError as exc:
            verdict.problems.append(exc.message)
            rerun = []
        finally:
            store.close()
    for (number, turn, problem) in rerun:
        disclosed = recorded[number].get("hash", "")
        matches = problem is None and turn.hash == disclosed
        verdict.turns.append((number, disclosed[:16], matches))
        if problem:
            verdict.problems.append(f"turn {number}: {problem}")
        elif turn.hash != disclosed:
            stated = recorded[number].get("digests") or {}
            differ = [column for column, digest in turn.digests().items()
                      if stated and stated.get(column) != digest]
            what = (f"its {', '.join(WHAT.get(c, c) for c in differ)} differ"
                    if differ else "a die, a shuffle, an order or the state was changed")
            verdict.problems.append(f"turn {number}: re-run from the seed and the orders, its "
                                    f"hash is {turn.hash[:16]}, not {disclosed[:16]} as "
                                    f"disclosed: {what}")
        for outcome in turn.chance:
            if outcome["source"] == "moderator":
                verdict.moderator += 1
                if number not in verdict.moderator_turns:
                    verdict.moderator_turns.append(number)
            else:
                verdict.stream += 1
        for printed in (report_hashes or {}).get(number, []):
            if not disclosed.startswith(printed.lower()):
                verdict.problems.append(f"turn {number}: a report prints the hash {printed}, "
                                        f"the disclosure {disclosed[:16]}")
    if len(rerun) < len(recorded) and not verdict.problems:
        verdict.problems.append("the disclosure could not be re-run to its end")
    verdict.ok = not verdict.problems
    return verdict


WHAT = {"chance": "dice and shuffles", "state": "state", "inputs": "orders or dice supplied",
        "decisions": "decisions", "events": "events", "processed_at": "processing time"}


LINK_HASH = re.compile(r"/(\d+)/[^/?\s]+\?h=([0-9a-fA-F]{16})")


def hashes_in_reports(texts: list[str]) -> dict[int, list[str]]:
    """The turn hashes printed in reports (the ``?h=`` of their links), by turn."""
    found: dict[int, list[str]] = {}
    for text in texts:
        for turn, digest in LINK_HASH.findall(text):
            found.setdefault(int(turn), []).append(digest)
    return found


def to_text(data: dict) -> str:
    return canonical_json(data) + "\n"
