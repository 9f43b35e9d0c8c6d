"""Canonical JSON and hashing: the basis of state hashes, commitments and byte-identical output."""
from __future__ import annotations

import copy
import hashlib
import hmac
import json
import marshal
from typing import Any


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no insignificant whitespace; the same value gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def sha256_hex(text: str | bytes) -> str:
    if isinstance(text, str):
        text = text.encode("utf-8")
    return hashlib.sha256(text).hexdigest()


def state_hash(state: Any, previous_hash: str) -> str:
    """The chained hash of a turn: SHA-256 over the previous turn's hash and the canonical state."""
    return sha256_hex(previous_hash + "\n" + canonical_json(state))


def keyed_hex(key: bytes, label: str, length: int = 64) -> str:
    """A value derived from a game's secret key: HMAC-SHA-256 of a label, as hex."""
    return hmac.new(key, label.encode("utf-8"), hashlib.sha256).hexdigest()[:length]


def deep_copy(value: Any) -> Any:
    """Copy of a JSON-like value (states are copied before a turn is processed, and engines keep
    a copy of the state to roll a paused player turn back to).

    Dicts, lists, tuples, strings, numbers, booleans and None (what states are made of) go
    through ``marshal``, whose C code copies them several times faster than ``copy.deepcopy``
    and gives the same result: same types, same key order, floats bit for bit, an object that
    appears twice still one object.  A value holding anything else (an enum, a dict subclass,
    a record) is copied by ``copy.deepcopy``."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)


GENESIS_HASH = "0" * 64
