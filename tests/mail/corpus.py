"""Real-world message shapes, each as raw bytes with what companion must read from it.
ORDERS stands for the order lines; CODE for the sender's code (filled in by the test)."""
from __future__ import annotations

import base64
import quopri
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

ORDERS = "assign 1 to Mansur Al-Jallah"


def _headers(msg, sender: str, subject: str, mid: str) -> None:
    msg["From"] = sender
    msg["To"] = "judge@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = mid
    msg["Date"] = "Fri, 01 Jan 2027 10:00:00 +0100"


def shapes(sender: str, code: str) -> dict[str, tuple[bytes, str]]:
    """name -> (raw message, what is expected: 'orders' (read as ORDERS), 'ignored' (an
    automatic message, no reply), 'rejected' (read, and the reply lists errors))."""
    out: dict[str, tuple[bytes, str]] = {}
    subject = f"Orders {code}"
    n = iter(range(1000))

    def mid() -> str:
        return f"<shape{next(n)}@client.example.org>"

    # multipart/alternative: text and HTML
    m = MIMEMultipart("alternative")
    _headers(m, sender, subject, mid())
    m.attach(MIMEText(ORDERS + "\n", "plain", "utf-8"))
    m.attach(MIMEText(f"<html><body><p>{ORDERS}</p></body></html>", "html", "utf-8"))
    out["multipart/alternative"] = (m.as_bytes(), "orders")

    # HTML only, with a quoted earlier report in a blockquote and a style block
    m = MIMEText("<html><head><style>p {color: red}</style></head><body>"
                 f"<div>{ORDERS.replace(' ', '&nbsp;', 1)}</div><br>"
                 "<div>On Fri, the judge wrote:</div><blockquote>Game g1, turn 0<br>"
                 "move foo</blockquote></body></html>", "html", "utf-8")
    _headers(m, sender, subject, mid())
    out["html only"] = (m.as_bytes(), "orders")

    # quoted-printable with a soft line break in the middle of the order
    encoded = quopri.encodestring((ORDERS + "\n").encode()).decode()
    encoded = encoded.replace("Mansur", "Man=\nsur")
    raw = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {mid()}\n"
           "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
           f"Content-Transfer-Encoding: quoted-printable\n\n{encoded}")
    out["quoted-printable"] = (raw.encode(), "orders")

    # base64
    raw = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {mid()}\n"
           "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
           "Content-Transfer-Encoding: base64\n\n"
           + base64.encodebytes((ORDERS + "\n# grüße\n").encode()).decode())
    out["base64"] = (raw.encode(), "orders")

    # UTF-8 8bit with accents in a comment and the name
    raw = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {mid()}\n"
           "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
           "Content-Transfer-Encoding: 8bit\n\n"
           "assign 1 to Mansur Al-Jallah  # für Jérôme\n")
    out["utf-8"] = (raw.encode("utf-8"), "orders")

    # Latin-1
    raw = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {mid()}\n"
           "MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n"
           "Content-Transfer-Encoding: 8bit\n\n"
           "# Grüße aus Köln\nassign 1 to Mansur Al-Jallah\n")
    out["latin-1"] = (raw.encode("latin-1"), "orders")

    # a header encoded word in the subject (RFC 2047), the code inside it
    m = EmailMessage()
    _headers(m, sender, f"Befehle für Zug 1 {code}", mid())
    m.set_content(ORDERS + "\n")
    out["encoded subject"] = (m.as_bytes(), "orders")

    # top-posted reply quoting the earlier report, wrapped attribution (Gmail)
    m = EmailMessage()
    _headers(m, sender, f"Re: [g1] turn 0 report {code}", mid())
    m.set_content(ORDERS + "\n\nOn Fri, 1 Jan 2027 at 10:00, The Judge <judge@example.org>\n"
                  "wrote:\n> Game g1, turn 0: the report\n> move nowhere\n")
    out["top-posted reply"] = (m.as_bytes(), "orders")

    # signature and mobile footer
    m = EmailMessage()
    _headers(m, sender, subject, mid())
    m.set_content(ORDERS + "\n\nSent from my phone\n-- \nAnna Example\nmove to the moon\n")
    out["signature"] = (m.as_bytes(), "orders")

    # Outlook: unquoted original below a separator
    m = EmailMessage()
    _headers(m, sender, f"AW: {code}", mid())
    m.set_content(ORDERS + "\n\n-----Original Message-----\nFrom: The Judge\nSent: Friday\n"
                  "Subject: [g1] turn 0 report\n\nmove to the moon\n")
    out["outlook original message"] = (m.as_bytes(), "orders")
    m = EmailMessage()
    _headers(m, sender, f"RE: {code}", mid())
    m.set_content(ORDERS + "\n\n________________________________\nFrom: The Judge\n"
                  "move to the moon\n")
    out["outlook underscores"] = (m.as_bytes(), "orders")

    # orders in a text attachment; a body holding only a greeting
    m = EmailMessage()
    _headers(m, sender, subject, mid())
    m.set_content("Hi, my orders are attached.\n")
    m.add_attachment((ORDERS + "\n").encode(), maintype="text", subtype="plain",
                     filename="orders.txt")
    out["attachment"] = (m.as_bytes(), "orders")

    # the code on the first line of the body instead of the subject
    m = EmailMessage()
    _headers(m, sender, "my orders", mid())
    m.set_content(f"{code}\n{ORDERS}\n")
    out["code on the first line"] = (m.as_bytes(), "orders")

    # an unknown character set: read as UTF-8, orders still understood
    raw = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: {mid()}\n"
           "MIME-Version: 1.0\nContent-Type: text/plain; charset=x-unknown-42\n\n"
           f"{ORDERS}\n")
    out["unknown charset"] = (raw.encode(), "orders")

    # a typo: read, and the reply gives the line and column
    m = EmailMessage()
    _headers(m, sender, subject, mid())
    m.set_content("assign 1 to Mansur Al-Jallah\nasign 2 to Mansur Al-Jallah\n")
    out["typo"] = (m.as_bytes(), "rejected")

    # auto-replies and bounces: no reply, listed for review
    m = EmailMessage()
    _headers(m, sender, "Automatic reply: Orders", mid())
    m["Auto-Submitted"] = "auto-replied"
    m.set_content("I am out of the office until Monday.\n")
    out["auto-reply"] = (m.as_bytes(), "ignored")
    m = EmailMessage()
    _headers(m, sender, "Out of Office: " + subject, mid())
    m.set_content("Away.\n")
    out["out of office subject"] = (m.as_bytes(), "ignored")
    bounce = (f"From: MAILER-DAEMON@mx.example.org\nTo: {sender}\nSubject: Undelivered Mail "
              f"Returned to Sender\nMessage-ID: {mid()}\nMIME-Version: 1.0\n"
              "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\n\n"
              "--b1\nContent-Type: text/plain\n\nYour message could not be delivered.\n"
              "--b1\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx\n\n"
              "Final-Recipient: rfc822; judge@example.org\nAction: failed\n--b1--\n")
    out["bounce"] = (bounce.encode(), "ignored")
    return out


def broken() -> dict[str, bytes]:
    """Damaged or hostile messages: each handled without a crash."""
    return {
        "no headers at all": b"just some text\n",
        "empty": b"",
        "binary garbage": bytes(range(256)) * 4,
        "bad base64": b"From: a@example.org\nSubject: x\nContent-Transfer-Encoding: base64\n"
                      b"Content-Type: text/plain\n\n!!!notbase64***\n",
        "broken multipart": b"From: a@example.org\nSubject: x\nMIME-Version: 1.0\n"
                            b"Content-Type: multipart/mixed; boundary=\"zz\"\n\n--zz\n"
                            b"Content-Type: text/plain\n\nhello\n",
        "bad from": b"From: <<<@@@>>>\nSubject: x\n\nhello\n",
        "huge header": b"From: a@example.org\nSubject: " + b"x" * 100000 + b"\n\nhello\n",
    }
