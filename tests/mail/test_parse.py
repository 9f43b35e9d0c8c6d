"""Reading real-world message shapes (tests/mail/corpus.py): each read correctly or refused
clearly, never a crash."""
from __future__ import annotations

import pytest

from companion.engine.orders import order_lines
from companion.mail.parse import (clean_orders, html_to_text, looks_like_message,
                                  orders_from_text, parse_message, without_code_line)

from tests.mail import corpus

CODE = "ABCDE-FGHIJ-KLMN2"
SHAPES = corpus.shapes("Anna <anna@example.org>", CODE)


def order_text(raw: bytes) -> list[str]:
    parsed = parse_message(raw)
    return [line.raw.split("#")[0].strip() for line in
            order_lines(without_code_line(parsed.body))]


@pytest.mark.parametrize("name", [n for n, (_, what) in SHAPES.items() if what == "orders"])
def test_every_shape_gives_the_orders(name):
    raw, _ = SHAPES[name]
    parsed = parse_message(raw)
    assert parsed.sender == "anna@example.org" and parsed.auto is None, parsed
    assert order_text(raw) == [corpus.ORDERS], (name, parsed.body)
    assert CODE in parsed.subject.upper() + parsed.first_line.upper()


@pytest.mark.parametrize("name", [n for n, (_, what) in SHAPES.items() if what == "ignored"])
def test_automatic_messages_are_recognised(name):
    assert parse_message(SHAPES[name][0]).auto


@pytest.mark.parametrize("name", sorted(corpus.broken()))
def test_broken_messages_never_crash(name):
    parsed = parse_message(corpus.broken()[name])
    assert isinstance(parsed.body, str) and parsed.message_id


def test_a_message_without_message_id_is_keyed_by_its_bytes():
    a = parse_message(b"From: a@example.org\nSubject: x\n\nhello\n")
    b = parse_message(b"From: a@example.org\nSubject: x\n\nhello!\n")
    assert a.message_id.startswith("<sha256:") and a.message_id != b.message_id


def test_html_is_turned_into_lines_and_quotes():
    text = html_to_text("<p>one</p><p>two<br>three</p><blockquote>old</blockquote>"
                        "<script>x()</script>&amp;")
    assert text.split("\n")[:4] == ["one", "two", "three", "> old"] and "x()" not in text


def test_quotes_answered_inline_keep_the_answers_and_their_line_numbers():
    text = "> the judge asked\nOn Fri, the Judge wrote:\n> question\nmove a\n"
    assert clean_orders(text).split("\n")[:4] == ["> the judge asked", "", "> question",
                                                  "move a"]


def test_orders_submit_reads_a_whole_saved_message():
    raw = SHAPES["quoted-printable"][0].decode()
    assert looks_like_message(raw)
    assert orders_from_text(raw).strip() == corpus.ORDERS
    bare = "assign 1 to Mansur Al-Jallah\nmove: somewhere\n"
    assert not looks_like_message(bare) and orders_from_text(bare) == bare


def test_a_pasted_body_loses_its_reply_header_and_phone_signature_but_keeps_line_numbers():
    """A body saved or pasted from a phone's mail ('orders check g p file'): the "On ...
    wrote:" line (even wrapped) with the quote below it and "Sent from my ..." are left out as
    from a fetched message; the other lines keep their numbers, and a body with none of them
    is returned byte for byte."""
    pasted = ("go to lincoln\r\n\r\nSent from my iPhone\r\n\r\nOn Sun, 29 Nov 2026 at 09:30, "
              "Judge\r\n<judge@example.org> wrote:\r\n> Knights of Camelot\r\n> stay\r\n")
    assert orders_from_text(pasted) == "go to lincoln\n"
    inline = "stay\nOn Sun, the Judge wrote:\n> what now?\npray for bert\n"
    assert orders_from_text(inline).split("\n")[:4] == ["stay", "", "> what now?",
                                                        "pray for bert"]
    plain = "move a  \r\n\r\non encounter monster: avoid\n"     # an 'on' order is no header
    assert orders_from_text(plain) == plain
