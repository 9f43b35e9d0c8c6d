"""A raw email message turned into what companion reads: sender, subject, Message-ID, and the
order text (the plain-text part, an HTML-only body turned into text, or a text attachment),
with quoted replies, attributions ("On ... wrote:", Outlook's "-----Original Message-----") and
signatures taken out. Never raises on a malformed message: what cannot be read is said in
``problems``.

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
    auto: str | None = None          # why this is an automatic message (bounce, auto-reply)
    problems: list[str] = field(default_factory=list)
    in_reply_to: str | None = None


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
    return without_code_line(parsed.body)


def without_code_line(body: str) -> str:
    """The order text with its first line blanked when it holds a mail code (so the line
    numbers of errors stay those of the message)."""
    from companion.mail.identity import CODE

    lines = body.split("\n")
    for index, line in enumerate(lines):
        if line.strip():
            if CODE.search(line):
                lines[index] = ""
            break
    return "\n".join(lines)


def parse_message(raw: bytes) -> Parsed:
    import email
    import email.policy
    from email.utils import getaddresses

    try:
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
    sender = ""
    try:
        found = [a for _, a in getaddresses([header("From")]) if "@" in a]
        sender = found[0].strip().lower() if found else ""
    except Exception:  # noqa: BLE001
        problems.append("the From header cannot be read")
    subject = " ".join(header("Subject").split())
    result = Parsed(message_id, sender, subject, "", problems=problems,
                    in_reply_to=header("In-Reply-To") or None)
    result.auto = automatic(msg, header, sender, subject)
    try:
        body, attached = body_text(msg, problems)
    except Exception as exc:  # noqa: BLE001
        problems.append(f"the body cannot be read ({type(exc).__name__})")
        body, attached = "", None
    source = attached if attached is not None else body
    result.from_attachment = attached
    result.first_line = next((line.strip() for line in body.splitlines() if line.strip()), "")
    result.body = clean_orders(source)
    return result


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
                r"abwesenheit|undeliver|delivery status notification|returned mail|"
                r"mail delivery failed)", subject, re.I) or subject.lower().startswith("auto:"):
        return f"the subject says so ({subject[:40]!r})"
    return None


def decode_part(part, problems: list[str]) -> str:
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = b""
    charset = part.get_content_charset() or "utf-8"
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


def body_text(msg, problems: list[str]) -> tuple[str, str | None]:
    """(the message's text, the text of an orders attachment or None)."""
    plain = html = None
    attached = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        disposition = (part.get_content_disposition() or "").lower()
        filename = part.get_filename() or ""
        if disposition == "attachment" or (filename and disposition != "inline"):
            if attached is None and (ctype == "text/plain" or
                                     filename.lower().endswith((".txt", ".text"))):
                attached = decode_part(part, problems)
            continue
        if ctype == "text/plain" and plain is None:
            plain = decode_part(part, problems)
        elif ctype == "text/html" and html is None:
            html = decode_part(part, problems)
    if plain is None and html is not None:
        plain = html_to_text(html)
    return (plain or ""), attached


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
                     r"forwarded message)\s*-{3,}|_{10,})\s*$", re.I)
MOBILE = re.compile(r"^\s*(sent from my |get outlook for |von meinem .* gesendet)", re.I)


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
        if OUTLOOK.match(line):
            break
        span = attribution_span(lines, index)
        if span:
            rest = [x for x in lines[index + span:] if x.strip()]
            if all(x.lstrip().startswith(">") for x in rest):
                break                      # a top-posted reply: only the quote follows
            out.append("")                 # the attribution of a quote answered inline
            skip = span - 1
            continue
        if MOBILE.match(line):
            out.append("")
            continue
        out.append(line)
    return "\n".join(out).rstrip() + "\n" if any(x.strip() for x in out) else ""


def attribution_span(lines: list[str], index: int) -> int:
    """How many lines an attribution ("On Tue, Anna wrote:") starting here takes (it may be
    wrapped over up to three lines); 0 when none starts here."""
    if ATTRIBUTION.match(lines[index]):
        return 1
    if not re.match(r"^\s*(on|am|le|el|il|op)\s", lines[index], re.I):
        return 0
    for extra in (1, 2):
        joined = " ".join(x.strip() for x in lines[index:index + extra + 1])
        if index + extra < len(lines) and ATTRIBUTION.match(joined):
            return extra + 1
    return 0
