"""Identities: game ids, player names, slugs, tokens and per-game secrets, and the one set of
checks every one of them passes, whichever way it enters the store (``new``, ``import``, a setup
position, or the store itself when read).

Player names become file names (through their slugs) and parts of links; the views ``public``
and ``moderator`` are addressed by words no player name can fold to. Tokens and the per-game
secret are drawn from the operating system's random source and never derived from anything a
player could learn (the seed included). Paths are only ever built from checked slugs and ids, and
``inside`` makes sure they stay in the folder they belong to.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
from pathlib import Path
from typing import Iterable, Sequence

from companion.engine.names import slugify
from companion.errors import CompanionError

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MAX_NAME = 40
"""The longest player name, in characters: it fits every report's header, tables and QR caption
in the bundled fonts at their set sizes."""
FORBIDDEN_IN_NAMES = ",;:=#@"
RESERVED_SLUGS = frozenset({
    "public", "moderator", "all", "index", "disclosure", "calibration", "static", "admin",
})
"""Slugs a player may not have: the views the tool addresses by name, and the names of files and
folders it writes beside the players' reports (or will, in the web view)."""
TOKEN = re.compile(r"[0-9a-f]{16,64}")
TOKEN_BYTES = 16
SECRET_BYTES = 32
EMAIL = re.compile(r"[^\s<>@,;\"]+@[^\s<>@,;\"]+\.[^\s<>@,;\"]+")


class IdentityError(CompanionError):
    """A game id, player name, slug, token or path that cannot be used."""


def check_game_id(game_id: str, where: str = "game id") -> str:
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise IdentityError(f"{where} {game_id!r} is not usable",
                            hint="use 1 to 64 letters, digits, '-' or '_', starting with a "
                                 "letter or digit (it becomes a folder name and part of links)")
    return game_id


def check_player_name(name: str, where: str = "player name") -> str:
    """A usable player name (raises IdentityError saying why not); returns it unchanged."""
    if not isinstance(name, str) or not name.strip():
        raise IdentityError(f"a {where} is empty")
    if name != name.strip():
        raise IdentityError(f"{where} {name!r} starts or ends with spaces")
    if len(name) > MAX_NAME:
        raise IdentityError(f"{where} {name[:MAX_NAME]!r}... is {len(name)} characters long; "
                            f"the limit is {MAX_NAME}",
                            hint="use a shorter name (a first name or a nickname); it appears "
                                 "in every report header, table and link caption")
    import unicodedata

    # invisible characters (format characters: soft hyphens, zero-width spaces and joiners,
    # direction marks) would let two players' names look alike
    bad = [ch for ch in name
           if ch in FORBIDDEN_IN_NAMES or ord(ch) < 32 or 0x7f <= ord(ch) < 0xa0
           or ch in "\u2028\u2029" or unicodedata.category(ch) == "Cf"]
    if bad:
        shown = ", ".join(repr(ch) if ch in FORBIDDEN_IN_NAMES else
                          f"the {'control' if unicodedata.category(ch) == 'Cc' else 'invisible'}"
                          f" character U+{ord(ch):04X}"
                          f"{' (' + unicodedata.name(ch).lower() + ')' if unicodedata.name(ch, '') else ''}"
                          for ch in dict.fromkeys(bad))
        raise IdentityError(f"{where} {name!r} contains {shown}",
                            hint="names may not contain , ; : = # @ or control or invisible "
                                 "characters (they separate items in orders and positions)")
    missing: list[str] = []
    if not name.isascii():   # printable ASCII is all in the fonts (tests/test_cli_startup.py)
        from companion.render.fonts import missing_glyphs   # reads a font: not for every name

        missing = list(dict.fromkeys(missing_glyphs(name) + unshowable(name)))
    if missing:
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X}{describe(ch)})" for ch in missing)
        raise IdentityError(f"{where} {name!r} has characters the reports cannot print "
                            f"properly: {shown}", hint="the reports print Latin, Greek and Cyrillic "
                                             "letters; write the name in one of them (a "
                                             "transliteration will do)")
    slug = slugify(name)
    if not slug:
        raise IdentityError(f"{where} {name!r} has no letters or digits to make a file name "
                            "from")
    if slug in RESERVED_SLUGS:
        raise IdentityError(f"{where} {name!r} is reserved: '{slug}' names a view or a file "
                            "of the tool", hint="add a letter or choose another name "
                                                f"(reserved: {', '.join(sorted(RESERVED_SLUGS))})")
    return name


PRINTED_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def unshowable(name: str) -> list[str]:
    """Characters the reports cannot show properly even where a font has a glyph: letters of
    other scripts (Hebrew and Arabic would come out unjoined and left to right) and emoji or
    pictographs."""
    import unicodedata

    out = []
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] in "LM":
            if unicodedata.name(ch, "").split(" ")[0] not in PRINTED_SCRIPTS and \
                    category != "Mn" or ord(ch) > 0xFFFF:
                out.append(ch)
        elif ord(ch) > 0xFFFF or category in ("Co", "Cn", "Cs"):
            out.append(ch)
    return out


def describe(ch: str) -> str:
    import unicodedata

    words = unicodedata.name(ch, "").split(" ")
    if ord(ch) > 0xFFFF or unicodedata.category(ch) == "So":
        return ", an emoji or symbol"
    script = words[0] if words[0] in ("CJK",) else words[0].title()
    return f", {script}" if script else ""


def player_slugs(names: Sequence[str]) -> dict[str, str]:
    """Check every name and give each its slug; two names may not share one."""
    seen: dict[str, str] = {}
    for name in names:
        check_player_name(name)
        slug = slugify(name)
        if slug in seen:
            raise IdentityError(f"the player names {seen[slug]!r} and {name!r} would share the "
                                f"file name '{slug}'",
                                hint="make the names differ in letters or digits")
        seen[slug] = name
    return {name: slug for slug, name in seen.items()}


def names_problem(names: Sequence[str], low: int, high: int,
                  title: str) -> tuple[int | None, IdentityError] | None:
    """The first reason these names cannot be a game's players, with the index of the name at
    fault (None: the list as a whole), for readers that locate it in a file; None if they
    can."""
    if not low <= len(names) <= high:
        return None, IdentityError(f"{title} is for {low} to {high} players; "
                                   f"{len(names)} named")
    slugs: dict[str, int] = {}
    for index, name in enumerate(names):
        try:
            check_player_name(name)
        except IdentityError as exc:
            return index, exc
        slug = slugify(name)
        if slug in slugs:
            return index, IdentityError(f"the player names {names[slugs[slug]]!r} and {name!r} "
                                        f"would share the file name '{slug}'",
                                        hint="make the names differ in letters or digits")
        slugs[slug] = index
    return None


def check_token(token: str, where: str = "token") -> str:
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise IdentityError(f"{where} is not a usable secret token",
                            hint="a token is 16 to 64 lower-case hex digits; give the player a "
                                 "new one with 'companion token GAME_ID PLAYER'")
    return token


def check_email(email: str | None, where: str = "email address", *,
                new: bool = False) -> str | None:
    """A usable address (raises IdentityError saying why not). ``new``: an address being given
    now (a new game, a changed address) is also refused with a control or invisible character,
    which no mail can be sent to; an address already stored is only read with the old check,
    so a game keeps opening."""
    if email is None:
        return None
    if not isinstance(email, str) or not EMAIL.fullmatch(email) or len(email) > 254:
        raise IdentityError(f"{where} {email!r} is not an email address",
                            hint="write it as name@example.org")
    bad = [ch for ch in email if not ch.isprintable()] if new else []
    if bad:
        raise IdentityError(f"{where} {email!r} contains the control or invisible character "
                            f"U+{ord(bad[0]):04X}; no mail can be sent to it",
                            hint="type the address again by hand (a pasted address may carry "
                                 "such a character)")
    return email


def check_players(rows: Iterable[tuple[str, str, str, str | None]], where: str) -> None:
    """Check (name, slug, token, email) rows of one game: every name usable, each slug the
    name's own, no two players sharing a name, slug or token."""
    rows = list(rows)
    if not rows:
        raise IdentityError(f"{where}: the game has no players")
    slugs = player_slugs([r[0] for r in rows if _checked_name(r[0], where)])
    tokens: set[str] = set()
    for name, slug, token, email in rows:
        if slug != slugs[name]:
            raise IdentityError(f"{where}: player {name!r} has slug {slug!r}; it must be "
                                f"{slugs[name]!r}")
        check_token(token, f"{where}: the token of player {name!r}")
        if token in tokens:
            raise IdentityError(f"{where}: two players share one token",
                                hint="every player needs their own secret token")
        tokens.add(token)
        check_email(email, f"{where}: the email of player {name!r}")


def _checked_name(name: str, where: str) -> bool:
    try:
        check_player_name(name)
    except IdentityError as exc:
        raise IdentityError(f"{where}: {exc.message}", hint=exc.hint) from None
    return True


TEST_ENTROPY = "COMPANION_TEST_ENTROPY"
"""For tests only: when this environment variable is set, tokens and game secrets are derived
from its value and a label, so two runs give byte-identical reports. Never set it for a real
game: anyone who knows the value can compute every link."""


def _random_hex(nbytes: int, label: str) -> str:
    fixed = os.environ.get(TEST_ENTROPY)
    if fixed:
        digest = hmac.new(fixed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256)
        return (digest.hexdigest() * 2)[: nbytes * 2]
    import secrets   # here, not at the top: the quick commands never need it

    return secrets.token_hex(nbytes)


def new_token(label: str = "") -> str:
    """A player's secret token: 128 bits from the operating system's random source (``label``
    matters only under COMPANION_TEST_ENTROPY)."""
    return _random_hex(TOKEN_BYTES, f"token/{label}")


def new_secret(label: str = "") -> str:
    """A game's secret (for salts and anything else secret that is derived): 256 random bits,
    never the seed."""
    return _random_hex(SECRET_BYTES, f"secret/{label}")


def inside(base: Path, *parts: str) -> Path:
    """``base/parts...``, refusing any part that is not a plain file or folder name, and any
    result that would leave ``base`` (through '..', an absolute part or a symbolic link)."""
    for part in parts:
        if (not part or part in (".", "..") or "/" in part or "\\" in part or "\0" in part
                or part != part.strip()):
            raise IdentityError(f"refusing to build a path from {part!r}")
    path = Path(base).joinpath(*parts)
    root = Path(base).resolve()
    try:
        path.resolve().relative_to(root)
    except ValueError:
        raise IdentityError(f"refusing to write {path}: it would leave the folder {base}",
                            hint="a symbolic link inside the output folder points outside it"
                            ) from None
    return path
