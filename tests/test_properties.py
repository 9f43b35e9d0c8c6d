"""Property-based tests (Hypothesis) of the shared input handling: text decoding, names, paths,
order lines. Each game's own parsers and position readers have theirs in its test folder."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.engine.identity import (FORBIDDEN_IN_NAMES, MAX_NAME, RESERVED_SLUGS,
                                       IdentityError, check_player_name, inside)
from companion.engine.names import slugify
from companion.engine.orders import order_lines
from companion.errors import CompanionError
from companion.service import decode_text, is_withdrawal

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(st.binary(max_size=400))
@example(b" %PDF-1.4 ...")
def test_any_bytes_decode_or_are_refused_with_their_place(raw):
    try:
        text = decode_text(raw, "f.txt")
    except CompanionError as exc:     # a PDF is refused whole, by the file's name
        assert re.match(r"f\.txt:\d+:\d+: ", exc.message) or (
            raw.lstrip()[:5] == b"%PDF-" and exc.message == "f.txt is a PDF, not a text file"), \
            exc.message
    else:
        assert isinstance(text, str) and "\0" not in text


@SETTINGS
@given(st.text(max_size=200), st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_text_in_every_accepted_encoding_reads_back(text, encoding):
    text = text.replace("\0", "")
    assert decode_text(text.encode(encoding), "f.txt") == (
        text[1:] if encoding == "utf-8" and text.startswith("\ufeff") else text)


@SETTINGS
@given(st.text(max_size=60))
def test_a_name_is_usable_or_refused_with_a_reason(name):
    try:
        check_player_name(name)
    except IdentityError as exc:
        assert exc.message
    else:
        slug = slugify(name)
        assert slug and slug not in RESERVED_SLUGS and len(name) <= MAX_NAME
        assert not any(ch in FORBIDDEN_IN_NAMES or ord(ch) < 32 for ch in name)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)


@SETTINGS
@given(st.lists(st.text(max_size=12), min_size=1, max_size=3))
def test_paths_built_from_any_parts_stay_inside(tmp_path_factory, parts):
    base = tmp_path_factory.mktemp("base")
    try:
        path = inside(base, *parts)
    except IdentityError:
        return
    assert path.resolve().is_relative_to(Path(base).resolve())


@SETTINGS
@given(st.text(max_size=300))
def test_order_lines_never_fail(text):
    lines = order_lines(text)
    assert all(line.tokens for line in lines)
    assert all(1 <= line.number <= text.count("\n") + len(text.splitlines()) + 1
               for line in lines)
    is_withdrawal(text)
