"""Writes the malformed import files of the corpus (tests/corpus/<kind>/import/*.json): a real
export of a fresh game of each kind, damaged or made hostile in the ways of issue 13.

Run from the project folder: .venv/bin/python tests/corpus/make_imports.py [KIND ...]
(no kinds: every kind of KINDS).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("COMPANION_TEST_ENTROPY", "corpus")
os.environ.setdefault("SOURCE_DATE_EPOCH", "1798761600")
HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from companion import service  # noqa: E402
from companion.store import Store  # noqa: E402
from test_hardening import mutations  # noqa: E402

KINDS = {"gral": ["first=Anna"], "koc": [], "mayhem": [], "fluxx": [], "grailccg": []}
CHOSEN = ("dotdot-id", "empty-token", "duplicate-token", "newline-name", "reserved-name",
          "slug-escape", "long-name", "seat-gap", "unknown-kind", "state-changed",
          "events-changed", "time-changed", "stranger-submission")


def main(kinds: list[str]) -> None:
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        sys.exit(f"unknown kinds: {', '.join(unknown)}; known: {', '.join(KINDS)}")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "s.sqlite3", create=True)
        for kind in kinds or list(KINDS):
            options = KINDS[kind]
            service.new_game(store, kind, "corpus", ["Anna", "Bert"], seed="1",
                             option_args=options)
            data = store.export_game("corpus")
            store.delete_game("corpus")
            folder = HERE / kind / "import"
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob("*.json"):
                old.unlink()
            for name, (content, _expect) in mutations(data).items():
                if name not in CHOSEN:
                    continue
                (folder / f"{name}.json").write_text(
                    json.dumps(content, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                    encoding="utf-8")
            text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1)
            (folder / "truncated.json").write_text(text[: len(text) // 2], encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
