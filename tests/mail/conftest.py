"""Fixtures of the play-by-email tests: a sandbox with a store, a companion.toml, a Maildir and
an outbox folder; a real SMTP server (aiosmtpd) on the loopback interface; a real IMAP server
(Dovecot) started with its own configuration and test user."""
from __future__ import annotations

import mailbox
import os
import re
import shutil
import socket
import subprocess
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.conftest import EPOCH

CODE = re.compile(r"Your code for orders by mail: ([A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MailWorld:
    """A store, an output folder, companion.toml, a Maildir inbox and an outbox; passes run in
    this process (fast) or through the installed command (``cli``)."""

    def __init__(self, root: Path, cli):
        self.root = root
        self.cli = cli
        self.store_path = cli.store
        self.output = cli.output
        self.inbox = root / "inbox"
        self.outbox = root / "outbox"
        self.config_path = root / "companion.toml"
        self.smtp = None
        self.imap = None
        self.sequence = 0
        self.parsed: dict = {}
        self.write_config()

    def write_config(self, extra: str = "", *, moderator: bool = True) -> None:
        text = ('[mail]\naddress = "judge@example.org"\nname = "The Judge"\n')
        if moderator:
            text += ('moderator = "mod@example.org"\n'
                     'moderator_secret_env = "COMPANION_TEST_MODERATOR_SECRET"\n')
        if self.imap:
            text += (f'[mailbox]\nkind = "imap"\nhost = "127.0.0.1"\nport = {self.imap.port}\n'
                     f'tls = "none"\nuser = "{self.imap.user}"\n'
                     f'password_file = "{self.imap.password_file}"\n')
        else:
            text += '[mailbox]\npath = "inbox"\n'
        if self.smtp:
            text += f'[smtp]\nhost = "127.0.0.1"\nport = {self.smtp.port}\ntls = "none"\n' \
                    'timeout = 5\n'
        text += '[outbox]\npath = "outbox"\n' + extra
        self.config_path.write_text(text, encoding="utf-8")

    # -- running ---------------------------------------------------------------------------
    def config(self):
        from companion.mail.config import load

        return load(self.config_path)

    def store(self):
        from companion.store import Store

        return Store(self.store_path, create=True)

    def run(self, *, hook=None) -> list[str]:
        """One pass in this process; its progress lines."""
        from companion.mail.run import one_pass

        lines: list[str] = []
        store = self.store()
        try:
            one_pass(store, self.config(), self.output, lines.append, hook=hook or
                     (lambda step: None))
        finally:
            store.close()
        return lines

    # -- mail in ---------------------------------------------------------------------------
    def message(self, sender: str, subject: str, body: str, **headers) -> bytes:
        self.sequence += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "judge@example.org"
        msg["Subject"] = subject
        msg["Message-ID"] = headers.pop("message_id", f"<m{self.sequence}@players.example.org>")
        for key, value in headers.items():
            msg[key.replace("_", "-")] = value
        msg.set_content(body)
        return msg.as_bytes()

    def deliver(self, raw: bytes | str) -> None:
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        if self.imap:
            self.imap.append(raw)
        else:
            mailbox.Maildir(str(self.inbox), create=True).add(raw)

    def send(self, sender: str, subject: str, body: str, **headers) -> None:
        self.deliver(self.message(sender, subject, body, **headers))

    # -- mail out --------------------------------------------------------------------------
    def sent(self) -> list:
        """Every message that left: received by the SMTP server, or written to the outbox."""
        if self.smtp:
            raws = [(("smtp", i), raw) for i, (_, raw) in enumerate(self.smtp.received)]
        else:
            raws = [(p, None) for p in sorted(self.outbox.glob("*.eml"))]
        out = []
        for key, raw in raws:           # each message parsed once
            if key not in self.parsed:
                self.parsed[key] = message_from_bytes(raw if raw is not None else
                                                      key.read_bytes(), policy=policy.default)
            out.append(self.parsed[key])
        return out

    def to(self, address: str) -> list:
        return [m for m in self.sent() if m["To"] == address]

    def code(self, address: str) -> str:
        for msg in reversed(self.to(address)):
            m = CODE.search(body(msg))
            if m:
                return m.group(1)
        raise AssertionError(f"no report with a code went to {address}")


def body(msg) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content().replace("\r\n", "\n") if part is not None else ""


def attachments(msg) -> dict[str, bytes]:
    return {part.get_filename(): part.get_payload(decode=True)
            for part in msg.iter_attachments()}


@pytest.fixture
def world(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_STORE", str(cli.store))
    monkeypatch.setenv("COMPANION_OUTPUT", str(cli.output))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    monkeypatch.setenv("COMPANION_TEST_MODERATOR_SECRET", "moderator-secret-42")
    monkeypatch.delenv("COMPANION_TEST_CLOCK_OFFSET", raising=False)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    cli.env["COMPANION_TEST_MODERATOR_SECRET"] = "moderator-secret-42"
    return MailWorld(tmp_path, cli)


# ------------------------------------------------------------------------------------- SMTP
class SmtpServer:
    """A real SMTP server (aiosmtpd) on 127.0.0.1: records what it accepts; can refuse
    recipients (550) and drop the connection on a message."""

    def __init__(self, *, cert=None, mode: str = "none",
                 smtputf8: bool | None = None):
        from aiosmtpd.controller import Controller

        self.received: list[tuple[str, bytes]] = []
        self.refuse: set[str] = set()
        self.drop_next = 0
        self.port = free_port()
        self.mode = mode
        options: dict = {}
        if mode != "none":
            import ssl

            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(str(cert.cert), str(cert.key))
            options = ({"tls_context": context, "require_starttls": True} if mode == "starttls"
                       else {"ssl_context": context})
        if smtputf8 is not None:    # whether it offers addresses beyond ASCII (RFC 6531)
            options["enable_SMTPUTF8"] = smtputf8
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **options)
        self.controller.start()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.drop_next:
            self.drop_next -= 1
            server.transport.close()           # the connection is gone, nothing accepted
            return "421 closing"
        for rcpt in envelope.rcpt_tos:
            self.received.append((rcpt, envelope.original_content or envelope.content))
        return "250 Message accepted for delivery"

    def stop(self):
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


class Certificate:
    """A self-signed certificate for 127.0.0.1 (openssl), and the key."""

    def __init__(self, root: Path):
        self.cert = root / "cert.pem"
        self.key = root / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", str(self.key), "-out", str(self.cert)], check=True,
                       capture_output=True, timeout=60)
        os.chmod(self.key, 0o644)          # readable by Dovecot's own user


@pytest.fixture(scope="session")
def certificate(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("the TLS tests make a certificate with openssl")
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="companion-cert-"))
    os.chmod(root, 0o755)
    yield Certificate(root)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def smtp_server():
    pytest.importorskip("aiosmtpd", reason="the SMTP tests need aiosmtpd (pip install "
                                           "'.[test]')")
    server = SmtpServer()
    yield server
    server.stop()


# ------------------------------------------------------------------------------------- IMAP
class Dovecot:
    """Dovecot started on a loopback port with its own configuration (docs: the notes in
    /work/shared/notes/test-servers.md), one test user with a Maildir."""

    def __init__(self, root: Path, cert=None):
        import pwd

        self.root = root
        self.port = free_port()
        self.tls_port = free_port() if cert else 0
        self.user = "players"
        self.password = "imap-test-password"
        self.password_file = root / "imap-password"
        self.password_file.write_text(self.password + "\n")
        dovecot = pwd.getpwnam("dovecot")
        uid, gid = dovecot.pw_uid, dovecot.pw_gid
        home = root / "home"
        (home / "Maildir").mkdir(parents=True)
        for folder in (root, home, home / "Maildir"):
            os.chown(folder, uid, gid) if os.geteuid() == 0 else None
        os.chmod(root, 0o755)
        (root / "users").write_text(
            f"{self.user}:{{PLAIN}}{self.password}:{uid}:{gid}::{home}::\n")
        self.config = root / "dovecot.conf"
        self.config.write_text(f"""
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
{f"ssl = yes{chr(10)}ssl_cert = <{cert.cert}{chr(10)}ssl_key = <{cert.key}" if cert
 else "ssl = no"}
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = {uid}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/users
}}
userdb {{
  driver = passwd-file
  args = {root}/users
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port}
  }}
}}
""")
        # in the foreground (-F), as a child of the tests: stopped with it
        self.process = subprocess.Popen(["dovecot", "-F", "-c", str(self.config)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("Dovecot did not start: " +
                                       (root / "dovecot.log").read_text(errors="replace"))
                time.sleep(0.05)

    def connect(self):
        import imaplib

        imap = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        imap.login(self.user, self.password)
        return imap

    def append(self, raw: bytes) -> None:
        imap = self.connect()
        status, answer = imap.append("INBOX", None, None, raw.replace(b"\r\n", b"\n")
                                     .replace(b"\n", b"\r\n"))
        assert status == "OK", answer
        imap.logout()

    def unseen(self) -> int:
        imap = self.connect()
        imap.select("INBOX")
        count = len(imap.search(None, "UNSEEN")[1][0].split())
        imap.logout()
        return count

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def dovecot():
    yield from start_dovecot(None)


@pytest.fixture
def dovecot_tls(certificate):
    """Dovecot with TLS: STARTTLS on its imap port, TLS from the start on its imaps port."""
    yield from start_dovecot(certificate)


def start_dovecot(cert):
    if shutil.which("dovecot") is None:
        pytest.skip("the IMAP tests need Dovecot: install the Debian package dovecot-imapd "
                    "(apt-get install dovecot-imapd; .ci/run does)")
    import pwd

    try:
        pwd.getpwnam("dovecot")
    except KeyError:
        pytest.skip("the IMAP tests need the 'dovecot' user of the package dovecot-imapd")
    import tempfile

    # not under pytest's temporary folder: its parents are closed to the 'dovecot' user
    root = Path(tempfile.mkdtemp(prefix="companion-dovecot-"))
    try:
        server = Dovecot(root, cert)
        yield server
        server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
