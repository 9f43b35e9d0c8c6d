"""Property-based tests of reading incoming mail (Hypothesis): any bytes, and every real-world
shape of tests/mail/corpus.py damaged at random (bytes flipped, header lines dropped or
duplicated, charsets and transfer encodings changed to odd or unknown ones, the message cut
short), are read into a sender, a subject and a body text without an exception, and the body's
orders are cleaned without one either: a moderator's mail run must answer every message, not
stop on one."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.mail.parse import clean_orders, parse_message, without_code_line

from tests.mail import corpus

EXAMPLES = int(os.environ.get("COMPANION_PROPERTY_EXAMPLES", "100"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SHAPES = [raw for raw, _ in corpus.shapes("Anna <anna@example.org>", "ABCDE-FGHIJ-KLMN2")
          .values()] + list(corpus.broken().values())
CHARSETS = [b"utf-8", b"UTF-8", b"iso-8859-1", b"windows-1252", b"utf-16", b"utf-7", b"koi8-r",
            b"x-unknown", b"", b"\"", b"utf-8\"; x=\"", b"ascii", b"gb2312", b"shift_jis",
            b"cp1252'en'", b"utf-32"]
ENCODINGS = [b"base64", b"quoted-printable", b"7bit", b"8bit", b"binary", b"x-uuencode",
             b"BASE64", b"nonsense", b""]


def read(raw: bytes) -> None:
    parsed = parse_message(raw)
    assert isinstance(parsed.body, str) and isinstance(parsed.subject, str)
    assert parsed.message_id
    clean_orders(without_code_line(parsed.body))


@SETTINGS
@given(raw=st.binary(max_size=2000))
def test_any_bytes_are_read_without_an_exception(raw):
    read(raw)


def damage(data, raw: bytes) -> bytes:
    how = data.draw(st.sampled_from(["flip", "drop", "duplicate", "charset", "encoding", "cut",
                                     "insert"]), label="damage")
    lines = raw.split(b"\n")
    i = data.draw(st.integers(0, max(0, len(lines) - 1)), label="line")
    if how == "flip" and raw:
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        return raw[:at] + bytes([data.draw(st.integers(0, 255), label="byte")]) + raw[at + 1:]
    if how == "drop":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "charset":
        new = data.draw(st.sampled_from(CHARSETS), label="charset")
        lines = [line.replace(b"utf-8", new).replace(b"UTF-8", new) for line in lines]
    elif how == "encoding":
        new = data.draw(st.sampled_from(ENCODINGS), label="encoding")
        for old in (b"base64", b"quoted-printable", b"7bit", b"8bit"):
            lines = [line.replace(old, new) for line in lines]
    elif how == "cut":
        return raw[:data.draw(st.integers(0, len(raw)), label="cut")]
    else:
        lines.insert(i, data.draw(st.binary(max_size=80), label="inserted"))
    return b"\n".join(lines)


@SETTINGS
@given(data=st.data())
def test_damaged_real_world_messages_are_read_without_an_exception(data):
    raw = data.draw(st.sampled_from(SHAPES), label="shape")
    for _ in range(data.draw(st.integers(1, 4), label="damages")):
        raw = damage(data, raw)
    read(raw)
