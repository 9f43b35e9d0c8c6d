"""[mail] dkim = true: a message must carry a valid DKIM signature of its sender's domain
(dkimpy, the optional extra 'companion[dkim]'). The public key comes from a DNS lookup the test
answers itself."""
from __future__ import annotations

import base64
import shutil
import subprocess

import pytest

from tests.mail import corpus
from tests.mail.helpers import new_game, submissions

dkim = pytest.importorskip("dkim", reason="the DKIM tests need dkimpy (pip install "
                                          "'companion[dkim]')")


@pytest.fixture
def keys(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("the DKIM tests make a key with openssl")
    private = tmp_path / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-traditional", "-out", str(private), "1024"],
                   check=True, capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return private.read_bytes(), base64.b64encode(public)


def test_only_validly_signed_mail_is_read(world, keys, monkeypatch):
    from companion.mail import run

    private, public = keys
    records = {b"sel._domainkey.g1.example.org.": b"v=DKIM1; k=rsa; p=" + public}
    monkeypatch.setattr(run, "DNSFUNC", lambda name, timeout=5: records.get(name, b""))
    world.write_config("")
    text = world.config_path.read_text().replace('name = "The Judge"\n',
                                                 'name = "The Judge"\ndkim = true\n')
    world.config_path.write_text(text)
    who = new_game(world, "gral", "g1", ["Anna", "Bert"])
    world.run()
    code = world.code(who["Anna"])
    signed = world.message(who["Anna"], f"o {code}", corpus.ORDERS + "\n")
    signature = dkim.sign(signed, b"sel", b"g1.example.org", private,
                          include_headers=[b"from", b"subject", b"message-id"])
    world.deliver(world.message(who["Anna"], f"o {code}", corpus.ORDERS + "\n"))   # unsigned
    forged = signature + signed.replace(b"Mansur", b"Arslan")                       # changed
    world.deliver(forged.replace(b"<m", b"<forged-m", 1))
    world.run()
    assert submissions(world, "g1") == []
    world.deliver(signature + signed)
    world.run()
    assert [s.player for s in submissions(world, "g1")] == ["Anna"]
    refusals = [m for m in world.to(who["Anna"]) if m["Subject"].startswith("Not accepted")]
    assert len(refusals) == 2
