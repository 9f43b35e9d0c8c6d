"""``companion mail demo``: a whole game played by mail with no server at all. The players'
messages are written into a Maildir as a mail client would deliver them (the kind's bundled
demo game's order files where it has one, as Gral does, so that the game is played to its
end; else legal orders picked at random from each player's options), ``mail run`` passes
answer them and run the turns, and every reply and report lands as an ``.eml`` file in the
outbox folder."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

from companion.errors import CompanionError

CONFIG = """# the configuration of 'companion mail demo' (docs/mail.md): no server at all
[mail]
address = "judge@demo.example.org"
name = "The Judge (demo)"

[mailbox]
kind = "maildir"
path = "inbox"

[outbox]
path = "outbox"
"""
PLAYERS = ("Anna", "Bert", "Cora")
MARK = ".companion-mail-demo"


def prepare(folder: Path) -> None:
    if folder.exists():
        if not (folder / MARK).exists():
            raise CompanionError(f"{folder} exists and is not a mail demo folder; nothing was "
                                 "changed", hint="give another folder with --folder")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / MARK).write_text("made by 'companion mail demo'; deleted by the next one\n")
    (folder / "companion.toml").write_text(CONFIG, encoding="utf-8")


def run_demo(kind_id: str, folder: Path, turns: int, log) -> tuple[int, int]:
    """Play up to ``turns`` turns (or to the end); (turns played, messages in the outbox)."""
    import mailbox
    from email.message import EmailMessage

    from companion import service
    from companion.mail import config as mail_config
    from companion.mail import deadlines
    from companion.mail.identity import mail_code
    from companion.mail.run import one_pass
    from companion.registry import get_kind, info
    from companion.store import Store

    entry = info(kind_id)
    kind = get_kind(entry.id)
    if not kind.playable:
        raise CompanionError(f"{entry.title} cannot be played here yet")
    prepare(folder)
    settings = mail_config.load(folder / "companion.toml")
    script = kind.demo_script()     # the kind's bundled demo game, else random legal orders
    if script is not None:
        names, seed, options = list(script.players), script.seed, list(script.options)
    else:
        names = list(PLAYERS[:max(entry.min_players, min(entry.max_players, len(PLAYERS)))])
        while len(names) < entry.min_players:
            names.append(f"Player{len(names) + 1}")
        seed, options = "mail-demo", []
    addresses = {n: f"{n.lower()}@demo.example.org" for n in names}
    store = Store(folder / "demo.sqlite3", create=True)
    output = folder / "reports"
    box = mailbox.Maildir(str(settings.maildir), create=True)
    rng = random.Random(f"mail-demo/{entry.id}")
    try:
        service.new_game(store, entry.id, "demo", [f"{n} <{a}>" for n, a in addresses.items()],
                         seed=seed, option_args=options, output=output)
        log(f"game 'demo' ({entry.title}) for {', '.join(names)}; the players' mail goes "
            f"into {settings.maildir}, companion's into {settings.outbox}")
        one_pass(store, settings, output, log)
        played = 0
        for number in range(turns):
            game = store.game("demo")
            last = store.turn("demo")
            if kind.is_over(last.state):
                break
            scripted = script.turns[number] if script and number < len(script.turns) else None
            for player in game.players:
                if player.name not in kind.awaited(last.state):
                    continue
                text = (scripted.get(player.name) if scripted is not None
                        else pick_orders(store, kind, last.state, player.name, rng))
                if text is None:
                    continue
                msg = EmailMessage()
                msg["From"] = f"{player.name} <{player.email}>"
                msg["To"] = settings.address
                msg["Subject"] = f"Re: [demo] turn {last.number} orders {mail_code(game, player)}"
                msg["Message-ID"] = f"<demo-{last.number}-{player.slug}@demo.example.org>"
                msg.set_content(text + "\n-- \n" + player.name + "\n")
                box.add(msg.as_bytes())
            one_pass(store, settings, output, log)
            if store.turn("demo").number == last.number:
                # a player had nothing to send: the deadline passes
                with store.transaction() as db:
                    deadlines.set_deadline(db, "demo", last.number, deadlines.now())
                one_pass(store, settings, output, log)
            if store.turn("demo").number == last.number:
                break
            played += 1
        return played, len(list(Path(settings.outbox).glob("*.eml")))
    finally:
        store.close()


def pick_orders(store, kind, state: dict, player: str, rng: random.Random) -> str | None:
    from companion import service

    lines = kind.options_for(state, player)
    if not lines:
        return None
    for _ in range(8):
        chosen = rng.sample(lines, k=min(len(lines), rng.randint(1, 3)))
        while chosen:
            text = "\n".join(chosen) + "\n"
            try:
                service.check_orders(store, "demo", player, text, "demo")
                return text
            except CompanionError:
                chosen = chosen[:-1]
    return None
