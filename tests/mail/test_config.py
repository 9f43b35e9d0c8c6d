"""companion.toml: the documented example is valid; every mistake is named with file:line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import CompanionError, DataError, DataErrors
from companion.mail.config import load, parse_duration

ROOT = Path(__file__).resolve().parents[2]


def example(page: str) -> str:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.search(r"```toml\n(.*?)```", text, re.S).group(1)


def test_the_documented_example_is_valid(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text(example("docs/mail.md") + "\n[web]\nanything = 1\n", encoding="utf-8")
    config = load(path)
    assert config.mailbox_kind == "imap" and config.imap.port == 993
    assert config.smtp.tls == "starttls" and config.smtp.port == 587
    assert config.period == 3 * 86400 and config.remind_before == 12 * 3600
    assert config.outbox == tmp_path / "mail" / "outbox"


def test_the_readme_example_is_valid(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"cat > companion.toml <<'EOF'\n(.*?)\n\s*EOF", readme, re.S).group(1)
    path = tmp_path / "companion.toml"
    path.write_text("\n".join(line[4:] for line in block.splitlines()), encoding="utf-8")
    config = load(path)
    assert config.mailbox_kind == "maildir" and config.smtp is None


@pytest.mark.parametrize("text,needle,line", [
    ('[mail]\naddress = "judge"\n', "not an email address", 2),
    ('[mail]\naddress = "j@example.org"\nadress = "x"\n', "unknown key 'adress'", 3),
    ('[mail]\naddress = "j@example.org"\n[smtp]\nhost = "mail.example.org"\ntls = "none"\n',
     "allowed only for a server on this machine", 5),
    ('[mail]\naddress = "j@example.org"\n[smtp]\nhost = "h.example.org"\ntls = "ssl"\n',
     "'tls' must be one of", 5),
    ('[mail]\naddress = "j@example.org"\n[smtp]\nhost = "h.example.org"\nuser = "u"\n',
     "no password source", 5),
    ('[mail]\naddress = "j@example.org"\n[smtp]\nhost = "h.example.org"\n'
     'password_env = "hunter2 is my password"\n', "must name an environment variable", 5),
    ('[mail]\naddress = "j@example.org"\n[deadlines]\nperiod = "3 weeks"\n',
     "is not a duration", 4),
    ('[mail]\naddress = "j@example.org"\n[mailbox]\npath = "in"\nhost = "x"\n',
     "is for kind = \"imap\"", 5),
    ('[mail]\naddress = "j@example.org"\nmoderator = "m@example.org"\n',
     "moderator_secret_env", 3),
    ('[mail\naddress = "j@example.org"\n', "TOML syntax", 1),
])
def test_every_mistake_is_named_with_its_line(tmp_path, text, needle, line):
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises((DataError, DataErrors)) as caught:
        load(path)
    errors = caught.value.errors if isinstance(caught.value, DataErrors) else [caught.value]
    found = [e for e in errors if needle in e.message]
    assert found and found[0].line == line, [(e.line, e.message) for e in errors]
    assert str(path) in caught.value.render()


def test_all_errors_come_together(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[mail]\naddress = "x"\n[smtp]\nhost = "h.example.org"\ntls = "bad"\n'
                    '[smpt]\n', encoding="utf-8")
    with pytest.raises(DataErrors) as caught:
        load(path)
    assert len(caught.value.errors) == 3
    rendered = caught.value.errors[0].render()      # the file named once, as given
    assert rendered.startswith(f"{path}:6:") and "unknown table 'smpt'" in rendered
    assert "companion.toml: unknown" not in rendered


def test_a_table_written_twice_says_to_merge_it(tmp_path):
    """README: 'companion web hash-password >> companion.toml'; done twice (a new password),
    the file has two [web] tables, which every command reading it refused with TOML's words
    alone."""
    path = tmp_path / "companion.toml"
    path.write_text('[mail]\naddress = "j@example.org"\n[web]\nmax_failures = 3\n'
                    '[web]\nmax_failures = 4\n', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(path)
    assert caught.value.line == 5 and "twice" in caught.value.message
    assert "replace the old moderator_password_hash line" in caught.value.render()


def test_a_missing_file_says_how_to_make_one(tmp_path):
    with pytest.raises(CompanionError, match="no mail configuration"):
        load(tmp_path / "companion.toml")


def test_durations():
    assert parse_duration("90") == 90 and parse_duration(90) == 90
    assert parse_duration("1d12h") == 36 * 3600 and parse_duration("30m") == 1800
    for bad in ("", "3 weeks", "-1", "h", True):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_durations_and_deadlines_beyond_ten_years_are_refused_with_a_message():
    """Found by the moderator-form property test: '+99999999d' and '9999-12-31' made the
    deadline command fail (OverflowError) instead of saying what is wrong."""
    import datetime as dt

    from companion.errors import CompanionError
    from companion.mail.deadlines import parse_when

    assert parse_duration("3650d") == 3650 * 86400
    for bad in ("3651d", "99999999d", "9" * 40, 10**30, "999999999999999999999h"):
        with pytest.raises(ValueError, match="longer than 3650 days"):
            parse_duration(bad)
    base = dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc)
    assert parse_when("+2d", base) == base + dt.timedelta(days=2)
    for bad, says in (("+99999999d", "longer than 3650 days"),
                      ("9999-12-31 23:59", "more than 3650 days (ten years) away"),
                      ("1900-01-01", "more than 3650 days"),
                      ("0001-01-01T00:00+01:00", "is not a deadline")):
        with pytest.raises(CompanionError, match=re.escape(says)):
            parse_when(bad, base)
