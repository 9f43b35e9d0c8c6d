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
    orders_above_the_report_are_accepted(
        world, "RE:", "From: The Judge <judge@example.org>\n"
        "Sent: Friday, January 1, 2027 10:00 AM\nTo: {to}\nSubject: {subject}\n")


def orders_above_the_report_are_accepted(world, prefix: str, headers: str) -> None:
    """Anna answers her turn-0 report with her orders above it, the report quoted whole under
    ``headers`` (with {to} and {subject} filled in): the orders are accepted."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    report = world.to(who["Anna"])[-1]
    world.send(who["Anna"], f"{prefix} {report['Subject']}",
               f"{ORDERS}\n\n" + headers.format(to=who["Anna"], subject=report["Subject"])
               + f"\n{body(report)}")
    world.run()
    reply = world.to(who["Anna"])[-1]
    assert "orders accepted" in reply["Subject"], body(reply)[:2000]


def latin_1_labelled(world, sender: str, code: str, text: str, mid: str) -> bytes:
    """A message as Outlook on Windows sends it: labelled iso-8859-1, written in
    Windows-1252, quoted-printable."""
    import quopri

    return (f"From: {sender}\nTo: judge@example.org\nSubject: orders {code}\n"
            f"Message-ID: <{mid}@players.example.org>\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=\"iso-8859-1\"\n"
            "Content-Transfer-Encoding: quoted-printable\n\n").encode() + \
        quopri.encodestring(text.encode("cp1252"))


def test_a_windows_mail_labelled_latin_1_keeps_its_curly_quotes_and_dashes(world):
    """Outlook labels its text iso-8859-1 and writes Windows-1252: a curly apostrophe (byte
    0x92) or a dash (0x96) was read as a control character, and the orders were refused for
    a comment ("control character U+0092"); a dash in 'Thanks - Anna' kept the sign-off from
    being set aside."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    text = f"Hi Judge \u2013\n# I\u2019ll take Mansur \u2013 he\u2019s fast\n{ORDERS}\n" \
           "Thanks \u2013 Anna\n"
    world.deliver(latin_1_labelled(world, who["Anna"], world.code(who["Anna"]), text, "win"))
    world.run()
    reply = body(world.to(who["Anna"])[-1])
    assert "accepted (submission 1)" in reply, reply
    assert "ignored the greeting 'Hi Judge \u2013'" in reply
    assert "ignored the sign-off 'Thanks \u2013 Anna'" in reply
    [(stored,)] = rows(world, "SELECT text FROM submissions")
    assert "# I\u2019ll take Mansur \u2013 he\u2019s fast" in stored
    # UTF-8 under a Latin-1 or ASCII label is read as UTF-8; Latin-1 proper as Latin-1
    for label, raw, read in (("iso-8859-1", "I\u2019ll".encode(), "I\u2019ll"),
                             ("us-ascii", "Grüße \u2013".encode(), "Grüße \u2013"),
                             ("us-ascii", "Grüße".encode(), "Grüße"),
                             ("us-ascii", "Grüße".encode("latin-1"), "Grüße"),
                             ("iso-8859-1", "Grüße".encode("latin-1"), "Grüße"),
                             ("iso-8859-1", b"x\x81\x92y", "x\x81\u2019y")):
        parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain; "
                               b"charset=" + label.encode() + b"\n\n" + raw + b"\n")
        assert parsed.body == read + "\n", (label, parsed.body)


def test_orders_attached_inline_as_apple_mail_sends_them_are_read(world):
    """Apple Mail marks an attached text file 'inline' (with its file name) and puts it
    after the body: the orders in it were passed over, and the body ('my orders are
    attached') refused as orders."""
    msg = anna_mails(world, "mixed", "apple")
    msg.attach(MIMEText("Here are my orders, attached.\n", "plain", "us-ascii"))
    part = MIMEText(ORDERS + "\n", "plain", "utf-8")
    part.add_header("Content-Disposition", "inline", filename="orders.txt")
    msg.attach(part)
    msg.attach(MIMEText("\nSent from my iPhone\n", "plain", "us-ascii"))
    assert_accepted(world, msg)
    # a single text part with a file name is the body itself, as before
    parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain\n"
                           b"Content-Disposition: inline; filename=\"orders.txt\"\n\n"
                           + ORDERS.encode() + b"\n")
    assert parsed.body == ORDERS + "\n"


def test_orders_in_the_body_beside_an_unrelated_text_attachment_are_read(world):
    """A text attachment holds the orders, but one with no line that reads as an order (a
    file attached by mistake) no longer wins over orders written into the mail: they were
    refused as "unknown order" lines of the attachment. The reply names the file passed
    over; an attachment that does hold orders still wins, and a body without orders beside
    an attachment without orders is refused with the attachment's lines, as before."""
    notes = "Shopping list\nmilk\nbread\n"
    head = anna_mails(world, "mixed", "first")

    def mail(text: str, attached: str, message_id: str):
        msg = MIMEMultipart("mixed")
        for name in ("From", "To", "Subject"):
            msg[name] = head[name]
        msg["Message-ID"] = f"<{message_id}@players.example.org>"
        msg.attach(MIMEText(text, "plain", "utf-8"))
        part = MIMEText(attached, "plain", "utf-8")
        part.add_header("Content-Disposition", "attachment", filename="notes.txt")
        msg.attach(part)
        world.deliver(msg.as_bytes())
        world.run()
        return body(world.to(msg["From"])[-1]), world.to(msg["From"])[-1]["Subject"]

    text, subject = mail(ORDERS + "\n", notes, "body")
    assert "orders accepted" in subject, text
    assert "'notes.txt', which holds no order" in text
    text, subject = mail("Hi, my orders are attached.\n", ORDERS + "\n", "attached")
    assert "orders accepted" in subject and "notes.txt" not in text, text
    text, subject = mail("Hello there\n", notes, "neither")
    assert "NOT accepted" in subject and "your attachment" in text, text


def test_auto_replies_in_other_languages_get_no_reply(world):
    """Out-of-office replies that carry no header saying so, in a player's own language
    ('Automatische Antwort:', 'Réponse automatique :'), each got a refusal: mail to the
    player's auto-responder, a notice to the moderator, and a day's refusals used up."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    subjects = ["Automatische Antwort: [g1] turn 0 report for Anna",
                "Réponse automatique : [g1] turn 0 report", "Respuesta automática: [g1]",
                "Risposta automatica: [g1]", "Automatisch antwoord: [g1]"]
    for subject in subjects:
        world.send(who["Anna"], subject, "I am away until Monday.\n")
    world.run()
    states = rows(world, "SELECT state FROM mail_in")
    assert states == [("ignored",)] * len(subjects)
    assert len(world.to(who["Anna"])) == 1 and world.to("mod@example.org") == []


def test_a_report_mailed_after_a_later_turn_ran_says_it_is_not_the_latest(world):
    """Two turns run from the command line before a pass mailed the first ('companion turn'
    typed twice): the first one's mail said 'Deadline: none (the turn runs when every
    awaited player has sent orders)', although that turn had already run."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    from companion import service

    store = world.store()
    try:
        for _ in range(2):                  # as 'companion turn g1' does
            service.run_turn(store, "g1", output=world.output)
    finally:
        store.close()
    world.run()
    [first] = [m for m in world.to(who["Anna"]) if "turn 1 report" in m["Subject"]]
    [second] = [m for m in world.to(who["Anna"]) if "turn 2 report" in m["Subject"]]
    head = body(first).split("-" * 72)[0]
    assert "Deadline" not in head, head
    assert "Turn 2 has already run: this report is not the latest (turn 2 is" in head
    assert "Deadline: none" in body(second).split("-" * 72)[0]


def test_a_thunderbird_mail_wrapped_as_format_flowed_is_read_as_typed(world):
    """Thunderbird and Apple Mail send format=flowed: a line longer than about 72 characters
    is wrapped, with a space at the end of each part. The second part of a long comment was
    read as an order line and the orders refused; a quoted line wrapped so stays a quote."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    raw = (f"From: {who['Anna']}\nTo: judge@example.org\nSubject: Re: orders {code}\n"
           "Message-ID: <flowed@players.example.org>\nMIME-Version: 1.0\n"
           "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
           "Content-Transfer-Encoding: 7bit\n\n"
           "# Mansur first: the others look weaker this round, and I would rather \n"
           f"keep my best for later.\n{ORDERS}\n\n"
           "On 01.01.27 10:00, The Judge wrote:\n> Game g1, turn 0: the report of Anna, \n"
           "> quoted whole.\n\n-- \nAnna\n")
    world.deliver(raw)
    world.run()
    reply = body(world.to(who["Anna"])[-1])
    assert "accepted (submission 1)" in reply, reply
    [(stored,)] = rows(world, "SELECT text FROM submissions")
    assert "# Mansur first: the others look weaker this round, and I would rather keep my " \
           "best for later.\n" in stored
    # delsp=yes: the space at the end is no part of the text; quote depths are not joined
    parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain; "
                           b"format=flowed; delsp=yes\n\n# one word spl \nit\n> a \n>> b\n"
                           + ORDERS.encode() + b"\n")
    assert parsed.body == "# one word split\n> a\n>> b\n" + ORDERS + "\n"


def test_orders_in_a_document_or_a_photo_are_said_not_to_be_read(world):
    """Orders attached as a Word document, a PDF or a photo were passed over in silence: the
    reply said 'the order file is empty', or refused the body ('my orders are attached'),
    and the player could not tell why the orders they had attached did not count."""
    msg = anna_mails(world, "mixed", "docx")
    msg.attach(MIMEText("", "plain"))
    part = MIMEApplication(b"PK\x03\x04 a document",
                           "vnd.openxmlformats-officedocument.wordprocessingml.document")
    part.add_header("Content-Disposition", "attachment", filename="orders.docx")
    msg.attach(part)
    photo = MIMEApplication(b"\xff\xd8\xff a photo", "octet-stream")
    photo.add_header("Content-Disposition", "attachment", filename="IMG_0042.jpg")
    msg.attach(photo)
    world.deliver(msg.as_bytes())
    world.run()
    reply = body(world.to(msg["From"])[-1])
    assert "NOT accepted" in reply and "the order file is empty" in reply
    assert "Not read: the attachments 'orders.docx', 'IMG_0042.jpg'. Orders are read from " \
           "the text of the mail, or from an attached plain-text file (.txt)" in reply, reply
    # orders accepted from the body: a file beside them is not mentioned
    msg2 = MIMEMultipart("mixed")
    for name in ("From", "To", "Subject"):
        msg2[name] = msg[name]
    msg2["Message-ID"] = "<docx-2@players.example.org>"
    msg2.attach(MIMEText(ORDERS + "\n"))
    msg2.attach(part)
    assert_accepted(world, msg2)
    assert "Not read" not in body(world.to(msg["From"])[-1])


def test_outlook_thunderbird_and_apple_mail_through_imap_and_smtp(world, dovecot, smtp_server):
    """The three shapes above as a real IMAP server (Dovecot, CRLF line ends) hands them
    over, answered through a real SMTP server: each player's orders accepted."""
    world.imap, world.smtp = dovecot, smtp_server
    world.write_config()
    who = new_game(world, "gral", "g1", ["Anna", "Bert", "Cora"])
    world.run()
    codes = {name: world.code(address) for name, address in who.items()}
    world.deliver(latin_1_labelled(world, who["Anna"], codes["Anna"],
                                   f"# I\u2019ll take Mansur\n{ORDERS}\nThanks \u2013 Anna\n",
                                   "outlook"))
    world.deliver((f"From: {who['Bert']}\nSubject: orders {codes['Bert']}\nMessage-ID: "
                   "<thunderbird@players.example.org>\nMIME-Version: 1.0\nContent-Type: "
                   "text/plain; charset=UTF-8; format=flowed\n\n# a comment long enough to "
                   f"be wrapped by the mail program \nat 72 characters\n{ORDERS}\n").encode())
    apple = MIMEMultipart("mixed")
    apple["From"], apple["Subject"] = who["Cora"], f"orders {codes['Cora']}"
    apple["Message-ID"] = "<apple@players.example.org>"
    apple.attach(MIMEText("My orders are attached.\n"))
    part = MIMEText(ORDERS + "\n", "plain", "utf-8")
    part.add_header("Content-Disposition", "inline", filename="orders.txt")
    apple.attach(part)
    world.deliver(apple.as_bytes())
    log = world.run()
    assert any("running turn 1" in line for line in log), log
    for address in who.values():
        assert any(m["Subject"] == "[g1] orders accepted" for m in world.to(address)), \
            [body(m) for m in world.to(address)]


def test_an_attribution_naming_the_writer_after_the_verb_is_no_order(world):
    """Gmail and Thunderbird in German write "Am ... schrieb The Judge <...>:" above the
    quote (the writer after the verb; Dutch, Swedish, Portuguese, Polish alike): the line
    was read as an order ('unknown order Am') and the orders under or above it refused."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"AW: orders {code}",
               f"{ORDERS}\n\nAm Fr., 1. Jan. 2027 um 10:00 Uhr schrieb The Judge <\n"
               "judge@example.org>:\n> Game g1, turn 0: the report of Anna.\n")
    world.run()
    reply = body(world.to(who["Anna"])[-1])
    assert "accepted (submission 1)" in reply, reply
    quote = "> Game g1\n> move x\n"
    for attribution in ("Am 01.01.27 um 10:00 schrieb The Judge:",
                        "Op vr 1 jan. 2027 om 10:00 schreef The Judge <judge@example.org>:",
                        "Den fre 1 jan. 2027 kl 10:00 skrev The Judge <judge@example.org>:\n",
                        "Em sex., 1 de jan. de 2027 às 10:00, The Judge escreveu:",
                        "W dniu 1.01.2027 o 10:00, The Judge pisze:",
                        "Am Fr., 1. Jan. 2027 um 10:00 Uhr\nschrieb The Judge <j@example.org>:",
                        "The Judge <judge@example.org> schrieb am Fr., 1. Jan. 2027, 10:00:"):
        for text, read in ((f"{ORDERS}\n\n{attribution}\n{quote}", f"{ORDERS}\n"),
                           (f"{attribution}\n{quote}\n{ORDERS}\n", None)):
            parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain; "
                                   b"charset=utf-8\n\n" + text.encode())
            if read is not None:            # top-posted: the quote and all below cut off
                assert parsed.body == read, (attribution, parsed.body)
            else:                           # answered below the quote: the line left out
                assert "schr" not in parsed.body and "Judge" not in parsed.body.replace(
                    "> ", ""), parsed.body
                assert parsed.body.endswith(ORDERS + "\n")
    # without a quote under it, a line naming 'wrote' is no attribution; an order line
    # above one stays an order
    for text in ("# Bert wrote:\n" + ORDERS + "\n",
                 "on reveal: apply\nAm 01.01.27 um 10:00 schrieb The Judge:\n" + quote,
                 "stay\nAm 01.01.27 um 10:00 schrieb The Judge:\n" + quote):
        parsed = parse_message(b"From: a@x.org\nSubject: s\n\n" + text.encode())
        assert parsed.body.split("\n")[0] == text.split("\n")[0], parsed.body


def test_the_footers_of_mail_programs_in_other_words_and_languages_are_no_orders(world):
    """Only "Sent from my ..." and German "Von meinem ... gesendet" were left out: "Sent
    from Mail for Windows", "Sent from Yahoo Mail on Android", "Envoyé de mon iPhone",
    "Enviado desde mi iPhone" and the like were read as orders and refused the mail."""
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    world.send(who["Anna"], f"orders {code}", f"{ORDERS}\n\nEnvoyé de mon iPhone\n")
    world.run()
    assert "accepted (submission 1)" in body(world.to(who["Anna"])[-1])
    for footer in ("Sent from Mail for Windows", "Sent from Yahoo Mail on Android",
                   "Sent with Proton Mail secure email.", "Gesendet von meinem iPhone",
                   "Enviado desde mi iPhone", "Inviato da iPhone",
                   "Verzonden vanaf mijn iPhone", "Skickat från min iPhone",
                   "Sendt fra min iPhone", "Wysłane z iPhone'a"):
        parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain; "
                               b"charset=utf-8\n\n" + f"{ORDERS}\n\n{footer}\n".encode())
        assert parsed.body == ORDERS + "\n", footer


def test_the_mail_answered_under_other_languages_separators_is_left_out(world):
    """GMX and web.de put the date first over the mail answered ("Gesendet:", "Von:",
    "An:", "Betreff:"), and phone mail programs write "-------- Original-Nachricht --------",
    "-------- Mensaje original --------" and the like: the report under them was read as
    orders and every line of it refused."""
    orders_above_the_report_are_accepted(
        world, "AW:", "Gesendet: Freitag, 01. Januar 2027 um 10:00 Uhr\n"
        "Von: \"The Judge\" <judge@example.org>\nAn: {to}\nBetreff: {subject}\n")
    for separator in ("Original-Nachricht", "Mensaje original", "Messaggio originale",
                      "Oorspronkelijk bericht", "Mensagem original", "Originalmeddelande"):
        parsed = parse_message(b"From: a@x.org\nSubject: s\nContent-Type: text/plain; "
                               b"charset=utf-8\n\n" + f"{ORDERS}\n\n-------- {separator} "
                               "--------\nDe: The Judge\nmove x\n".encode())
        assert parsed.body == ORDERS + "\n", separator
    # a date line without the From line under it cuts nothing
    parsed = parse_message(b"From: a@x.org\nSubject: s\n\nDate: tomorrow\n" + ORDERS.encode()
                           + b"\nTo: all\n")
    assert ORDERS in parsed.body and "To: all" in parsed.body
