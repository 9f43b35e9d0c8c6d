"""Knights of Camelot scenarios as files (SCENARIOS, Designing a Scenario).

A scenario is a small TOML file: what it is for, the knights' starting values, the victory
conditions and the rules in force. The rulebook's four scenarios ship as such files in
``companion/koc/data/scenarios/``; a moderator writes their own (``--option
scenario=FILE``) by copying one, and every mistake in it is reported with its file, line and
column. docs/koc-scenarios.md documents every key.

A designed scenario names the rulebook scenario it is ``based_on``: the engine plays that
scenario's rules (the Quest of the Holy Grail's, the Campaign's, the Round Table petition's)
with the file's values in place of the book's. The resolved terms are stored in the game's
options when it is created, so a game never depends on the file again (replay included).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

BUILTIN = ("basic", "advanced", "grail", "campaign")
FOLDER = Path(__file__).parent / "data" / "scenarios"
GOALS = ("round_table", "grail")
HOMELANDS = ("random", "camelot")
GEAR = ("horse", "shield", "lance", "sword")

# table -> {key: (kinds, what)}; every key a scenario file may hold
SCHEMA: dict[str, dict[str, tuple[tuple, str]]] = {
    "": {"name": ((str,), "a string"), "based_on": ((str,), "a string"),
         "purpose": ((str,), "a string")},
    "start": {"cp": ((int,), "a whole number"), "vp": ((int,), "a whole number"),
              "arthurian": ((bool,), "true or false"), "homeland": ((str,), "a string"),
              "equipment": ((list,), "a list of strings")},
    "victory": {"goal": ((str,), "a string"), "petition_cp": ((int,), "a whole number"),
                "petition_max_vl": ((int,), "a whole number"),
                "knave_kvp": ((int,), "a whole number"),
                "turn_limit": ((int,), "a whole number")},
    "rules": {"optional": ((list,), "a list of rule names"),
              "knaves": ((bool,), "true or false")},
}


def _suggest(word: str, choices) -> str | None:
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"did you mean '{close[0]}'?" if close else None


def read(text: str, filename: str) -> dict:
    """The terms of a scenario file: a plain dict (JSON-safe), every key filled in (from the
    ``based_on`` scenario where the file is silent). Raises DataError/DataErrors listing every
    mistake with its line and column."""
    from companion.koc.engine import knight as kn
    from companion.koc.kind import RULE_ALIASES, RULES
    from companion.koc.position import Source

    src = Source(text, filename)
    data = src.data
    for table, value in data.items():
        if isinstance(value, dict):
            if table not in SCHEMA or table == "":
                src.error(f"unknown table [{table}]", table, None,
                          hint=_suggest(table, [t for t in SCHEMA if t]) or
                          "tables: [start], [victory], [rules]")
                continue
            _keys(src, table, value)
    _keys(src, "", {k: v for k, v in data.items() if not isinstance(v, dict)})
    src.raise_if_errors()

    base_key = data.get("based_on", "basic")
    if base_key not in BUILTIN:
        src.error(f"based_on: '{base_key}' is not a rulebook scenario "
                  f"({', '.join(BUILTIN)})", "", "based_on", base_key,
                  hint=_suggest(base_key, BUILTIN))
        src.raise_if_errors()
    terms = dict(builtin(base_key)) if filename != _builtin_path(base_key) else {}
    if not terms:
        terms = {"key": base_key}
    start, victory, rules = (data.get(t, {}) for t in ("start", "victory", "rules"))
    terms.update({"key": base_key, "name": data.get("name", terms.get("name", base_key)),
                  "purpose": data.get("purpose", terms.get("purpose", ""))})
    for key in ("cp", "vp", "arthurian", "homeland", "equipment"):
        if key in start:
            terms[key] = start[key]
    for key in ("goal", "petition_cp", "petition_max_vl", "knave_kvp", "turn_limit"):
        if key in victory:
            terms[key] = victory[key]
    if "optional" in rules:
        terms["rules"] = rules["optional"]
    if "knaves" in rules:
        terms["knaves"] = rules["knaves"]

    missing = [k for k in ("cp", "vp", "arthurian", "homeland", "goal") if k not in terms]
    for key in missing:
        table = "victory" if key == "goal" else "start"
        src.error(f"[{table}] needs '{key}'", table, None)
    if "cp" in start and not kn.CP_MIN <= start["cp"] <= kn.CP_MAX:
        # a knight's CP never fall below 10 (Chivalry Points): a file asking for fewer would
        # start every knight at WL 0, in a position the position reader refuses
        src.error(f"start.cp = {start['cp']}: must be {kn.CP_MIN} to {kn.CP_MAX} (no knight "
                  f"has fewer than {kn.CP_MIN} CP)", "start", "cp")
    if "vp" in start and not 0 <= start["vp"] <= 300:
        src.error(f"start.vp = {start['vp']}: must be 0 to 300", "start", "vp")
    if "cp" in terms and "vp" in terms and terms["vp"] < 1:
        src.error("start.vp must be at least 1 (the VL is CP divided by VP)", "start", "vp")
    if "homeland" in start and start["homeland"] not in HOMELANDS:
        src.error(f"start.homeland = '{start['homeland']}': one of {', '.join(HOMELANDS)}",
                  "start", "homeland", start["homeland"],
                  hint=_suggest(start["homeland"], HOMELANDS))
    for item in start.get("equipment", []):
        if item not in GEAR:
            src.error(f"start.equipment: '{item}' is not equipment ({', '.join(GEAR)})",
                      "start", "equipment", item, hint=_suggest(str(item), GEAR))
    if "goal" in victory and victory["goal"] not in GOALS:
        src.error(f"victory.goal = '{victory['goal']}': one of {', '.join(GOALS)}",
                  "victory", "goal", victory["goal"], hint=_suggest(victory["goal"], GOALS))
    for key, low, high in (("petition_cp", 0, 300), ("petition_max_vl", 0, 20),
                           ("knave_kvp", 1, 30), ("turn_limit", 0, 500)):
        if key in victory and not low <= victory[key] <= high:
            src.error(f"victory.{key} = {victory[key]}: must be {low} to {high}", "victory",
                      key)
    chosen = []
    for raw in rules.get("optional", []):
        name = str(raw).strip().lower().replace("-", "_").replace(" ", "_")
        name = RULE_ALIASES.get(name, name)
        if name not in RULES:
            src.error(f"rules.optional: '{raw}' is not an optional rule", "rules", "optional",
                      raw, hint=_suggest(name, RULES))
        elif name not in chosen:
            chosen.append(name)
    terms["rules"] = chosen if "optional" in rules else list(terms.get("rules", []))
    src.raise_if_errors()
    terms.setdefault("equipment", list(GEAR))
    terms.setdefault("petition_cp", 100)
    terms.setdefault("petition_max_vl", 5)
    terms.setdefault("knave_kvp", 10)
    terms.setdefault("turn_limit", 0)
    terms.setdefault("knaves", True)
    return terms


def _keys(src, table: str, values: dict) -> None:
    allowed = SCHEMA[table]
    where = f"[{table}]" if table else "the top of the file"
    for key, value in values.items():
        if key not in allowed:
            src.error(f"{where}: unknown key '{key}'", table, key,
                      hint=_suggest(key, allowed) or f"keys: {', '.join(allowed)}")
            continue
        kinds, what = allowed[key]
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if ok and kinds == (list,):
            ok = all(isinstance(x, str) for x in value)
        if not ok:
            src.error(f"{table + '.' if table else ''}{key} must be {what}", table, key)


def _builtin_path(key: str) -> str:
    return str(FOLDER / f"{key}.toml")


@lru_cache(maxsize=None)
def _builtin(key: str) -> tuple:
    path = _builtin_path(key)

    def build() -> tuple:
        return tuple(read(Path(path).read_text(encoding="utf-8"), path).items())

    if key not in BUILTIN:
        return build()
    from companion.engine import cache     # read once, then from the cache (plain data)

    return cache.cached(cache.name_for(f"koc-scenario-{key}", FOLDER), files=[Path(path)],
                        code=code(), build=build, codec=cache.Codec(()))


def code() -> tuple[Path, ...]:
    """The sources the terms of a rulebook scenario depend on besides its file (tests/
    test_cache.py checks that every module of the package that reading imports is here)."""
    from companion.koc.world import CODE

    here = Path(__file__).resolve().parent
    return (*CODE, *(here / name for name in ("scenarios.py", "kind.py", "position.py",
                                              "engine/knight.py")),
            *(here.parent / "engine" / name for name in ("chance.py", "game.py", "orders.py",
                                                         "numbers.py")))


def builtin(key: str) -> dict:
    """The terms of one of the rulebook's scenarios, read from its shipped file."""
    return dict(_builtin(key))


def resolve(value: str) -> dict:
    """``--option scenario=VALUE``: a rulebook scenario's name or a scenario file's path."""
    from companion.service import read_text_file

    folded = value.strip().lower()
    if folded in BUILTIN:
        return builtin(folded)
    path = Path(value.strip()).expanduser()
    if path.suffix.lower() != ".toml" and not path.exists():
        raise CompanionError(f"option scenario: '{value}' is neither a rulebook scenario "
                             f"({', '.join(BUILTIN)}) nor a scenario file",
                             hint=_suggest(folded, BUILTIN) or
                             "give a scenario's name, or the path of a .toml scenario file "
                             "(docs/koc-scenarios.md)")
    text, shown = read_text_file(str(path))
    return read(text, shown)


def terms_of(state_or_options: Any) -> dict:
    """The scenario terms of a game: from its options (``scenario`` holds the terms, or, in a
    game stored before scenario files, a rulebook scenario's name) or from a state
    (``koc.terms``, else the scenario key)."""
    if isinstance(state_or_options, dict) and "koc" in state_or_options:
        koc = state_or_options["koc"]
        return koc.get("terms") or builtin(koc["scenario"])
    value = (state_or_options or {}).get("scenario", "basic")
    return value if isinstance(value, dict) else builtin(value)
