"""A raw email message turned into what companion reads: sender, subject, Message-ID, and the
order text (the plain-text part, an HTML-only body turned into text, or a text attachment),
with quoted replies, attributions ("On ... wrote:", Outlook's "-----Original Message-----") and
signatures taken out. Never raises on a malformed message: what cannot be read is said in
``problems``. A greeting before the orders and a sign-off after them, from fixed lists, are
set aside as comments by ``without_courtesies`` (the mail pass names them in its reply).

``orders_from_text`` lets ``companion orders submit GAME PLAYER -`` take a whole saved message
as well as a bare body."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*:[ \t]")
KNOWN_HEADERS = {"from", "to", "subject", "date", "message-id", "mime-version", "content-type",
                 "received", "return-path", "reply-to", "cc", "delivered-to",
                 "content-transfer-encoding", "x-mailer", "user-agent", "in-reply-to",
                 "references", "dkim-signature", "sender"}


@dataclass
class Parsed:
    message_id: str
    sender: str                      # the From address, lower case ('' when there is none)
    subject: str
    body: str                        # the order text: quotes, attributions and signature out
    first_line: str = ""             # the first non-empty line of the body as sent
    from_attachment: str | None = None
    attachment_name: str = ""        # the file name of the text attachment read, if any
    auto: str | None = None          # why this is an automatic message (bounce, auto-reply)
    problems: list[str] = field(default_factory=list)
    too_large: str | None = None     # why the message was not read whole (its size)
    in_reply_to: str | None = None
    text: str = ""                   # the message's text as sent, quotes and all (a reply to a
                                     # report quotes the player's code: identify() reads it)
    unread: list[str] = field(default_factory=list)   # the attachments not read (not text)


def message_key(raw: bytes, message_id: str | None) -> str:
    """The key a message is stored under: its Message-ID, or a digest of its bytes."""
    if message_id and message_id.strip():
        return message_id.strip()[:998]
    return "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"


def looks_like_message(text: str) -> bool:
    """Whether a text starts with mail headers (a saved message, not a bare body)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not HEADER_LINE.match(lines[0]) and not lines[0].startswith("From "):
        return False
    names = set()
    for line in lines[:200]:
        if not line.strip():
            break
        if line[:1] in " \t":
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9-]*):", line)
        if not m:
            if line.startswith("From "):     # an mbox separator line
                continue
            return False
        names.add(m.group(1).lower())
    return len(names & KNOWN_HEADERS) >= 2


def orders_from_text(text: str) -> str:
    """The order text of a whole message when ``text`` is one; else ``text`` with what a mail
    program adds to a pasted body left out as ``clean_orders`` does (an "On ... wrote:" line
    and the quote under it, "Sent from my phone"), the line numbers kept."""
    if not looks_like_message(text):
        cleaned = clean_orders(text)
        same = cleaned.rstrip() == text.replace("\r\n", "\n").replace("\r", "\n").rstrip()
        return text if same else cleaned
    parsed = parse_message(text.lstrip("\ufeff").encode("utf-8", "surrogateescape"))
    if parsed.too_large:
        from companion.errors import CompanionError

        raise CompanionError(f"the saved message was not read: {parsed.too_large}",
                             hint="give the orders as a text file of their own")
    return without_code_line(parsed.body)


CODE_LINE = re.compile(r"^\s*(?:(?:my|your|the)\s+)?(?:(?:mail|order|orders)\s+)?(?:code"
                       r"(?:\s+is)?\s*[:=-]?\s*)?[A-Za-z2-7]{5}-[A-Za-z2-7]{5}-[A-Za-z2-7]{5}"
                       r"\s*[.!]?\s*$", re.I)
"""A line that is only a mail code, maybe labelled ("My code: ..."): never an order."""


def without_code_line(body: str) -> str:
    """The order text with its first line blanked when it holds a mail code, and any later
    line that is only a code (under a greeting, or at the end: "My code: ..."), blanked too
    (so the line numbers of errors stay those of the message)."""
    from companion.mail.identity import CODE

    lines = body.split("\n")
    for index, line in enumerate(lines):
        if line.strip():
            if CODE.search(line):
                lines[index] = ""
            break
    return "\n".join("" if CODE_LINE.match(line) else line for line in lines)


MAX_MESSAGE_BYTES = 10 * 1024 * 1024
"""The largest message read (bytes): orders are text, and Python's mail parser takes its time
over a message of thousands of parts; a larger one is stored whole, its headers read, and its
sender told."""
MAX_HEADER_BYTES = 64 * 1024
"""The most of a message's header block read (a mail server allows far less per line)."""
MAX_PARTS = 200
"""The most MIME parts a message read may have: mail programs send one to a few dozen (text,
HTML, a signature, attachments), and Python's parser takes about a millisecond a part, so ten
megabytes of tiny parts would hold a mail pass up for minutes."""

_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.I)


def mime_parts(raw: bytes, most: int = MAX_PARTS) -> int:
    """How many part delimiters (opening and closing) of the boundaries a message declares it
    holds, counted without parsing it; counting stops above ``most``."""
    boundaries = {a or b for a, b in _BOUNDARY.findall(raw)}
    if len(boundaries) > most:      # each multipart part declares one
        return len(boundaries)
    total = 0
    for boundary in sorted(boundaries):
        total += raw.count(b"\n--" + boundary)
        if total > most:
            break
    return total


def oversize(raw: bytes) -> tuple[bytes, str | None]:
    """The part of a message to parse and why not all of it: the whole message when it is
    within both limits, else its first header lines only."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0]
    header_end = min(ends) if ends else len(raw)
    parts = 0
    if len(raw) <= MAX_MESSAGE_BYTES and header_end <= MAX_HEADER_BYTES:
        parts = mime_parts(raw)
        if parts <= MAX_PARTS + 1:      # the closing delimiter is counted too
            return raw, None
    head = raw[:min(header_end, MAX_HEADER_BYTES)]
    head = head[:head.rfind(b"\n") + 1] or head
    if len(raw) > MAX_MESSAGE_BYTES:
        why = (f"the message is {len(raw) / 1048576:.1f} MB; companion reads messages of up "
               f"to {MAX_MESSAGE_BYTES // 1048576} MB")
    elif header_end > MAX_HEADER_BYTES:
        why = (f"its header lines are {header_end / 1024:.0f} KB long; companion reads up to "
               f"{MAX_HEADER_BYTES // 1024} KB of them")
    else:
        why = (f"the message has more than {MAX_PARTS} parts; companion reads messages of up "
               f"to {MAX_PARTS} parts")
    return head, why


def parse_message(raw: bytes) -> Parsed:
    import email
    import email.policy
    from email.utils import getaddresses

    part, too_large = oversize(raw)
    try:
        if too_large:       # the headers alone (the sender is told), never the body
            from email.parser import BytesHeaderParser

            msg = BytesHeaderParser(policy=email.policy.default).parsebytes(part)
        else:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception as exc:  # noqa: BLE001 - a hostile message must never crash a pass
        return Parsed(message_key(raw, None), "", "", "",
                      problems=[f"the message cannot be read ({type(exc).__name__})"])
    problems: list[str] = []

    def header(name: str) -> str:
        try:
            value = msg.get(name)
            return str(value) if value is not None else ""
        except Exception:  # noqa: BLE001 - a malformed header
            problems.append(f"the {name} header cannot be read")
            return ""

    message_id = message_key(raw, header("Message-ID"))
    if not message_id.startswith("<sha256:") and (message_id != raw_message_id(msg) or
                                                  not message_id.isprintable()):
        # the parser shortened or changed the ID ('<a:1@b>' and '<a:2@b>' both read '<a'):
        # as a key it could make two messages one, and the second would be dropped as read
        # twice; or it holds a control character, which the progress lines and the review
        # list would print: such a message is keyed by its bytes, as one without an ID
        message_id = message_key(raw, None)
    sender = ""
    try:
        found = [a for _, a in getaddresses([header("From")]) if "@" in a]
        sender = found[0].strip().lower() if found else ""
    except Exception:  # noqa: BLE001
        problems.append("the From header cannot be read")
    if not sender.isprintable():
        # a control or line-break character (NUL, U+2028, ...) cannot go into the To: of a
        # reply: no address that can be answered
        problems.append(f"the From address {sender.encode('unicode_escape').decode()[:200]!r}"
                        " holds a control or line-break character; it cannot be answered")
        sender = ""
    # a control character (an escape sequence for the moderator's terminal, a NUL) is no part
    # of any code or command: each is read as a space, so none reaches a reply or a log line
    subject = " ".join("".join(c if c.isprintable() else " " for c in header("Subject"))
                       .split())
    result = Parsed(message_id, sender, subject, "", problems=problems,
                    in_reply_to=header("In-Reply-To") or None)
    result.auto = automatic(msg, header, sender, subject)
    if too_large:
        result.too_large = too_large
        return result
    try:
        body, attached, result.attachment_name = body_text(msg, problems, result.unread)
    except Exception as exc:  # noqa: BLE001
        problems.append(f"the body cannot be read ({type(exc).__name__})")
        body, attached = "", None
    source = attached if attached is not None else body
    result.from_attachment = attached
    result.first_line = next((line.strip() for line in body.splitlines() if line.strip()), "")
    result.text = body
    result.body = clean_orders(source)
    return result


def raw_message_id(msg) -> str | None:
    """The first Message-ID header as it came (unfolded, spaces at its ends taken off),
    before the parser read it; None when there is none."""
    for name, value in msg.raw_items():
        if name.lower() == "message-id":
            return " ".join(str(value).split())[:998]
    return None


def automatic(msg, header, sender: str, subject: str) -> str | None:
    """Why a message was sent by a machine (no reply must go back: that is how mail loops
    start), or None."""
    auto = header("Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header("Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"):
        if header(name) and name != "X-Auto-Response-Suppress":
            return f"{name} header"
    if msg.get_content_type() == "multipart/report":
        return "a delivery or read report (multipart/report)"
    local = sender.partition("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"sent by {local}"
    if header("Return-Path").strip() == "<>":
        return "an empty Return-Path (a bounce)"
    if re.match(r"(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|"
                r"automatische antwort|r[ée]ponse automatique|respuesta autom[aá]tica|"
                r"risposta automatica|automatisch antwoord|resposta autom[aá]tica|"
                r"abwesenheit|undeliver|delivery status notification|returned mail|"
                r"mail delivery failed)", subject, re.I) or subject.lower().startswith("auto:"):
        return f"the subject says so ({subject[:40]!r})"
    return None


def decode_part(part, problems: list[str]) -> str:
    text = _decode_payload(part, problems)
    if part.get_content_type() == "text/plain" and \
            str(part.get_param("format") or "").lower() == "flowed":
        text = unflow(text, str(part.get_param("delsp") or "").lower() == "yes")
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """A text/plain body sent as format=flowed (RFC 3676; Thunderbird and Apple Mail wrap
    their lines so at 72 to 78 characters, a space at the end of each line wrapped) as its
    writer typed it: every line ending in a space joined with the next of the same quote
    depth, space-stuffing taken off; the signature separator '-- ' is never joined.
    Quoted lines keep their '>' marks."""
    out: list[str] = []
    joining = False
    depth_of_last = 0
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.lstrip(">")
        depth = len(line) - len(stripped)
        if stripped.startswith(" "):
            stripped = stripped[1:]          # space-stuffing (or the space after '>')
        flowed = stripped.endswith(" ") and stripped != "-- "
        if flowed and delsp:
            stripped = stripped[:-1]
        if joining and depth == depth_of_last and out:
            out[-1] += stripped
        else:
            out.append((">" * depth + " " if depth else "") + stripped)
        joining, depth_of_last = flowed, depth
    return "\n".join(out)


def _decode_payload(part, problems: list[str]) -> str:
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = b""
    charset = part.get_content_charset() or "utf-8"
    if payload[:2] in (b"\xff\xfe", b"\xfe\xff") and not charset.startswith(("utf-16", "utf-32")):
        # a byte-order mark: a text file saved as "Unicode" (UTF-16, Windows Notepad) and
        # attached without its character set (or with a wrong one); read as what it says
        try:
            return payload.decode("utf-16")
        except UnicodeDecodeError:
            pass
    codec = _codec(charset)
    if codec in LATIN_1_LABELS and any(0x80 <= b <= 0x9f or codec == "ascii" and b > 0x9f
                                       for b in payload):
        # labelled Latin-1 (or ASCII) but holding bytes of Windows-1252's printable range, as
        # Outlook and other Windows programs send a curly apostrophe or a dash: read as every
        # browser and mail reader does (the WHATWG encoding standard), never as the control
        # characters Latin-1 has there, which the orders would be refused for; UTF-8 with a
        # wrong label (those bytes in its sequences, or any 8-bit byte under an ASCII label)
        # as UTF-8
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("cp1252", errors="_latin1_fallback")
    try:
        return payload.decode(charset)
    except LookupError:
        problems.append(f"unknown character set {charset!r}; read as UTF-8")
    except UnicodeDecodeError:
        problems.append(f"the text is not valid {charset}; read as Latin-1")
        return payload.decode("latin-1")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        return payload.decode("latin-1")


LATIN_1_LABELS = {"iso8859_1", "latin_1", "ascii"}
"""The codecs of the labels a Windows mail program puts on Windows-1252 text (iso-8859-1,
latin1, us-ascii, ...)."""


def _codec(charset: str) -> str:
    import codecs

    try:
        return codecs.lookup(charset).name.replace("-", "_")
    except (LookupError, ValueError):
        return ""


def _latin1_fallback(error: UnicodeDecodeError) -> tuple[str, int]:
    """The five bytes Windows-1252 leaves undefined (0x81, 0x8d, 0x8f, 0x90, 0x9d) read as
    Latin-1 reads them."""
    return error.object[error.start:error.end].decode("latin-1"), error.end


def _register_fallback() -> None:
    import codecs

    codecs.register_error("_latin1_fallback", _latin1_fallback)


_register_fallback()


def body_text(msg, problems: list[str], unread: list[str] | None = None
              ) -> tuple[str, str | None, str]:
    """(the message's text, the text of an orders attachment or None, that attachment's file
    name or ''); the file names of the
    attachments not read (a document, a photo: orders are read from text alone) are added to
    ``unread``, so that a reply refusing the orders can say why the attachment did not
    count."""
    plain = html = None
    attached, attached_name = None, ""
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        disposition = (part.get_content_disposition() or "").lower()
        filename = part.get_filename() or ""
        if disposition == "attachment" or filename and (disposition != "inline" or
                                                         plain is not None or html is not None):
            # a named part is an attachment, also when it is marked inline after the body
            # (Apple Mail sends a .txt attachment so); a named text part that comes first is
            # the body itself
            if attached is None and (ctype == "text/plain" or
                                     filename.lower().endswith((".txt", ".text"))):
                attached = decode_part(part, problems)
                attached_name = printable_name(filename)
            elif unread is not None and filename and attached is None and \
                    not part.get("Content-ID"):     # not a logo shown in an HTML signature
                unread.append(printable_name(filename))
            continue
        if ctype == "text/plain" and plain is None:
            plain = decode_part(part, problems)
        elif ctype == "text/html" and html is None:
            html = decode_part(part, problems)
    if html is not None and (plain is None or not plain.strip()):
        # HTML only, or an alternative whose plain part is empty (some phone and web mail
        # programs send one): the HTML is the message
        plain = html_to_text(html)
    return (plain or ""), attached, attached_name


def printable_name(filename: str) -> str:
    """An attachment's file name as a reply may quote it: control characters as spaces, at
    most 80 characters."""
    return "".join(c if c.isprintable() else " " for c in filename)[:80]


def html_to_text(html: str) -> str:
    """Text from an HTML body: blocks and <br> make lines, <blockquote> is quoted ("> "),
    styles and scripts are left out, entities decoded."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        BLOCKS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
                  "ul", "ol", "blockquote", "hr"}

        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.lines: list[str] = [""]
            self.skip = 0
            self.quote = 0

        def newline(self):
            if self.lines[-1].strip():
                self.lines.append("")

        def handle_starttag(self, tag, attrs):
            if tag in ("style", "script", "head", "title"):
                self.skip += 1
            elif tag == "br":
                self.lines.append("")
            elif tag in self.BLOCKS:
                self.newline()
                if tag == "blockquote":
                    self.quote += 1

        def handle_endtag(self, tag):
            if tag in ("style", "script", "head", "title"):
                self.skip = max(0, self.skip - 1)
            elif tag in self.BLOCKS:
                if tag == "blockquote":
                    self.newline()
                    self.quote = max(0, self.quote - 1)
                self.newline()

        def handle_data(self, data):
            if self.skip:
                return
            text = re.sub(r"[ \t\r\n\xa0]+", " ", data)
            if not text.strip() and not self.lines[-1]:
                return
            if not self.lines[-1] and self.quote:
                self.lines[-1] = "> " * self.quote
            self.lines[-1] += text if self.lines[-1].strip(" >") else text.lstrip()

    reader = Reader()
    reader.feed(html)
    reader.close()
    return "\n".join(line.rstrip() for line in reader.lines).strip("\n") + "\n"


ATTRIBUTION = re.compile(r"^\s*(on|am|le|el|il|op)\b.*\b(wrote|schrieb|a écrit|escribió|ha "
                         r"scritto|schreef)\s*:\s*$", re.I)
OUTLOOK = re.compile(r"^\s*(-{3,}\s*(original message|ursprüngliche nachricht|message d'origine|"
                     r"forwarded message|original-?nachricht|mensaje original|messaggio "
                     r"originale|oorspronkelijk bericht|mensagem original|originalmeddelande|"
                     r"opprinnelig melding|oprindelig meddelelse|wiadomość oryginalna)\s*-{3,}|"
                     r"_{10,})\s*$", re.I)
FORWARDED = re.compile(r"^\s*(-{3,}\s*(forwarded message|weitergeleitete nachricht|message "
                       r"transféré)\s*-{3,}|begin forwarded message\s*:)\s*$", re.I)
"""The line a mail program puts above a message forwarded whole (Gmail, Thunderbird, Apple
Mail): with nothing of the sender's own above it, the forwarded message is what was sent."""
MOBILE = re.compile(r"^\s*(sent (from|with|using) |get outlook for |von meinem .* gesendet|"
                    r"gesendet (von|mit|vom) |envoyé (de|depuis) |enviado (desde|de|do|con) |"
                    r"inviato da |verzonden (vanaf|met|van) |skickat från |sendt fra |"
                    r"wysłane z |odesláno z )", re.I)
"""The line a mail program adds under what was written ("Sent from my iPhone", "Sent from
Mail for Windows", "Envoyé de mon iPhone", "Enviado desde mi iPhone", ...)."""


def clean_orders(text: str) -> str:
    """The order text of a body: an attribution line and the quote beneath it cut off (a
    top-posted reply), Outlook's "-----Original Message-----" and all below it cut off, mobile
    signatures left out. Lines quoted with '>', '#' comments and a '-- ' signature are left
    for the order reader, which skips them; line numbers stay those of the body."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    out: list[str] = []
    skip = 0
    for index, line in enumerate(lines):
        if skip:
            skip -= 1
            out.append("")
            continue
        if FORWARDED.match(line) and not any(
                x.strip() and not x.lstrip().startswith(">") for x in out):
            # nothing written above a forwarded message: its text is what was sent (orders
            # mailed to a wrong address and forwarded on); its header lines are left out
            out.append("")
            skip = forwarded_headers(lines, index + 1)
            continue
        if OUTLOOK.match(line) or FORWARDED.match(line) or quoted_headers(lines, index):
            break
        span = attribution_span(lines, index)
        if span:
            rest = [x for x in lines[index + span:] if x.strip()]
            if all(x.lstrip().startswith(">") for x in rest):
                break                      # a top-posted reply: only the quote follows
            out.append("")                 # the attribution of a quote answered inline
            skip = span - 1
            continue
        if MOBILE.match(line) and len(line) <= 100:
            out.append("")
            continue
        out.append(line)
    return "\n".join(out).rstrip() + "\n" if any(x.strip() for x in out) else ""


HEADER_FROM = re.compile(r"^\s*\**(from|von|de|da|van)\**\s*:\s*\S", re.I)
HEADER_DATE = re.compile(r"^\s*\**(sent|date|gesendet|datum|envoyé|enviado|inviato|"
                         r"verzonden)\**\s*:\s*\S", re.I)
HEADER_OTHER = re.compile(r"^\s*\**(to|an|à|para|a|aan|subject|betreff|objet|asunto|"
                          r"oggetto|onderwerp|cc)\**\s*:", re.I)


def quoted_headers(lines: list[str], index: int) -> bool:
    """Whether the original of a reply starts here as Outlook on the web and on phones (and
    other programs) write it in plain text, without a separator line: "From: ..." and, in
    the next lines, "Sent:"/"Date:" and "To:"/"Subject:"; everything from here is the mail
    answered."""
    if HEADER_FROM.match(lines[index]):
        below = lines[index + 1:index + 5]
        return any(HEADER_DATE.match(x) for x in below) and \
            any(HEADER_OTHER.match(x) for x in below)
    if HEADER_DATE.match(lines[index]):
        # the date first ("Gesendet: ..." then "Von:", "An:", "Betreff:": GMX and web.de):
        # the From line right under it, and a To or Subject line within the next three
        below = lines[index + 2:index + 5]
        return index + 1 < len(lines) and bool(HEADER_FROM.match(lines[index + 1])) and \
            any(HEADER_OTHER.match(x) for x in below)
    return False


def forwarded_headers(lines: list[str], start: int) -> int:
    """How many lines from ``start`` the header block of a forwarded message takes ("From:",
    "Date:", "Subject:", "To:", ..., each maybe wrapped, up to the blank line after them); 0
    when none starts there (within two blank lines)."""
    count = 0
    while start + count < len(lines) and not lines[start + count].strip() and count < 2:
        count += 1                      # Apple Mail leaves a blank line under its marker
    seen = False
    for line in lines[start + count:start + count + 40]:
        if HEADER_LINE.match(line.lstrip()) or re.match(r"^\s*[A-Za-z][\w-]*:\s*$", line) or \
                seen and line[:1] in " \t" and line.strip():
            seen = True
            count += 1
            continue
        if seen and not line.strip():
            return count + 1
        break
    return count if seen else 0


WROTE = re.compile(r"(?<!\w)(wrote|schrieb|schreef|skrev|escreveu|escribió|a écrit|ha scritto|"
                   r"pisze|napsal|kirjoitti|írta)(?!\w).*:\s*$", re.I)
"""An attribution that names the writer after the verb ("Am 01.01.27 um 10:00 schrieb The
Judge:", Gmail and Thunderbird in German, Dutch, the Scandinavian languages, ...) or starts
with the name ("The Judge <judge@example.org> schrieb am ...:"): one only right above a
quote."""
VERB = re.compile(WROTE.pattern.partition(".*")[0], re.I)
"""The verb of an attribution, alone."""


def quote_follows(lines: list[str], after: int) -> bool:
    """Whether a quoted line ('>') comes at ``after``, or after one blank line there."""
    for line in lines[after:after + 2]:
        if line.strip():
            return line.lstrip().startswith(">")
    return False


def attribution_span(lines: list[str], index: int) -> int:
    """How many lines an attribution ("On Tue, Anna wrote:") starting here takes (it may be
    wrapped over up to three lines); 0 when none starts here."""
    if ATTRIBUTION.match(lines[index]):
        return 1
    first = lines[index]
    if lines[index].lstrip().startswith(">") or not (
            VERB.search(first) or re.match(r"^\s*(on|am|le|el|il|op|den|em|w)\s", first, re.I)
            and not re.search(r":(\s|$)", first)):
        # the writer after the verb, in any language's word order: the first line holds the
        # verb, or starts as an attribution does without a colon ending a word in it (an
        # order line such as 'on reveal: apply' or 'stay' above one is no part of it)
        first = ""
    for extra in (0, 1, 2) if first else ():
        span = lines[index:index + extra + 1]
        if len(span) <= extra or not all(x.strip() for x in span):
            break
        joined = " ".join(x.strip() for x in span)
        if len(joined) <= 300 and WROTE.search(joined) and \
                quote_follows(lines, index + extra + 1):
            return extra + 1
    if not re.match(r"^\s*(on|am|le|el|il|op)\s", lines[index], re.I):
        return 0
    for extra in (1, 2):
        if index + extra >= len(lines):
            break
        more = lines[index + extra]
        if not more.strip() or re.match(r"^\s*(on|am|le|el|il|op)\s", more, re.I):
            # a wrapped attribution has no blank line in it, and an attribution starting on
            # a later line starts there: a line above it ('on reveal: apply', a Mayhem
            # order) is no part of it
            break
        joined = " ".join(x.strip() for x in lines[index:index + extra + 1])
        if ATTRIBUTION.match(joined):
            return extra + 1
    return 0


# ------------------------------------------------------------------ greetings and sign-offs
GREETINGS = ("hi", "hello", "hey", "hiya", "howdy", "dear", "greetings", "good morning",
             "good afternoon", "good evening", "good day", "hallo", "moin", "servus",
             "bonjour", "salut", "hola", "ciao")
"""The words a greeting line may start with (the only ones taken for a greeting)."""
SIGN_OFFS = ("thanks", "thank you", "thanks a lot", "thanks again", "many thanks", "thx",
             "cheers", "regards", "best regards", "kind regards", "warm regards",
             "warmest regards", "best wishes", "best", "all the best", "yours", "yours truly",
             "yours sincerely", "sincerely", "bye", "ciao", "gruß", "grüße", "viele grüße",
             "liebe grüße", "beste grüße", "mfg", "lg")
"""The words a sign-off line may start with (the only ones taken for a sign-off)."""

_WORD = r"[^\W\d_](?:[^\W\d_]|['’.-])*"          # a word of a name: letters, "O'Neil", "J."


_DASHES = "\u2013\u2014-"
"""A dash that may stand where a comma does: "Thanks - Anna", "Hi Judge -"."""


def _phrases(words: tuple[str, ...]) -> str:
    return "|".join(r"\s+".join(map(re.escape, w.split()))
                    for w in sorted(words, key=len, reverse=True))


GREETING = re.compile(rf"(?:{_phrases(GREETINGS)})(?:\s*[,{_DASHES}])?(?:\s+{_WORD}){{0,3}}"
                      rf"\s*[,!.:;{_DASHES}]*", re.I)
"""A whole greeting line: "Hi judge,", "Hello!", "Dear Game Master,", "Good morning all"."""
SIGN_OFF = re.compile(rf"(?:{_phrases(SIGN_OFFS)})\s*[,!.]*(?:\s*[{_DASHES}])?"
                      rf"(?:\s*{_WORD}(?:\s+{_WORD}){{0,2}}\s*[.!]?)?", re.I)
"""A whole sign-off line: "Thanks,", "Cheers!", "Regards, Anna", "Best wishes Anna Example"."""
NAME = re.compile(rf"[-–—~]?\s*{_WORD}(?:\s+{_WORD}){{0,2}}\s*[.!]?")
"""The name under a sign-off: one to three words ("Anna", "- Anna Example")."""
COURTESY_MAX = 60
"""A longer line is never taken for a greeting, a sign-off or a name."""


@dataclass(frozen=True)
class Courtesy:
    """A line set aside as a greeting or a sign-off, never read as orders."""
    line: int                        # its number in the order text (1-based)
    kind: str                        # 'greeting', 'sign-off' or 'name'
    text: str                        # as written (stripped)

    def said(self, of: str = "") -> str:
        """``ignored the greeting 'Hi judge,' (line 1)``; ``of`` follows the number."""
        what = f"the name {self.text!r} under the sign-off" if self.kind == "name" else \
            f"the {self.kind} {self.text!r}"
        return f"ignored {what} (line {self.line}{of})"


def courtesies(text: str, reads_as_order=lambda number, line: False) -> list[Courtesy]:
    """The greeting and sign-off lines of an order text, each from the fixed lists above and
    nothing else: a greeting is the first line that is not blank, a comment or quoted, when it
    is a whole greeting; a sign-off is the last such line when it is a whole sign-off, or the
    one before it when the last is a name under it, and one more whole sign-off line may
    stand above it ("Thanks!" over "Cheers, Anna"). A line ``reads_as_order(number, text)``
    (the game reads it as the start of an order) is never one. Deterministic: the same text
    gives the same lines."""
    from companion.engine.orders import order_lines

    lines = [(line.number, line.raw.strip()) for line in order_lines(text)]

    def fits(pattern, entry) -> bool:
        number, raw = entry
        return len(raw) <= COURTESY_MAX and bool(pattern.fullmatch(raw)) and \
            not reads_as_order(number, raw)

    found: list[Courtesy] = []
    if lines and fits(GREETING, lines[0]):
        found.append(Courtesy(lines[0][0], "greeting", lines[0][1]))
    rest = lines[len(found):]
    end: list[Courtesy] = []
    if len(rest) >= 2 and fits(SIGN_OFF, rest[-2]) and fits(NAME, rest[-1]):
        end = [Courtesy(rest[-2][0], "sign-off", rest[-2][1]),
               Courtesy(rest[-1][0], "name", rest[-1][1])]
    elif rest and fits(SIGN_OFF, rest[-1]):
        end = [Courtesy(rest[-1][0], "sign-off", rest[-1][1])]
    if end and len(rest) > len(end) and fits(SIGN_OFF, rest[-len(end) - 1]):
        above = rest[-len(end) - 1]             # "Thanks!" above "Cheers, Anna"
        end.insert(0, Courtesy(above[0], "sign-off", above[1]))
    return found + end


def without_courtesies(text: str, reads_as_order=lambda number, line: False
                       ) -> tuple[str, list[Courtesy]]:
    """The order text with its greeting and sign-off lines (:func:`courtesies`) made comments
    (``# Hi judge,``): every game's order reader skips them, now and when the stored text is
    replayed; the other lines, and every line's number, stay as they were. The lines set
    aside are returned to be named in the reply."""
    found = courtesies(text, reads_as_order)
    if not found:
        return text, []
    lines = text.splitlines(keepends=True)           # numbered as order_lines numbers them
    for courtesy in found:
        raw = lines[courtesy.line - 1]
        lines[courtesy.line - 1] = "# " + courtesy.text + raw[len(raw.rstrip(LINE_ENDS)):]
    return "".join(lines), found


LINE_ENDS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What str.splitlines ends a line at."""
