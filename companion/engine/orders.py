"""Order texts: what every game's order grammar shares.

A player's orders are plain text, one order per line. ``#`` starts a comment; lines quoted from
an earlier email (starting with ``>``) are ignored, and so is everything after a signature line
(``-- ``). Keywords are case-insensitive; names match ignoring case and accents, and an
unambiguous prefix is accepted (see :mod:`companion.engine.names`).

Errors are of distinct kinds (a syntax error, an unknown name, an ambiguous name, an illegal
order), each located as ``FILE:LINE:COL`` with the offending text and, where possible, a
suggestion. Orders count as submitted only when a file has no error at all.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import field
from typing import Any, Callable, Collection, Iterable, Sequence

from companion.engine.names import Match, fold, match_name
from companion.engine.record import record
from companion.errors import CompanionError


@record(frozen=True)
class Token:
    text: str          # as typed (quotes and invisible format characters left out)
    col: int           # 1-based column of the token's first character
    kind: str          # 'word', 'number', 'quoted' or 'punct'
    width: int = 0     # characters of the line it takes (0: as many as text, with quotes)

    @property
    def key(self) -> str:
        return fold(self.text)

    @property
    def end(self) -> int:
        """The column just after the token in its line."""
        if self.width:
            return self.col + self.width
        return self.col + len(self.text) + (2 if self.kind == "quoted" else 0)


@record
class Line:
    number: int        # 1-based line number in the file
    raw: str           # the whole line as written
    tokens: list[Token]

    @property
    def text(self) -> str:
        return self.raw.rstrip("\r\n")


class OrderError(CompanionError):
    """One located problem in an order file."""

    kind = "error"

    def __init__(self, message: str, line: Line | None = None, col: int | None = None,
                 length: int = 1, *, suggestion: str | None = None):
        super().__init__(message)
        self.line = line
        self.col = col
        self.length = max(1, length)
        self.suggestion = suggestion
        self.filename = "<orders>"

    def format(self) -> str:
        where = self.filename
        if self.line is not None:
            where += f":{self.line.number}"
            if self.col is not None:
                where += f":{self.col}"
        text = f"{where}: {self.kind}: {self.message}"
        if self.line is not None:
            text += f"\n    {visible(self.line.text)}"
            if self.col is not None:
                before = len(visible(self.line.text[:self.col - 1]))
                text += "\n    " + " " * before + "^" * self.length
        if self.suggestion:
            text += f"\n  {self.suggestion}"
        return text

    def render(self) -> str:
        return self.format()


class OrderSyntaxError(OrderError):
    kind = "syntax error"


class UnknownNameError(OrderError):
    kind = "unknown name"


class AmbiguousNameError(OrderError):
    kind = "ambiguous name"


class IllegalOrderError(OrderError):
    kind = "illegal order"


MAX_ORDER_CHARS = 20_000
"""The longest order text taken from a player by mail or on the web page (characters): far
beyond any game's orders, short of a pasted book."""


class OrdersRejected(CompanionError):
    """An order file with one or more errors; nothing from it is applied."""

    def __init__(self, errors: Sequence[OrderError], filename: str, partial=None):
        for error in errors:
            error.filename = filename
        self.errors = sorted(errors, key=lambda e: (e.line.number if e.line else 0, e.col or 0))
        self.filename = filename
        self.partial = partial      # what parsed, so legality can still be checked
        count = len(self.errors)
        super().__init__(f"{count} error{'s' if count != 1 else ''} in {filename}; "
                         "no orders were accepted")

    def render(self, limit: int | None = None) -> str:
        """Every error, one per line, and the summary; with ``limit``, the first ``limit``
        errors and how many more there are (a reply by mail stays readable)."""
        shown = self.errors if limit is None else self.errors[:limit]
        more = len(self.errors) - len(shown)
        tail = (f"\n... and {more} more error{'s' if more != 1 else ''} after line "
                f"{shown[-1].line.number if shown and shown[-1].line else 1}"
                if more else "")
        return "\n".join(e.format() for e in shown) + tail + f"\n{self.message}"


_TOKEN = re.compile(r'"(?P<q>[^"]*)"|(?P<n>\d+)(?![\w])|(?P<p>[+,;=:()])'
                    r'|(?P<w>[^\s\u200b"+,;=:()]+)')
"""Words are separated by white space, including a zero-width space (U+200B: some mail
clients and web pages put one between words); other invisible characters inside a word
(a soft hyphen, a word joiner) are ignored when it is matched (``names.fold``)."""


def tokenize(text: str) -> list[Token]:
    """The tokens of a line, each at the column where it starts; a word's or a quoted name's
    invisible format characters are left out of its text."""
    tokens = []
    for m in _TOKEN.finditer(text):
        col = m.start() + 1
        if m.group("q") is not None:
            tokens.append(_cleaned(m, "q", col, "quoted"))
        elif m.group("n") is not None:
            tokens.append(Token(m.group("n"), col, "number"))
        elif m.group("p") is not None:
            tokens.append(Token(m.group("p"), col, "punct"))
        else:
            token = _cleaned(m, "w", col, "word")
            if token.text:          # a word of invisible characters only is no word
                tokens.append(token)
    return tokens


def _cleaned(m: re.Match, group: str, col: int, kind: str) -> Token:
    typed = m.group(group)
    text = without_format(typed)
    if text == typed:
        return Token(text, col, kind)
    return Token(text, col, kind, width=m.end() - m.start())


def without_format(text: str) -> str:
    """``text`` without invisible format characters (soft hyphens, word joiners, zero-width
    joiners, direction marks); a zero-width space becomes a space."""
    if text.isascii():
        return text
    return "".join(" " if ch == "\u200b" else ch for ch in text if not _is_format(ch)
                   or ch == "\u200b")


def visible(text: str) -> str:
    """A line as it can be shown under an error: a tab as one space, every other control
    character as U+FFFD, invisible format characters (soft hyphens, zero-width spaces) left
    out; the caret below is placed by the visible text before its column."""
    return "".join(" " if ch == "\t" else "\ufffd" if _is_control(ch) else ch
                   for ch in text if not _is_format(ch))


def _is_format(ch: str) -> bool:
    return ch >= "\xad" and unicodedata.category(ch) == "Cf"


def _is_control(ch: str) -> bool:
    return (ch < " " and ch not in "\t\r\n") or "\x7f" <= ch <= "\x9f"


def control_characters(text: str) -> list[OrderSyntaxError]:
    """One error per line holding control characters (pasted from a PDF or a word processor,
    or a damaged file), at the first such character, naming it."""
    errors = []
    for number, raw in enumerate(text.splitlines(), start=1):
        found = [i for i, ch in enumerate(raw) if _is_control(ch)]
        if found:
            first = raw[found[0]]
            more = f" (and {len(found) - 1} more on this line)" if len(found) > 1 else ""
            errors.append(OrderSyntaxError(
                f"control character U+{ord(first):04X} in the orders{more}",
                Line(number, raw, []), found[0] + 1,
                suggestion="retype the line or delete the invisible character; it often comes "
                           "from copying text out of a PDF or a word processor"))
    return errors


def order_lines(text: str) -> list[Line]:
    """The meaningful lines of an order text, comments, quoted email text and signature removed."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.rstrip("\r\n") in ("-- ", "--"):
            break
        if raw.lstrip().startswith(">"):
            continue
        content = _strip_comment(raw)
        tokens = tokenize(content)
        if tokens:
            lines.append(Line(number, raw, tokens))
    return lines


CURLY_QUOTES = "\u201c\u201d\u201e\u201f"
"""The double quotes a phone's keyboard or a word processor puts in for '"' (autocorrect)."""
END_PUNCTUATION = ".!?\u2026,;"
PLEASE = ("please", "pls", "plz")


def forgiving(line: Line) -> Line | None:
    """A second reading of an order line, for a game whose grammar refused the line as typed:
    curly double quotes read as straight ones (on a line without straight ones), sentence
    punctuation after the line's last word left out ('Draw.', 'at Bert!'), and a 'please' at
    the start or the end of the line too ('draw please', 'please play ...'). None when this
    reading is the line as typed. A game tries it only after the line as typed failed, so a
    line that was ever accepted keeps its meaning; the comment is left as it was."""
    content = _strip_comment(line.raw)
    rest = line.raw[len(content):]
    if '"' not in content and any(q in content for q in CURLY_QUOTES):
        content = content.translate({ord(q): '"' for q in CURLY_QUOTES})
    tokens = tokenize(content)
    changed = True
    while changed and tokens:
        changed = False
        last = tokens[-1]
        if last.kind in ("word", "punct") and not last.width:
            text = last.text.rstrip(END_PUNCTUATION)
            if text != last.text:
                tokens[-1:] = [Token(text, last.col, last.kind)] if text else []
                changed = True
                continue
        if last.kind == "word" and last.key in PLEASE and len(tokens) > 1:
            tokens.pop()
            changed = True
    if len(tokens) > 1 and tokens[0].kind == "word" and tokens[0].key in PLEASE:
        tokens.pop(0)
        if len(tokens) > 1 and tokens[0].kind == "punct" and tokens[0].text == ",":
            tokens.pop(0)
    raw = content + rest
    if not tokens or (raw == line.raw and tokens == line.tokens):
        return None
    return Line(line.number, raw, tokens)


def read_line(line: Line, read: Callable[[Line], Any],
              again: Callable[[Line], Line | None] | None = None,
              further: bool = False) -> tuple[Any, Line]:
    """``read(line)``, and when it refuses the line as typed, ``read`` of its second reading
    (``again``, by default :func:`forgiving`): (what ``read`` gave, the line it read). A line
    accepted as typed is never read the second way, so it keeps its meaning. When both fail,
    the second reading's error is raised for the line as typed (the columns are the same);
    with ``further``, only if it got further along the line than the first. ``read`` must
    change nothing when it raises."""
    try:
        return read(line), line
    except OrderError as error:
        first = error
        second = (again or forgiving)(line)
        if second is None:
            raise
    try:
        return read(second), second
    except OrderError as error:
        if further and (error.col or 0) <= (first.col or 0):
            raise first from None
        error.line = line
        raise


def next_order_hint(tokens: Sequence[Token], at: int, keywords: Collection[str]) -> str | None:
    """A suggestion for text found after a complete order: when it is a second order joined on
    ('draw, draw', 'move 1a and play Bors', 'play X; draw', 'play X then draw'), say that each
    order goes on a line of its own."""
    j = at
    while j < len(tokens) and (tokens[j].kind == "punct" and tokens[j].text in ",;"
                               or tokens[j].kind == "word" and tokens[j].key in ("and", "then")):
        j += 1
    if j > at and j < len(tokens) and tokens[j].kind == "word" and tokens[j].key in keywords:
        return f"one order per line: put '{tokens[j].text} ...' on a line of its own"
    return None


def _strip_comment(raw: str) -> str:
    inside = False
    for i, ch in enumerate(raw):
        if ch == '"':
            inside = not inside
        elif ch == "#" and not inside:
            return raw[:i]
    return raw


class Cursor:
    """Walks the tokens of one line for a small recursive-descent order grammar."""

    def __init__(self, line: Line):
        self.line = line
        self.tokens = line.tokens
        self.i = 0

    def peek(self, offset: int = 0) -> Token | None:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    def next(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def at_keyword(self, *words: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "word" and token.key in words

    def accept(self, *words: str) -> Token | None:
        if self.at_keyword(*words):
            return self.next()
        return None

    def expect(self, word: str, after: str) -> Token:
        token = self.peek()
        if token is not None and token.kind == "word" and token.key == word:
            return self.next()
        raise self.syntax(f"expected '{word}' {after}", token)

    def end_col(self) -> int:
        return len(self.line.text.rstrip()) + 1

    def syntax(self, message: str, token: Token | None = None, *,
               suggestion: str | None = None) -> OrderSyntaxError:
        if token is None:
            return OrderSyntaxError(message + " (the line ends here)", self.line, self.end_col(), 1,
                                    suggestion=suggestion)
        return OrderSyntaxError(f"{message}, found '{token.text}'", self.line, token.col,
                                token.end - token.col, suggestion=suggestion)

    def span_until(self, stop_words: Iterable[str], what: str) -> list[Token]:
        """The tokens of a name: a quoted token, or words up to a stop keyword or the line's end."""
        stops = set(stop_words)
        token = self.peek()
        if token is None:
            raise self.syntax(f"expected {what}")
        if token.kind == "quoted":
            return [self.next()]
        span = []
        while not self.at_end():
            token = self.peek()
            if token.kind == "punct" or (token.kind == "word" and token.key in stops):
                break
            span.append(self.next())
        if not span:
            raise self.syntax(f"expected {what}", self.peek())
        return span

    def number(self, what: str) -> int:
        token = self.peek()
        if token is None or token.kind != "number":
            raise self.syntax(f"expected {what} (a whole number)", token)
        if len(token.text) > 6 or not token.text.isascii():
            raise self.syntax(f"{token.text[:12]} is far too large for {what} (or not written "
                              "with the digits 0-9)", token)
        self.next()
        return int(token.text)

    def finish(self) -> None:
        if not self.at_end():
            token = self.peek()
            raise self.syntax("unexpected text at the end of the order", token)


def span_text(span: Sequence[Token]) -> str:
    return " ".join(t.text for t in span)


LISTED_AT_MOST = 12      # an error lists the known names only when there are this few


def resolve_name(line: Line, span: Sequence[Token], known: Sequence[str], what: str,
                 aliases: dict[str, str] | None = None, *,
                 prefer: Collection[str] = ()) -> str:
    """Match a name span against ``known``; raise an unknown- or ambiguous-name error.
    ``prefer``: the names the player has before him (his hand, what he was dealt); a beginning
    that fits several known names but only one of these means that one ('hand limit' with only
    Hand Limit 2 in hand)."""
    typed = span_text(span)
    col = span[0].col
    length = span[-1].end - col
    found: Match = match_name(typed, known, aliases)
    if found.ok:
        return found.name
    if found.ambiguous:
        mine = [name for name in found.candidates if name in prefer]
        if len(mine) == 1:
            return mine[0]
        raise AmbiguousNameError(
            f"'{typed}' could be any of: {', '.join(mine or found.candidates)}", line, col,
            length, suggestion="type more of the name to say which one")
    suggestion = None
    if found.suggestions:
        suggestion = "did you mean " + " or ".join(f"'{s}'" for s in found.suggestions) + "?"
    elif len(known) <= LISTED_AT_MOST:
        suggestion = f"known {what}s: {', '.join(known)}"
    else:
        suggestion = (f"no {what} of the {len(known)} begins with it or looks like it; your "
                      "report lists the names")
    raise UnknownNameError(f"no {what} called '{typed}'", line, col, length, suggestion=suggestion)


def unknown_keyword(line: Line, token: Token, keywords: Sequence[str]) -> OrderSyntaxError:
    close = difflib.get_close_matches(token.key, list(keywords), n=1, cutoff=0.6)
    suggestion = f"did you mean '{close[0]}'?" if close else (
        "orders start with one of: " + ", ".join(keywords))
    return OrderSyntaxError(f"unknown order '{token.text}'", line, token.col,
                            token.end - token.col, suggestion=suggestion)
