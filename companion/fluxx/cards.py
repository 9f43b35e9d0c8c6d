"""The Monty Python Fluxx deck: editable TOML data, validated with located errors, and the card
language the engine interprets.

``load_deck()`` reads ``companion/fluxx/data`` (or an edited copy), checks every file and
returns a :class:`Deck`. Every problem is reported with file, line and column, and all problems
of all files are collected and raised together (``DataErrors``).

The card language (see ``docs/fluxx.md`` and the comments at the top of each data file):

* a **Keeper** may carry a free action (``free = {op = ..., per_turn = N, cost = "discard"}``)
  and tags (``knight``) that Goals count;
* a **Creeper** only has a name: the engine lays it down when drawn and lets it block wins;
* a **Goal** is a condition: ``have`` (names or lists of alternatives), ``count`` (at least N
  Keepers of a tag), ``another_has`` and ``nothing``;
* a **New Rule** is a parameter of the rule set (``set``), a start-of-turn bonus (``bonus``) or
  a free action (``free``);
* an **Action** is a script of ops (``do = [...]``) run in order.

Every card's printed text is generated from its behaviour (:func:`card_text`), so the card and
the engine cannot disagree. A data file may override a text with ``text = "..."``; the override
must still mention every number and every card the behaviour uses (checked on loading).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.engine.datafiles import DataFile
from companion.engine.names import fold, slugify
from companion.engine.record import record
from companion.engine.words import counted
from companion.errors import DataError, DataErrors

DATA_DIR = Path(__file__).resolve().parent / "data"
TYPES = ("keeper", "creeper", "goal", "rule", "action")
FILES = (("basic.toml", "basic"), ("keepers.toml", "keeper"), ("creepers.toml", "creeper"),
         ("goals.toml", "goal"), ("rules.toml", "rule"), ("actions.toml", "action"))
TYPE_TITLE = {"basic": "Basic Rules", "keeper": "Keeper", "creeper": "Creeper", "goal": "Goal",
              "rule": "New Rule", "action": "Action"}
MIN_NON_CREEPERS = 19
"""Six players are dealt three cards that are not Creepers, and one card is drawn."""
DECK_SIZE = 100
"""The cards of the game, the Basic Rules card aside."""
NAMED_BY_RULES: dict[str, tuple[str, ...]] = {
    "keeper": ("King Arthur", "Sir Bedevere", "Sir Galahad", "Sir Robin", "Sir Lancelot",
               "The Holy Grail", "Unladen Swallow", "Coconuts", "Robin's Minstrels", "The Foot",
               "Nude Organist", "Resting Parrot", "Important Message", "Airborne Cow",
               "Trojan Rabbit", "A Shrubbery", "The Catapult", "The Finger of God", "The Animator",
               "Excalibur", "Holy Hand Grenade of Antioch"),
    "creeper": ("Spanish Inquisition", "Legendary Black Beast of Aaarrghh", "Grim Reaper",
                "Killer Rabbit", "3-Headed Giant", 'Knights Who Say "Ni!"'),
    "goal": ("'Course It's a Good Idea", "A Bird in the Bush", "Consult the Book of Armaments",
             "I Have a Plan", "Strange Women Lying in Ponds", "Grail-Shaped Beacon",
             "Bring Forth the Holy Hand Grenade", "Coconut-Laden Swallow", "Brave Sir Robin",
             "Rabbits of Doom", "Things No One Expects", "The Cheese Shop",
             "You Must Bring Us a Shrubbery", "He Bravely Ran Away", "Who Leaps Out?",
             "Fetchez la Vache", "Squashed From Above", "Cave of Caerbannog",
             "And There Was Much Rejoicing", "This Is a Temperate Zone", "Holy Relics",
             "Opening Credits", "Quest Accomplished", "You're Using Coconuts",
             "Gone to Meet His Maker", "Flying Creatures", "Knights of the Round Table",
             "This Is an Ex-Parrot", "The Cartoon Peril Was No More", "The Meaning of Life?",
             "Message For You, Sir"),
    "rule": ("Draw 2", "Draw 3", "Draw 4", "Draw 5", "Play 2", "Play 3", "Play 4", "Play All",
             "Hand Limit 1", "Hand Limit 2", "Hand Limit 3", "Hand Limit 4", "Keeper Limit 3",
             "Double Agenda", "One, Two, Five! (Three, Sir!)", "No-Hand Bonus",
             "Always Look on the Bright Side of Life", "Sing-Along Bonus",
             "Outrageous Accent Bonus", "Get On with It!", "Swap Plays for Draws"),
    "action": ("Rules Reset", "Draw 2 and Use 'em", "Draw 3, Play 2 of Them", "Jackpot!",
               "Steal a Keeper", "Trash a Keeper", "Move a Creeper", "Creeper Sweeper",
               "Trade Hands", "Exchange Keepers", "My Brain Hurts!",
               "And Now For Something Completely Different", "Bring Out Your Dead!",
               "I'm Not Dead Yet!", "This Game Has Become Too Silly", "Run Away! Run Away!",
               "Let's Do That Again!", "What Is Your Quote?", "My Hovercraft Is Full of Eels"),
}
"""The cards the rules and their rulings name (docs/fluxx.md, 'The deck'; the two bonuses under
our names), by type: an edited deck keeps every one of them, with its type."""

# -- the language: what each op and key takes ---------------------------------------------------
INT = "int"
ACTION_OPS: dict[str, dict[str, Any]] = {
    "draw": {"n": INT},
    "draw_and_play": {"draw": INT, "play": INT},
    "discard_rules": {},
    "discard_goals": {},
    "steal_keeper": {},
    "move_creeper": {"from": ("any", "self")},
    "trash": {"what": ("keeper", "creeper", "any")},
    "trade_hands": {},
    "exchange_keepers": {},
    "reveal_goal": {},
    "discard_creepers": {},
    "others_lose_keeper": {},
    "others_discard_to": {"n": INT},
    "pass_creepers": {},
    "replay": {"types": ["action", "rule", "keeper", "goal"]},
    "rescue": {},
    "quote_round": {"draw": INT},
    "pass_random": {"n": INT},
    "shuffle_hands": {},
}
KEEPER_FREE_OPS: dict[str, dict[str, Any]] = {
    "trash": {"what": ("keeper", "creeper", "any")},
    "move_creeper": {"from": ("any", "self")},
}
RULE_FREE_OPS: dict[str, dict[str, Any]] = {
    "redraw_hand": {"n": INT},
    "swap_plays": {},
}
FREE_LIMITS = {"per_turn": INT, "cost": ("discard",), "ends_turn": bool}
SET_KEYS = {"draw": INT, "play": (INT, "all"), "hand_limit": INT, "keeper_limit": INT,
            "goals": INT, "three_counts_as": INT, "order": ("reverse",)}
BONUS_WHEN = ("empty_hand", "per_creeper", "sing", "accent")
SOCIAL = ("sing", "accent")

# The order-line clauses (see orders.py) each op takes.
OP_CLAUSES = {
    "steal_keeper": ("taking",), "move_creeper": ("moving", "to"), "trash": ("on",),
    "trade_hands": ("with",), "exchange_keepers": ("giving", "for"),
    "reveal_goal": ("replacing",), "discard_rules": ("keeping",), "replay": ("choosing",),
    "rescue": ("choosing",), "quote_round": ("quoting",),
}
ALL_CLAUSES = ("taking", "moving", "to", "on", "with", "giving", "for", "replacing", "keeping",
               "choosing", "quoting")

KEYS = {
    "basic": ("name", "draw", "play", "flavour", "text"),
    "keeper": ("name", "tags", "free", "flavour", "text"),
    "creeper": ("name", "flavour", "text"),
    "goal": ("name", "have", "count", "another_has", "nothing", "flavour", "text"),
    "rule": ("name", "set", "bonus", "free", "flavour", "text"),
    "action": ("name", "do", "flavour", "text"),
}


@record(frozen=True)
class Tag:
    id: str
    name: str
    plural: str


@record
class Card:
    id: str
    name: str
    type: str
    index: int                                  # position in the data files (the deck order)
    tags: tuple[str, ...] = ()
    free: dict[str, Any] | None = None
    set: dict[str, Any] | None = None
    bonus: dict[str, Any] | None = None
    goal: dict[str, Any] | None = None
    do: tuple[dict[str, Any], ...] = ()
    flavour: str = ""
    text: str = ""
    clauses: tuple[str, ...] = ()               # order clauses a play of this card may carry

    @property
    def mentioned(self) -> tuple[str, ...]:
        """Card ids a Goal names in its `have` list (Creepers named there do not block)."""
        if not self.goal:
            return ()
        out: list[str] = []
        for item in self.goal.get("have", []):
            out.extend(item if isinstance(item, list) else [item])
        return tuple(out)


@record
class Deck:
    cards: list[Card]                           # the 100 cards, in data order
    basic: Card
    tags: dict[str, Tag]
    folder: Path
    by_id: dict[str, Card] = field(default_factory=dict)
    by_name: dict[str, Card] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.cards}
        self.by_id[self.basic.id] = self.basic
        self.by_name = {c.name: c for c in self.cards}
        self.by_name[self.basic.name] = self.basic

    def name_table(self, types: tuple[str, ...]):
        """The cards of these types indexed by normalised name, for matching typed names."""
        from companion.fluxx.orders import NameIndex

        cache = self.__dict__.setdefault("_tables", {})
        if types not in cache:
            cache[types] = NameIndex([(norm(c.name), c) for c in self.cards if c.type in types])
        return cache[types]

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def of(self, *types: str) -> list[Card]:
        return [c for c in self.cards if c.type in types]

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def name(self, card_id: str) -> str:
        return self.by_id[card_id].name

    def names(self, ids) -> str:
        return ", ".join(self.by_id[i].name for i in ids)


PLACEHOLDER = "(write your line here)"
"""What the options show where a player writes a line of their own (sing, accent, quote,
quoting): refused as a line when the orders are checked (orders.is_placeholder)."""


def norm(text: str) -> str:
    """A name reduced for matching: case, accents and punctuation ignored ('Knights Who Say
    "Ni!"' and 'knights who say ni' are the same; apostrophes vanish: 'Its', 'It's')."""
    text = re.sub(r"['\u2019`]", "", text)
    return " ".join(re.sub(r"[^\w ]+", " ", fold(text)).replace("_", " ").split())


# -- loading --------------------------------------------------------------------------------------
class _Loader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.files: dict[str, DataFile] = {}
        self.errors: list[DataError] = []

    def load(self, filename: str) -> DataFile | None:
        try:
            df = DataFile.load(self.folder / filename, display=str(self.folder / filename))
        except DataError as err:
            self.errors.append(err)
            return None
        self.files[filename] = df
        return df

    def error(self, df: DataFile, message: str, entry: str | None, *needles: str,
              hint: str | None = None) -> None:
        line, col = _locate(df, entry, needles)
        err = DataError(message, path=df.path, line=line, column=col, hint=hint)
        df.errors.append(err)
        self.errors.append(err)


def _locate(df: DataFile, entry: str | None, needles) -> tuple[int | None, int | None]:
    """Line and column of a needle, searched from the line naming ``entry`` (a card) onwards,
    up to the next table header; else the entry's name line; else anywhere."""
    lines = df.text.splitlines()
    start = 0
    if entry is not None:
        for number, line in enumerate(lines):
            stripped = line.strip()
            if stripped.startswith("name") and "=" in stripped:
                value = stripped.split("=", 1)[1].strip()
                if value[1:-1] == entry:
                    start = number
                    break
        end = start + 1
        while end < len(lines) and not lines[end].lstrip().startswith("[["):
            end += 1
        for needle in needles:
            if not needle:
                continue
            for form in (f'"{needle}"', f"{needle} =", f"{needle}=", needle):
                for number in range(start, end):
                    col = lines[number].find(form)
                    if col >= 0 and not lines[number].lstrip().startswith("#"):
                        return number + 1, col + 1
        if start or (lines and entry in lines[0]):
            return start + 1, 1
    line, col = df.locate(*[n for n in needles if n])
    return line, col


def _hint(word: str, choices) -> str | None:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.5)
    return f"did you mean '{close[0]}'?" if close else f"known: {', '.join(map(str, choices))}"


def _check_params(ld: _Loader, df: DataFile, where: str, entry: str, table: dict[str, Any],
                  spec: dict[str, Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check an op's parameters against its spec; return them with defaults."""
    allowed = dict(spec)
    allowed.update(extra or {})
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "op":
            continue
        if key not in allowed:
            ld.error(df, f"{where}: unknown key '{key}'", entry, key,
                     hint=_hint(key, list(allowed)) if allowed else "this op takes no parameters")
            continue
        kind = allowed[key]
        ok = True
        if kind == INT:
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 20
            expect = "a whole number from 0 to 20"
        elif kind is bool:
            ok = isinstance(value, bool)
            expect = "true or false"
        elif isinstance(kind, tuple) and INT in kind:
            ok = (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 20) or \
                value in [k for k in kind if k != INT]
            expect = "a whole number or " + " or ".join(f"'{k}'" for k in kind if k != INT)
        elif isinstance(kind, tuple):
            ok = value in kind
            expect = " or ".join(f"'{k}'" for k in kind)
        elif isinstance(kind, list):
            ok = isinstance(value, list) and value and all(v in kind for v in value)
            expect = "a list of " + ", ".join(f"'{k}'" for k in kind)
        if not ok:
            hint = _hint(value, kind) if isinstance(kind, tuple) and isinstance(value, str) else None
            ld.error(df, f"{where}: '{key}' must be {expect}, not {value!r}", entry,
                     str(value) if not isinstance(value, (list, dict)) else key, key, hint=hint)
            continue
        out[key] = value
    for key, kind in spec.items():
        if key not in out and key not in table:
            ld.error(df, f"{where}: missing key '{key}'", entry, "op", hint=f"add {key} = ...")
    return out


def _text_field(ld, df, where, entry, table, key) -> str:
    value = table.get(key, "")
    if not isinstance(value, str):
        ld.error(df, f"{where}: '{key}' must be text", entry, key)
        return ""
    if "\n" in value.strip() or len(value) > 400:
        ld.error(df, f"{where}: '{key}' must be one line of at most 400 characters", entry, key)
        return ""
    return value.strip()


def load_deck(folder: str | Path | None = None) -> Deck:
    """Read and validate the deck; raise DataError/DataErrors naming file, line and column."""
    folder = Path(folder) if folder is not None else DATA_DIR
    ld = _Loader(folder)
    raw: list[tuple[DataFile, str, dict[str, Any]]] = []    # (file, type, entry)
    basic_entry = None
    tags: dict[str, Tag] = {}
    for filename, ctype in FILES:
        df = ld.load(filename)
        if df is None:
            continue
        data = df.data
        if ctype == "basic":
            allowed = ["basic"]
            df.unknown_keys(data, allowed, filename)
            ld.errors.extend(e for e in df.errors if e not in ld.errors)
            entry = data.get("basic")
            if not isinstance(entry, dict):
                ld.error(df, "basic.toml needs a [basic] table with the Basic Rules card", None,
                         "basic")
                continue
            basic_entry = (df, entry)
            continue
        allowed = [ctype] + (["tag"] if ctype == "keeper" else [])
        for key in data:
            if key not in allowed:
                ld.error(df, f"{filename}: unknown table '{key}'", None, key,
                         hint=_hint(key, allowed))
        if ctype == "keeper":
            for t in data.get("tag", []) if isinstance(data.get("tag"), list) else []:
                tid, tname, plural = t.get("id"), t.get("name"), t.get("plural")
                if not all(isinstance(v, str) and v for v in (tid, tname, plural)):
                    ld.error(df, "a [[tag]] needs id, name and plural (text)", None, "[[tag]]")
                    continue
                tags[tid] = Tag(tid, tname, plural)
        entries = data.get(ctype, [])
        if not isinstance(entries, list):
            ld.error(df, f"'{ctype}' must be an array of tables ([[{ctype}]])", None, ctype)
            continue
        for entry in entries:
            raw.append((df, ctype, entry))

    # names first: every reference is checked against the full list
    names: dict[str, tuple[str, DataFile]] = {}
    folded: dict[str, str] = {}
    ok_entries = []
    for df, ctype, entry in raw:
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            ld.error(df, f"a [[{ctype}]] entry has no name", None, f"[[{ctype}]]",
                     hint='add name = "..."')
            continue
        name = name.strip()
        if any(ch in name for ch in ";\n#"):
            ld.error(df, f"card name '{name}' may not contain ';', '#' or a line break", name, name)
            continue
        key = norm(name)
        if not key:
            ld.error(df, f"card name '{name}' has no letters or digits", name, name)
            continue
        if key in folded:
            ld.error(df, f"two cards are called '{name}' (the first is '{folded[key]}'; names "
                     "must differ in more than case, accents and punctuation)", name, name)
            continue
        folded[key] = name
        names[name] = (ctype, df)
        ok_entries.append((df, ctype, entry, name))
    if basic_entry is not None:
        bname = basic_entry[1].get("name")
        if isinstance(bname, str) and norm(bname) in folded:
            ld.error(basic_entry[0], f"the Basic Rules card may not share the name '{bname}'",
                     None, bname)

    def ref(df: DataFile, where: str, entry_name: str, typed: Any, types: tuple[str, ...]) -> str | None:
        if not isinstance(typed, str):
            ld.error(df, f"{where}: expected a card name, not {typed!r}", entry_name, str(typed))
            return None
        if typed in names and names[typed][0] in types:
            return typed
        if typed in names:
            kind = names[typed][0]
            ld.error(df, f"{where}: '{typed}' is {'an' if kind[0] in 'aeiou' else 'a'} {kind}, but a "
                     f"{' or '.join(types)} is needed here", entry_name, typed)
            return None
        candidates = [n for n, (t, _) in names.items() if t in types]
        close = difflib.get_close_matches(typed, candidates, n=1, cutoff=0.5)
        ld.error(df, f"{where}: no {' or '.join(types)} called '{typed}'", entry_name, typed,
                 hint=f"did you mean '{close[0]}'?" if close else None)
        return None

    cards: list[Card] = []
    ids: dict[str, str] = {}
    for index, (df, ctype, entry, name) in enumerate(ok_entries):
        where = f"{TYPE_TITLE[ctype]} '{name}'"
        allowed = KEYS[ctype]
        for key in entry:
            if key not in allowed:
                ld.error(df, f"{where}: unknown key '{key}'", name, key, hint=_hint(key, allowed))
        cid = slugify(name)
        if cid in ids:
            ld.error(df, f"'{name}' and '{ids[cid]}' would share the id '{cid}'", name, name)
            continue
        ids[cid] = name
        card = Card(cid, name, ctype, index,
                    flavour=_text_field(ld, df, where, name, entry, "flavour"))
        if ctype == "keeper":
            tlist = entry.get("tags", [])
            if not isinstance(tlist, list) or not all(isinstance(t, str) for t in tlist):
                ld.error(df, f"{where}: 'tags' must be a list of tag ids", name, "tags")
                tlist = []
            for t in tlist:
                if t not in tags:
                    ld.error(df, f"{where}: unknown tag '{t}'", name, t, hint=_hint(t, list(tags)))
            card.tags = tuple(t for t in tlist if t in tags)
            if "free" in entry:
                card.free = _free(ld, df, where, name, entry["free"], KEEPER_FREE_OPS)
        elif ctype == "goal":
            card.goal = _goal(ld, df, where, name, entry, ref, tags)
        elif ctype == "rule":
            given = [k for k in ("set", "bonus", "free") if k in entry]
            if len(given) != 1:
                ld.error(df, f"{where}: a New Rule needs exactly one of 'set', 'bonus' or 'free'"
                         + (f" (it has {', '.join(given)})" if given else ""), name,
                         given[-1] if given else name)
            elif given[0] == "set":
                card.set = _set(ld, df, where, name, entry["set"])
            elif given[0] == "bonus":
                card.bonus = _bonus(ld, df, where, name, entry["bonus"])
            else:
                card.free = _free(ld, df, where, name, entry["free"], RULE_FREE_OPS)
        elif ctype == "action":
            script = entry.get("do")
            if not isinstance(script, list) or not script:
                ld.error(df, f"{where}: 'do' must be a non-empty list of ops "
                         "([{ op = \"draw\", n = 3 }])", name, "do" if "do" in entry else name)
            else:
                ops = []
                for step in script:
                    op = _op(ld, df, where, name, step, ACTION_OPS)
                    if op is not None:
                        ops.append(op)
                card.do = tuple(ops)
        cards.append(card)
    basic = None
    if basic_entry is not None:
        df, entry = basic_entry
        df.unknown_keys(entry, KEYS["basic"], "[basic]")
        ld.errors.extend(e for e in df.errors if e not in ld.errors)
        bname = entry.get("name", "Basic Rules")
        params = {}
        for key in ("draw", "play"):
            value = entry.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 20:
                ld.error(df, f"[basic]: '{key}' must be a whole number from 1 to 20", None, key)
                value = 1
            params[key] = value
        basic = Card(slugify(str(bname)) or "basic-rules", str(bname), "basic", -1, set=params,
                     flavour=_text_field(ld, df, "[basic]", None, entry, "flavour"))
        if "text" in entry:
            basic.text = _text_field(ld, df, "[basic]", None, entry, "text")
    if ld.errors:
        raise _errors(ld.errors)

    by_name = {c.name: c for c in cards}
    for card in cards:
        _resolve_refs(card, by_name)
    non_creepers = sum(1 for c in cards if c.type != "creeper")
    if non_creepers < MIN_NON_CREEPERS:
        df = ld.files.get("keepers.toml") or next(iter(ld.files.values()))
        ld.error(df, f"the deck has only {non_creepers} cards that are not Creepers; six players "
                 f"need at least {MIN_NON_CREEPERS}", None, "name")
    # texts: generated, or an override checked against the behaviour
    deck = Deck(cards, basic, tags, folder)
    for (df, ctype, entry, name) in ok_entries:
        card = deck.by_name.get(name)
        if card is None:
            continue
        card.clauses = clauses_of(card)
        generated = card_text(card, deck)
        if "text" in entry:
            override = _text_field(ld, df, f"{TYPE_TITLE[ctype]} '{name}'", name, entry, "text")
            problem = text_mismatch(card, deck, override)
            if problem:
                ld.error(df, f"{TYPE_TITLE[ctype]} '{name}': the text does not match what the card "
                         f"does: {problem}", name, "text",
                         hint=f"the generated text would be: {generated}")
            card.text = override
        else:
            card.text = generated
    if not basic.text:
        basic.text = card_text(basic, deck)
    if not ld.errors:       # counted only when every entry reads (a broken one is said already)
        _check_complete(ld, folder, cards)
    if ld.errors:
        raise _errors(ld.errors)
    return deck


def _check_complete(ld: _Loader, folder: Path, cards: list[Card]) -> None:
    """The deck holds every card the rules name, with its type, and 100 cards in all."""
    by_name = {norm(c.name): c for c in cards}
    files = dict((ctype, name) for name, ctype in FILES)
    for ctype, names in NAMED_BY_RULES.items():
        df = ld.files.get(files[ctype])
        for name in names:
            card = by_name.get(norm(name))
            if card is None and df is not None:
                err = DataError(f"the {TYPE_TITLE[ctype]} '{name}' is missing: the rules name "
                                "it", path=df.path, hint=f"add a [[{ctype}]] entry named "
                                f"\"{name}\" (companion/fluxx/data/{files[ctype]} has it)")
                df.errors.append(err)
                ld.errors.append(err)
            elif card is not None and card.type != ctype:
                where = ld.files.get(files[card.type]) or df
                ld.error(where, f"'{card.name}' is a {TYPE_TITLE[ctype]} in the rules, not a "
                         f"{TYPE_TITLE[card.type]}", card.name, card.name,
                         hint=f"move it to {files[ctype]}")
    if len(cards) != DECK_SIZE:
        counts = ", ".join(f"{files[t]} {sum(c.type == t for c in cards)}" for t in TYPES)
        ld.errors.append(DataError(
            f"the deck holds {len(cards)} cards; Monty Python Fluxx has {DECK_SIZE} ({counts})",
            path=str(folder), hint="add or remove cards of our own design (the rules name 98 of "
            "them) until there are 100"))


def _errors(errors: list[DataError]) -> Exception:
    unique = list(dict.fromkeys(errors))
    return unique[0] if len(unique) == 1 else DataErrors(unique)


def _op(ld, df, where, name, step, table, extra=None) -> dict[str, Any] | None:
    if not isinstance(step, dict) or "op" not in step:
        ld.error(df, f"{where}: each step needs an 'op' (one of {', '.join(table)})", name, "do",
                 "free")
        return None
    op = step["op"]
    if op not in table:
        ld.error(df, f"{where}: unknown op '{op}'", name, str(op), hint=_hint(op, list(table)))
        return None
    params = _check_params(ld, df, f"{where}, op '{op}'", name, step, table[op], extra)
    return {"op": op, **params}


def _free(ld, df, where, name, table, ops) -> dict[str, Any] | None:
    if not isinstance(table, dict):
        ld.error(df, f"{where}: 'free' must be a table {{ op = ... }}", name, "free")
        return None
    return _op(ld, df, where, name, table, ops, FREE_LIMITS)


def _set(ld, df, where, name, table) -> dict[str, Any] | None:
    if not isinstance(table, dict) or len(table) != 1:
        ld.error(df, f"{where}: 'set' must name exactly one parameter, e.g. set = {{ draw = 2 }}",
                 name, "set", hint=f"parameters: {', '.join(SET_KEYS)}")
        return None
    return _check_params(ld, df, where, name, table, {}, SET_KEYS) or None


def _bonus(ld, df, where, name, table) -> dict[str, Any] | None:
    if not isinstance(table, dict):
        ld.error(df, f"{where}: 'bonus' must be a table", name, "bonus")
        return None
    out = _check_params(ld, df, where, name, table, {"when": BONUS_WHEN},
                        {"draw": INT, "play": INT})
    if ("draw" in out) == ("play" in out):
        ld.error(df, f"{where}: a bonus gives either 'draw = N' or 'play = N'", name, "bonus")
        return None
    return out


def _goal(ld, df, where, name, entry, ref, tags) -> dict[str, Any] | None:
    goal: dict[str, Any] = {}
    if "have" in entry:
        have = entry["have"]
        if not isinstance(have, list) or not have:
            ld.error(df, f"{where}: 'have' must be a list of card names", name, "have")
        else:
            items: list[Any] = []
            for item in have:
                if isinstance(item, list):
                    alts = [ref(df, where, name, a, ("keeper", "creeper")) for a in item]
                    if len(item) < 2:
                        ld.error(df, f"{where}: a list of alternatives needs two names or more",
                                 name, "have")
                    items.append([a for a in alts if a])
                else:
                    items.append(ref(df, where, name, item, ("keeper", "creeper")))
            goal["have"] = items
    if "another_has" in entry:
        other = entry["another_has"]
        if not isinstance(other, list) or not other:
            ld.error(df, f"{where}: 'another_has' must be a list of card names", name, "another_has")
        else:
            goal["another_has"] = [ref(df, where, name, a, ("keeper", "creeper")) for a in other]
    if "count" in entry:
        count = entry["count"]
        if not isinstance(count, dict) or not count:
            ld.error(df, f"{where}: 'count' must be a table such as {{ knight = 3 }}", name, "count")
        else:
            for tag, n in count.items():
                if tag not in tags:
                    ld.error(df, f"{where}: unknown tag '{tag}'", name, tag,
                             hint=_hint(tag, list(tags)))
                elif not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 20:
                    ld.error(df, f"{where}: the count of '{tag}' must be a whole number from 1 "
                             "to 20", name, tag)
            goal["count"] = {t: n for t, n in count.items() if t in tags}
    if "nothing" in entry:
        if entry["nothing"] is not True:
            ld.error(df, f"{where}: 'nothing' can only be true", name, "nothing")
        elif len(goal):
            ld.error(df, f"{where}: 'nothing = true' cannot be combined with other conditions",
                     name, "nothing")
        goal["nothing"] = True
    if not goal:
        ld.error(df, f"{where}: a Goal needs a condition (have, count, another_has or nothing)",
                 name, name)
        return None
    return goal


def _resolve_refs(card: Card, by_name: dict[str, Card]) -> None:
    """Turn card names in a Goal into ids."""
    if card.goal is None:
        return
    g = card.goal
    if "have" in g:
        g["have"] = [[by_name[a].id for a in item] if isinstance(item, list) else by_name[item].id
                     for item in g["have"] if item]
    if "another_has" in g:
        g["another_has"] = [by_name[a].id for a in g["another_has"] if a]


def clauses_of(card: Card) -> tuple[str, ...]:
    """The order clauses a play (or a use) of this card may carry."""
    out: list[str] = []
    ops = list(card.do) + ([card.free] if card.free else [])
    for op in ops:
        out.extend(OP_CLAUSES.get(op["op"], ()))
        if op["op"] == "replay":
            out.extend(ALL_CLAUSES)
    if card.type == "goal":
        out.append("replacing")
    if card.set and "goals" in card.set:
        out.append("keeping")
    return tuple(dict.fromkeys(c for c in ALL_CLAUSES if c in out))


# -- printed texts --------------------------------------------------------------------------------
def _cards(n: int) -> str:
    return counted(n, "card")


def _alternatives(names: list[str]) -> str:
    if len(names) == 2:
        return f"either {names[0]} or {names[1]}"
    return "one of " + ", ".join(names[:-1]) + f" or {names[-1]}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def op_text(op: dict[str, Any], deck: Deck) -> str:
    """One op of an Action script in words."""
    kind = op["op"]
    if kind == "draw":
        return f"Draw {_cards(op['n'])}."
    if kind == "draw_and_play":
        d, p = op["draw"], op["play"]
        if p >= d:
            return (f"Draw {_cards(d)} apart from your hand and play them all, in the order you "
                    "choose.")
        return (f"Draw {_cards(d)} apart from your hand, play {p} of them in the order you "
                "choose, and discard the rest.")
    if kind == "discard_rules":
        return "Discard every New Rule in play. The Basic Rules stay."
    if kind == "discard_goals":
        return "Discard the Goal (or both Goals) in play."
    if kind == "steal_keeper":
        return "Take a Keeper from in front of another player and put it in front of you."
    if kind == "move_creeper":
        if op["from"] == "self":
            return "Move a Creeper from in front of you to another player."
        return "Move any Creeper in play to a different player."
    if kind == "trash":
        what = {"keeper": "a Keeper", "creeper": "a Creeper",
                "any": "a Keeper or a Creeper"}[op["what"]]
        return f"Discard {what} from in front of any player, yourself included."
    if kind == "trade_hands":
        return ("Trade your whole hand for the hand of another player, even when one of the two "
                "hands is empty.")
    if kind == "exchange_keepers":
        return "Swap one of your Keepers for one of another player's Keepers."
    if kind == "reveal_goal":
        return ("Turn up cards from the draw pile until a Goal appears. Put that Goal into play "
                "as if you had played it, and discard the other cards turned up.")
    if kind == "discard_creepers":
        return "Discard every Creeper in play, whoever has it."
    if kind == "others_lose_keeper":
        return ("Every other player who has a Keeper must discard one of them (they choose "
                "which).")
    if kind == "others_discard_to":
        return (f"Every other player holding more than {_cards(op['n'])} must discard down to "
                f"{op['n']} (they choose which).")
    if kind == "pass_creepers":
        return "Give every Creeper in front of you to the next player in turn order."
    if kind == "replay":
        kinds = {"action": "an Action", "rule": "a New Rule", "keeper": "a Keeper",
                 "goal": "a Goal"}
        return (f"Take {' or '.join(kinds[t] for t in op['types'])} from the discard pile and "
                "play it at once, as part of this play.")
    if kind == "rescue":
        return "Take a Keeper of your choice from the discard pile and put it in front of you."
    if kind == "quote_round":
        return ("Starting with you, every player must answer with a line quoted from Monty "
                f"Python. Each who does draws {_cards(op['draw'])}; each who cannot discards a "
                "card at random from their hand.")
    if kind == "pass_random":
        return (f"All at the same time, every player passes {_cards(op['n'])} at random from "
                "their hand to the next player in turn order.")
    if kind == "shuffle_hands":
        return ("Gather every player's hand, shuffle the cards together and deal them out one "
                "at a time, starting with you, until none are left.")
    raise ValueError(kind)


def free_text(free: dict[str, Any], card_type: str) -> str:
    kind = free["op"]
    if free.get("cost") == "discard":
        head = "Free action on your turn: discard this Keeper to"
    elif free.get("per_turn") == 1:
        head = "Free action, once in each of your turns:"
    elif free.get("per_turn"):
        head = f"Free action, up to {free['per_turn']} times in each of your turns:"
    else:
        head = "Free action on your turn:"
    tail = " Your turn then ends at once." if free.get("ends_turn") else ""
    if kind == "trash":
        what = {"keeper": "a Keeper", "creeper": "a Creeper",
                "any": "a Keeper or a Creeper"}[free["what"]]
        body = f"discard {what} in play, in front of anyone"
        if free.get("cost") == "discard":
            return f"{head} {body}. It does not count as a play.{tail}"
        return f"{head} {body}. It does not count as a play.{tail}"
    if kind == "move_creeper":
        src = "in front of you" if free["from"] == "self" else "in play"
        return f"{head} move a Creeper {src} to another player. Not a play.{tail}"
    if kind == "redraw_hand":
        return (f"{head} while you still have plays left and cards in hand, discard your whole "
                f"hand and draw {_cards(free['n'])}.{tail}")
    if kind == "swap_plays":
        return (f"{head} while you still have plays left, give them up and draw one card for "
                f"each of them instead.{tail}")
    raise ValueError(kind)


def goal_text(card: Card, deck: Deck) -> str:
    g = card.goal or {}
    if g.get("nothing"):
        return ("You win if you are the only player with nothing at all: no Keepers, no "
                "Creepers and no cards in hand.")
    name = deck.name
    parts: list[str] = []
    for item in g.get("have", []):
        parts.append(_alternatives([name(a) for a in item]) if isinstance(item, list) else name(item))
    for tag, n in g.get("count", {}).items():
        t = deck.tags[tag]
        parts.append(f"any {t.name}" if n == 1 else f"at least {n} {t.plural}")
    if g.get("another_has"):
        mine = _join(parts)
        theirs = _join([name(a) for a in g["another_has"]])
        text = (f"You win if you have {mine} in front of you while another player has "
                f"{theirs} in front of them.")
    elif len(parts) == 1 and not g.get("have"):
        text = f"You win with {parts[0]} in front of you."
    else:
        text = f"You win with {_join(parts)} in front of you."
    creepers = [name(c) for c in card.mentioned if deck[c].type == "creeper"]
    if creepers:
        text += (f" Having {_join(creepers)} does not stop you winning with this Goal."
                 if len(creepers) > 1 else
                 f" Here {creepers[0]} does not stop you winning.")
    return text


def rule_text(card: Card, deck: Deck) -> str:
    if card.set is not None:
        key, value = next(iter(card.set.items()))
        if key == "draw":
            return (f"Draw {_cards(value)} at the start of your turn, not one. Takes effect at "
                    "once: if you drew fewer this turn, draw the difference now.")
        if key == "play":
            if value == "all":
                return ("Play every card in your hand, including any that reach your hand while "
                        "you play. Your turn ends when your hand is empty.")
            return (f"Play {_cards(value)} on your turn, not one; the cards already played this "
                    "turn count. If your hand runs out first, your turn ends.")
        if key == "hand_limit":
            return (f"Nobody may hold more than {_cards(value)}. You discard down to {value} at "
                    "the end of your turn; everyone else discards down at once whenever they "
                    "hold more.")
        if key == "keeper_limit":
            return (f"Nobody may have more than {counted(value, 'Keeper')} in front of them "
                    "(Creepers do not count). You discard the extra ones at the end of your turn; "
                    "everyone else at once.")
        if key == "goals":
            return (f"Up to {value} Goals may be in play, and meeting any of them wins. A new Goal "
                    "replaces one of them (the player's choice). When this rule goes, whoever "
                    "removed it picks the Goal that stays.")
        if key == "three_counts_as":
            return (f"Every 3 printed on a card counts as {value} while this rule is in play: "
                    "Draw 3, Play 3, Hand or Keeper Limit 3, an Action's 3 cards, a Goal's 3 "
                    "Knights.")
        if key == "order":
            return ("Turns pass the other way round the table while this rule is in play, "
                    "starting with the turn after this one.")
    if card.bonus is not None:
        b = card.bonus
        gain = (f"draw {counted(b['draw'], 'extra card')}" if "draw" in b else
                f"play {counted(b['play'], 'extra card')} this turn")
        if b["when"] == "empty_hand":
            return (f"If you start your turn with no cards in hand, first draw "
                    f"{_cards(b['draw'])}, then make your usual draw. Only the very start of a "
                    "turn counts." if "draw" in b else
                    f"If you start your turn with no cards in hand, {gain}.")
        if b["when"] == "per_creeper":
            return (f"At the start of your turn, {gain} for each Creeper in front of you. "
                    "Things could be worse.")
        if b["when"] == "sing":
            return (f"At the start of your turn you may sing a line of a song to the table; if "
                    f"you do, {gain}. By email: write sing \"your line\" in your orders.")
        if b["when"] == "accent":
            return (f"At the start of your turn you may say a line in an outrageous fake accent; "
                    f"if you do, {gain}. By email: write accent \"your line\" in your orders.")
    if card.free is not None:
        return free_text(card.free, "rule")
    raise ValueError(card.name)


def card_text(card: Card, deck: Deck) -> str:
    """The printed text of a card, generated from what it does."""
    if card.type == "basic":
        return (f"Draw {_cards(card.set['draw'])}, then play {_cards(card.set['play'])}. New "
                "Rules change these numbers while they are in play; this card always stays on "
                "the table.")
    if card.type == "keeper":
        parts = []
        if card.free:
            parts.append(free_text(card.free, "keeper"))
        return " ".join(parts)
    if card.type == "creeper":
        return ("The moment you draw it, put it in front of you and draw a replacement. While it "
                "is in front of you, you cannot win unless the Goal names it.")
    if card.type == "goal":
        return goal_text(card, deck)
    if card.type == "rule":
        return rule_text(card, deck)
    if card.type == "action":
        return " ".join(op_text(op, deck) for op in card.do)
    raise ValueError(card.type)


def behaviour_numbers(card: Card) -> list[int]:
    nums: list[Any] = []
    for op in list(card.do) + ([card.free] if card.free else []):
        nums += [v for k, v in op.items() if k in ("n", "draw", "play") and isinstance(v, int)]
    for table in (card.set, card.bonus):
        if table:
            nums += [v for v in table.values() if isinstance(v, int) and not isinstance(v, bool)]
    if card.goal:
        nums += list(card.goal.get("count", {}).values())
    return [n for n in nums if n != 1]


def text_mismatch(card: Card, deck: Deck, text: str) -> str | None:
    """Why an overriding text cannot be this card's text (a number or a card it uses is not
    mentioned), or None."""
    words = set(re.findall(r"\d+", text))
    for n in behaviour_numbers(card):
        if str(n) not in words:
            return f"the number {n} is not mentioned"
    if card.goal:
        ids = list(card.mentioned) + list(card.goal.get("another_has", []))
        for cid in ids:
            if norm(deck.name(cid)) not in norm(text):
                return f"'{deck.name(cid)}' is not mentioned"
    if not text:
        return "the text is empty"
    return None


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The bundled deck: loaded once, then from the cache (companion/engine/cache.py)."""
    from companion.engine import cache

    return cache.cached(cache.name_for("fluxx-deck", DATA_DIR),
                        files=[DATA_DIR / name for name, _ in FILES], code=CODE, build=load_deck,
                        codec=cache.Codec((Tag, Card),
                                          rebuilt={Deck: ("cards", "basic", "tags", "folder")}))


_HERE = Path(__file__).resolve().parent
CODE = (_HERE / "cards.py", _HERE.parent / "engine" / "datafiles.py",
        _HERE.parent / "engine" / "names.py", _HERE.parent / "engine" / "cache.py",
        _HERE.parent / "engine" / "record.py", _HERE.parent / "engine" / "words.py",
        _HERE.parent / "errors.py")
"""The sources a cached deck depends on besides its data files (tests/test_cache.py checks
that every module of the package that loading imports is here)."""


def check_data_dir(folder: str | Path) -> list[DataError]:
    try:
        load_deck(folder)
    except DataErrors as errors:
        return list(errors.errors)
    except DataError as error:
        return [error]
    return []
