"""The examples in the games' docs pages work as they say.

Marked blocks (an HTML comment right before a fenced block) in docs/gral.md, docs/mayhem.md,
docs/fluxx.md and docs/koc-engine.md:

* ``<!-- position-example: KIND [options: KEY=VALUE, ...] -->``: a complete position. It must
  start a game (``companion new KIND ID --setup FILE``), and the position ``companion show ID
  --position`` then writes must start a game too and be written again unchanged.
* ``<!-- dice-file: NAME FILE -->``: a file of worked example NAME (an order file, a setup).
* ``<!-- dice-commands: NAME -->``: the commands of worked example NAME, run in order in a
  fresh sandbox; each must succeed.
* ``<!-- dice-expect: NAME -->``: lines that must appear (whitespace runs counted as one space)
  in the commands' output or in the text reports of the turns they wrote.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("gral.md", "mayhem.md", "fluxx.md", "koc-engine.md")
MARK = re.compile(r"^<!--\s*(position-example|dice-file|dice-commands|dice-expect):\s*(.*?)\s*-->"
                  r"\s*\n```[^\n]*\n(.*?)^```", re.M | re.S)


def blocks() -> list[tuple[str, str, str, str]]:
    """(page, marker kind, marker argument, block text) of every marked block."""
    found = []
    for page in PAGES:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        for m in MARK.finditer(text):
            found.append((page, m.group(1), m.group(2), m.group(3)))
    return found


def position_examples() -> list[tuple[str, str, list[str], str]]:
    out = []
    for page, kind, arg, text in blocks():
        if kind != "position-example":
            continue
        game, _, rest = arg.partition(" ")
        options = []
        m = re.match(r"options:\s*(.*)$", rest.strip())
        if m:
            options = [o.strip() for o in m.group(1).split(",") if o.strip()]
        out.append((page, game, options, text))
    return out


def dice_examples() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for page, kind, arg, text in blocks():
        if kind == "position-example":
            continue
        name, _, rest = arg.partition(" ")
        ex = out.setdefault(name, {"page": page, "files": {}, "commands": [], "expect": []})
        if kind == "dice-file":
            ex["files"][rest.strip()] = text
        elif kind == "dice-commands":
            ex["commands"] += [line for line in text.splitlines() if line.strip()]
        else:
            ex["expect"] += [line.strip() for line in text.splitlines() if line.strip()]
    return out


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_every_page_has_its_examples():
    games = {game for _, game, _, _ in position_examples()}
    assert games == {"gral", "mayhem", "fluxx", "koc"}
    named = {name.split("-")[0] for name in dice_examples()}
    assert named == {"gral", "mayhem", "fluxx", "koc"}
    for name, ex in dice_examples().items():
        assert ex["commands"] and ex["expect"], f"worked example {name} lacks commands or outcome"
        assert any("--dice" in c for c in ex["commands"]), f"{name} gives no --dice"


@pytest.mark.parametrize("page,game,options,text", position_examples(),
                         ids=lambda v: v if isinstance(v, str) and v in
                         ("gral", "mayhem", "fluxx", "koc") else "")
def test_position_example_reads_and_reads_back(cli, page, game, options, text):
    opts = [a for o in options for a in ("--option", o)]
    setup = cli.write("example.txt", text)
    cli.ok("new", game, "ex1", "--setup", setup, "--seed", "1", *opts)
    shown = cli.ok("show", "ex1", "--position").out
    again = cli.write("shown.txt", shown)
    cli.ok("new", game, "ex2", "--setup", again, "--seed", "1", *opts)
    assert cli.ok("show", "ex2", "--position").out == shown
    if game != "koc":
        # the example holds every line the position of this game can hold, so what show
        # writes again says the same (comments and line order aside)
        def content(t: str) -> list[str]:
            return sorted(line.split("#", 1)[0].strip() for line in t.splitlines()
                          if line.split("#", 1)[0].strip())
        written = content(shown)
        for line in content(text):
            if game == "mayhem" and line.startswith(("deck:", "rest:")):
                continue        # the cards named nowhere are written out in the deck
            if game == "fluxx" and line.startswith(("deck:", "rest:")):
                continue
            assert squash(line) in map(squash, written), f"{page}: '{line}' is not written back"


def test_koc_edits_to_the_fields_win_over_the_engine_copy(cli):
    """docs/koc-engine.md: a field edited in a shown position wins over the [engine] copy."""
    [(page, game, options, text)] = [e for e in position_examples() if e[1] == "koc"]
    cli.ok("new", "koc", "k1", "--setup", cli.write("k.toml", text), "--seed", "1")
    shown = cli.ok("show", "k1", "--position").out
    assert "\n[engine]\n" in shown
    head, sep, engine = shown.partition("\n[engine]\n")
    anna = head.index("[knight.Anna]")
    edited = head[:anna] + head[anna:].replace("\ncp = 120\n", "\ncp = 150\n", 1) + sep + engine
    assert edited != shown
    cli.ok("new", "koc", "k2", "--setup", cli.write("k2.toml", edited), "--seed", "1")
    again = cli.ok("show", "k2", "--position").out
    part = again[again.index("[knight.Anna]"):]
    assert "\ncp = 150\n" in part.partition("\n\n")[0]
    assert '\\"cp\\":150' in again          # the engine's copy took the edit


@pytest.mark.parametrize("name", sorted(dice_examples()))
def test_dice_example(cli, name):
    ex = dice_examples()[name]
    for filename, body in ex["files"].items():
        cli.write(filename, body)
    output = []
    for command in ex["commands"]:
        args = shlex.split(command)
        assert args[0] == "companion", f"{ex['page']}: '{command}' is not a companion command"
        output.append(cli.ok(*args[1:]).text)
    reports = [p.read_text(encoding="utf-8") for p in sorted(cli.output.rglob("turn-*/*.txt"))]
    haystack = squash("\n".join(output + reports))
    for line in ex["expect"]:
        assert squash(line) in haystack, f"{ex['page']} ({name}): '{line}' does not appear"


# ------------------------------------------------------------------------------------ README
def readme_blocks() -> list[list[str]]:
    """README.md's indented example blocks, each a list of lines (four spaces taken off)."""
    blocks, current = [], []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line[4:])
            continue
        if current:
            while current and not current[-1].strip():
                current.pop()
            blocks.append(current)
        current = []
    return blocks


def readme_block(first: str) -> list[str]:
    [block] = [b for b in readme_blocks() if b and b[0].startswith(first)]
    return block


def run_readme_block(cli, block: list[str], stdin: str) -> list[str]:
    """Run a README block as a newcomer would, in the sandbox: every 'companion' line through
    the installed script (standard input: ``stdin``), anything else (printf, cat <<'EOF') by the
    shell; '--watch' would run until stopped and is left out. Returns the outputs."""
    import subprocess

    outputs, lines = [], list(block)
    while lines:
        line = lines.pop(0)
        if not line.strip() or line.lstrip().startswith("#") or "--watch" in line:
            continue
        if line.startswith("companion "):
            args = shlex.split(line, comments=True)
            outputs.append(cli.ok(*args[1:], input=stdin).text)
            continue
        script = line
        m = re.search(r"<<'(\w+)'", line)
        if m:                                   # a here-document: up to its end marker
            while lines:
                script += "\n" + lines.pop(0)
                if script.endswith("\n" + m.group(1)):
                    break
        proc = subprocess.run(["bash", "-e", "-c", script], cwd=cli.root, capture_output=True,
                              text=True, env=cli.env, timeout=60)
        assert proc.returncode == 0, f"README: '{line}' failed:\n{proc.stderr}"
    return outputs


def test_readme_play_by_email_examples_run_as_written(cli):
    """README.md, 'Running a game by email' and then 'Let companion read and send the mail', as
    a newcomer types them one after the other into one folder: every command succeeds (the
    second block's game does not clash with the first's; the first 'mail run' makes the Maildir
    companion.toml names), and the mail reaches the outbox."""
    by_hand = readme_block("companion new gral g1 ")
    email = "Hi judge,\n\nassign 10 to Alberto\n\nCheers, Bert\n-- \nsent from my phone\n"
    out = run_readme_block(cli, by_hand, email)
    assert any("accepted orders of Anna" in o for o in out)
    assert any("accepted orders of Bert" in o for o in out)
    assert any("turn 1 processed" in o for o in out)
    by_mail = readme_block("companion new gral g2 ")
    out = run_readme_block(cli, by_mail, "")
    assert (cli.root / "mail" / "inbox" / "new").is_dir()
    sent = sorted(p.name for p in (cli.root / "mail" / "outbox").glob("*.eml"))
    assert [n for n in sent if "report-g2-0-" in n and n.endswith("-anna.eml")], sent
