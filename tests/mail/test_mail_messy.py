"""What real, messy mail did to a game played by mail (found by playing whole games with
players who forward, attach Notepad files and sign their mail, and a moderator who signs
theirs): each reduced to its smallest case. Maildir and outbox only (no server)."""
from __future__ import annotations

from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from companion.mail.parse import parse_message
from tests.mail import corpus
from tests.mail.conftest import body
from tests.mail.helpers import new_game, rows

ORDERS = corpus.ORDERS


def test_orders_forwarded_whole_are_read_from_the_forwarded_message(world):
    """A player who mailed their orders to a wrong address forwards that mail on, writing
    nothing above it: the forwarded message is what was sent (Gmail's and Apple Mail's
    markers), its header lines left out. Text written above the marker still ends the
    orders there, as before."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"Fwd: orders {code}",
               "---------- Forwarded message ---------\n"
               f"From: Anna <{who['Anna']}>\nDate: Fri, 1 Jan 2027 at 09:00\n"
               f"Subject: orders {code}\nTo: <judge@exmaple.org>\n\n{ORDERS}\n")
    world.run()
    reply = world.to(who["Anna"])[-1]
    assert "orders accepted" in reply["Subject"], body(reply)
    assert "Mansur" in body(reply)
    world.send(who["Anna"], f"Fwd: orders {code}",
               f"\nBegin forwarded message:\n\nFrom: Anna <{who['Anna']}>\n"
               f"Subject: orders {code}\n  (wrapped)\nTo: judge@exmaple.org\n\n{ORDERS}\n")
    world.run()
    assert "replaced your earlier orders" in body(world.to(who["Anna"])[-1])
    [(text,)] = rows(world, "SELECT text FROM submissions WHERE status='pending'")
    assert text.strip() == ORDERS and text.count("\n") == 9      # line numbers kept


def test_text_above_a_forwarded_message_is_what_was_sent():
    raw = (b"From: a@x.org\nSubject: x\n\n" + ORDERS.encode() +
           b"\n\n---------- Forwarded message ---------\nFrom: b@x.org\n\nassign 9 to Nobody\n")
    assert parse_message(raw).body == ORDERS + "\n"


def anna_mails(world, subtype: str, message_id: str) -> MIMEMultipart:
    """A new Gral game of Anna and Bert, and the head of a multipart message from Anna with
    her orders' subject, its parts to be attached."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    msg = MIMEMultipart(subtype)
    msg["From"] = who["Anna"]
    msg["To"] = "judge@example.org"
    msg["Subject"] = f"orders {world.code(who['Anna'])}"
    msg["Message-ID"] = f"<{message_id}@players.example.org>"
    return msg


def assert_accepted(world, msg) -> None:
    world.deliver(msg.as_bytes())
    world.run()
    reply = world.to(msg["From"])[-1]
    assert "orders accepted" in reply["Subject"], body(reply)


def test_a_notepad_unicode_attachment_is_read_by_its_byte_order_mark(world):
    """Windows Notepad's "Unicode" is UTF-16 with a byte-order mark; attached as an octet
    stream (no character set) it was read as Latin-1 garbage."""
    msg = anna_mails(world, "mixed", "notepad")
    msg.attach(MIMEText("My orders are attached.\n"))
    part = MIMEApplication((ORDERS + "\r\n").encode("utf-16"), "octet-stream")
    part.add_header("Content-Disposition", "attachment", filename="orders.txt")
    msg.attach(part)
    assert_accepted(world, msg)


def test_the_moderators_greeting_sign_off_and_signature_are_no_commands(world):
    """A moderator's mail read every line as a command: 'Hi all,', 'Thanks!' and each line of
    the signature got an error, and a signature line starting with a command word ('Run
    by ...', 'Hold ...') was tried as one. Now the reading stops at '-- ', and a greeting and
    a sign-off are named as set aside."""
    new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    world.send("mod@example.org", "moderator-secret-42",
               "Hi all,\nextend g1 24h\nhold g1\nThanks!\n-- \nRun by the moderator\n"
               "hold g1\nrelease g1\n")
    world.run()
    answer = body(world.to("mod@example.org")[-1])
    assert "unknown command" not in answer and "no game" not in answer, answer
    assert "ignored the greeting 'Hi all,' (line 1)" in answer
    assert "ignored the sign-off 'Thanks!' (line 4)" in answer
    assert "g1: deadline extended to" in answer and "g1: held" in answer
    assert "released" not in answer                 # the signature's lines are not run
    [(held,)] = rows(world, "SELECT held FROM mail_games WHERE game_id='g1'")
    assert held


def test_an_empty_plain_part_beside_the_html_one_is_no_empty_message(world):
    """Some phone and web mail programs send multipart/alternative with an empty text/plain
    part and the real text in the HTML part: it was read as an empty order file."""
    msg = anna_mails(world, "alternative", "empty-plain")
    msg.attach(MIMEText("\n", "plain", "utf-8"))
    msg.attach(MIMEText(f"<div dir=ltr>{ORDERS}</div>", "html", "utf-8"))
    assert_accepted(world, msg)


def test_a_line_that_is_only_the_code_is_never_read_as_an_order(world):
    """The code under a greeting ('Hi judge,' then the code) or at the end ('My code: ...')
    was read as an order line and refused the orders; only a code on the first line was
    left out."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], "my orders", f"Hi judge,\n\n{code}\n{ORDERS}\n")
    world.run()
    reply = body(world.to(who["Anna"])[-1])
    assert "accepted (submission 1)" in reply and "ignored the greeting 'Hi judge,'" in reply
    world.send(who["Anna"], f"orders {code}", f"{ORDERS}\n\nMy code: {code}\n")
    world.run()
    assert "replaced your earlier orders (submission 2)" in body(world.to(who["Anna"])[-1])
    # a code inside an order line is no code line: it is refused with its place, as before
    world.send(who["Anna"], f"orders {code}", f"{ORDERS}\nassign 2 to {code}\n")
    world.run()
    assert "NOT accepted" in body(world.to(who["Anna"])[-1])
    assert rows(world, "SELECT COUNT(*) FROM submissions") == [(2,)]


def test_order_lines_starting_with_on_are_no_part_of_the_attribution_under_them():
    """Mayhem's standing orders start with 'on' ('on reveal: apply'): an attribution line
    ("On Fri, ... wrote:") under them was joined with them as one wrapped attribution, and
    the orders above it (all of them, when two were) were cut off with the quote: silently
    lost, or 'the order file is empty'."""
    orders = "on reveal: apply\non retreat: home\n"
    quote = "> Game m1, turn 3: the report of Anna.\n> Your code for orders by mail: X\n"
    for attribution in ("On Fri, The Judge wrote:\n", "\nOn Fri, The Judge wrote:\n",
                        "On Fri, 1 Jan 2027 at 10:00, The Judge <judge@example.org>\nwrote:\n"):
        raw = (b"From: anna@x.org\nSubject: Re: report\n\n" +
               (orders + attribution + quote).encode())
        assert parse_message(raw).body == orders, attribution
    # an attribution wrapped over two lines (a line starting 'On' is no order) still goes
    raw = (b"From: anna@x.org\nSubject: Re\n\npass\nOn Fri, 1 Jan 2027 at 10:00, The Judge\n"
           b"<judge@example.org> wrote:\n" + quote.encode())
    assert parse_message(raw).body == "pass\n"


def test_the_original_under_plain_reply_headers_is_the_mail_answered(world):
    """Outlook on the web and on phones writes the mail answered under "From:", "Sent:",
    "To:", "Subject:" lines without a separator line above them: the report under them was
    read as orders, and every line of it refused."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    report = world.to(who["Anna"])[-1]
    world.send(who["Anna"], f"RE: {report['Subject']}",
               f"{ORDERS}\n\nFrom: The Judge <judge@example.org>\n"
               f"Sent: Friday, January 1, 2027 10:00 AM\nTo: {who['Anna']}\n"
               f"Subject: {report['Subject']}\n\n{body(report)}")
    world.run()
    reply = world.to(who["Anna"])[-1]
    assert "orders accepted" in reply["Subject"], body(reply)[:2000]
