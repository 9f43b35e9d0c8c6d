"""Who sent a message: a game's player (their registered address and their mail code), the
moderator (their address and the moderator's secret), or nobody (refused, with the reason).

A player's **mail code** is derived from the game's secret and the player's token (HMAC-SHA256,
75 bits, written ``XXXXX-XXXXX-XXXXX``): each report mail tells its player their code, and a
new token (``companion token``) gives a new code. The code must be in the subject or on the
first line of the message; the address alone is never enough (From: is easily forged), and the
code alone is never enough for orders (it must come from the address registered for it). Codes
are compared in constant time, and never written to another player's mail or to the log.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

CODE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z2-7]{5}-[A-Za-z2-7]{5}-[A-Za-z2-7]{5})"
                  r"(?![A-Za-z0-9])")
MASK = "[code]"
PLACEHOLDER = "XXXXX-XXXXX-XXXXX"
"""How the code is shown in a text that names no code (never masked)."""


def mail_code(game, player) -> str:
    digest = hmac.new(game.secret_key, b"companion-mail-code\0" + player.token.encode(),
                      hashlib.sha256).digest()
    text = base64.b32encode(digest).decode()[:15]
    return f"{text[:5]}-{text[5:10]}-{text[10:15]}"


def codes_in(*texts: str) -> list[str]:
    found = []
    for text in texts:
        found.extend(m.group(1).upper() for m in CODE.finditer(text or ""))
    return found


def masked(text: str, moderator_secret: str | None = None) -> str:
    """A text with every mail code (and the moderator's secret) replaced by [code]: for the log,
    the review list and notices to the moderator."""
    text = CODE.sub(lambda m: m.group(0) if m.group(0) == PLACEHOLDER else MASK, text or "")
    if moderator_secret:
        text = text.replace(moderator_secret, MASK)
    return text


@dataclass
class Sender:
    role: str                        # 'player', 'moderator' or 'refused'
    game_id: str | None = None
    player: str | None = None
    email: str | None = None         # the player's registered address (replies go there)
    reason: str = ""                 # why it was refused, for the moderator (review list)
    command: str = ""                # what the subject (or first line) asks beside orders
    code_on_first_line: bool = False
    code_quoted: bool = False        # the code was found only in the quoted text of a reply
    told: str = ""                   # what the sender is told (default: the reason)

    @property
    def answer(self) -> str:
        """What the refusal mailed to the sender says: never whether a code it carries
        belongs to anybody (docs/security.md, Mail)."""
        return self.told or self.reason


COMMANDS = ("options", "pending", "resend", "address", "help", "wait", "nowait")
ALONE = ("wait", "nowait")
"""Commands that count only as the single word beside the code (a subject 'CODE wait for me'
is no request)."""


REPLY_PREFIXES = re.compile(r"^\s*((re|aw|antw|sv|vs|odp|rif|r|res|ynt|fwd?|fw|wg|tr|rv|enc|"
                            r"i|vl|doorst|vb)\s*(\[\d+\])?\s*:\s*)+", re.I)
"""What mail programs put before a subject they answer or forward, in the common languages:
Re, AW and WG (German), Antw and Doorst (Dutch), SV (Scandinavian), VS (Finnish), Odp
(Polish), R, RIF and I (Italian), RES and ENC (Portuguese), RV (Spanish), TR (French), YNT
(Turkish), Fw/Fwd, VL and VB; 'Re[2]:' too."""


def command_of(subject: str, first_line: str) -> str:
    """A player's command word (after the code is taken out): options, pending, resend,
    address NEW, help, wait, nowait; '' for orders. On the first line only beside the code (an
    order line is never taken for a command)."""
    for text in (subject, first_line if CODE.search(first_line or "") else ""):
        rest = CODE.sub(" ", text or "")
        rest = REPLY_PREFIXES.sub("", rest)
        words = rest.split()
        words = [w for w in words if not w.startswith("[")]
        if words and words[0].lower().strip(":") in ALONE and len(words) > 1:
            continue
        if words and words[0].lower().strip(":") in COMMANDS:
            return " ".join(words[:2]) if words[0].lower().startswith("address") else \
                words[0].lower().strip(":")
    return ""


def identify(store, parsed, config) -> Sender:
    """Match a parsed message to the moderator, a game's player, or a refusal."""
    sender = parsed.sender
    if not sender:
        return Sender("refused", reason="the message has no sender address (From:)")
    secret = config.moderator_secret() if config.moderator else None
    if config.moderator and sender == config.moderator.lower():
        words = (parsed.subject + " " + parsed.first_line).split()
        if secret and any(hmac.compare_digest(w.encode(), secret.encode()) for w in words):
            return Sender("moderator", email=config.moderator)
    codes = codes_in(parsed.subject, parsed.first_line)
    mine = []          # (game, player) registered at this address
    everyone = []      # (game, player, code) of every game
    from companion.errors import CompanionError

    for game_id in store.game_ids():
        try:
            game = store.game(game_id)
        except CompanionError:
            continue                    # a damaged game: 'mail run' says so for that game
        for p in game.players:
            code = mail_code(game, p)
            everyone.append((game, p, code))
            if p.email and p.email.lower() == sender:
                mine.append((game, p, code))
    command = command_of(parsed.subject, parsed.first_line)
    on_first = bool(codes_in(parsed.first_line)) and not codes_in(parsed.subject)
    for game, p, code in mine:
        if any(hmac.compare_digest(code, c) for c in codes):
            return Sender("player", game.id, p.name, p.email, command=command,
                          code_on_first_line=on_first)
    if not codes and mine:
        # a reply to a report (or to another mail companion sent this address) quotes the
        # player's code: it counts when it is the code of exactly one seat registered at the
        # sender's address; the address and the code are required as ever
        quoted = codes_in(parsed.text)
        seats = [(game, p) for game, p, code in mine
                 if any(hmac.compare_digest(code, c) for c in quoted)]
        if len(seats) == 1:
            game, p = seats[0]
            return Sender("player", game.id, p.name, p.email, command=command,
                          code_quoted=True)
    if config.moderator and sender == config.moderator.lower():
        return Sender("refused", reason="a message from the moderator's address without the "
                                        "moderator's secret (or with a wrong one) in the "
                                        "subject or on the first line")
    if codes and command.startswith("address"):
        # a player moving to a new address writes from it, with their code
        for game, p, code in everyone:
            if any(hmac.compare_digest(code, c) for c in codes):
                return Sender("player", game.id, p.name, p.email, command=command,
                              code_on_first_line=on_first)
    # What a sender is told never depends on whether a code in the message belongs to
    # anybody: the same answer for a live code, a dead one and none (docs/security.md, Mail).
    # The reason (the review list, the moderator's notice) says which it was.
    live = [(game, p) for game, p, code in everyone
            if any(hmac.compare_digest(code, c) for c in codes)]
    if not mine:
        told = (f"the address {sender} is not registered for any game here: orders and "
                "requests are read only from the address the moderator registered for a "
                "player, with that player's code (a player who moved writes 'CODE address' "
                "from the new address)")
        if live:
            game, p = live[0]
            return Sender("refused", told=told,
                          reason=f"the code in this message does not belong to the address "
                                 f"{sender}; orders are accepted only from the address "
                                 f"registered for the code (it is the live code of "
                                 f"{p.name} in game {game.id}: if {p.name} did not send "
                                 f"this, 'companion token {game.id} \"{p.name}\"' gives "
                                 f"them a new one; if it is their new address, 'companion game "
                                 f"address {game.id} \"{p.name}\" {sender} --quiet' "
                                 "registers it)")
        return Sender("refused", reason=f"the address {sender} is not registered for any game "
                                        "here" + (" (the code in it is nobody's)" if codes
                                                  else ""), told=told)
    if not codes:
        return Sender("refused", reason="the message carries no code: put the code from your "
                                        "last report (XXXXX-XXXXX-XXXXX) in the subject or on "
                                        "the first line, or answer the mail of your latest "
                                        "report with it quoted below your orders")
    told = (f"the code in this message is not the code of the player registered at {sender}: "
            "it may be mistyped, out of date (a new code comes with every new link the "
            "moderator issues), or another player's; use the code from the latest report "
            f"mailed to {sender}, or ask the moderator to send that report again")
    if any(near(code, c) for _, _, code in mine for c in codes):
        told += (". The code you sent differs from yours in one or two characters: compare "
                 "it with your report")
    if live:
        return Sender("refused", reason="the code in this message is not yours: orders are "
                                        "accepted only with the code of the player registered "
                                        f"at {sender}", told=told)
    return Sender("refused", reason="the code in this message is wrong (or out of date: a new "
                                    "link was issued); use the code from your latest report",
                  told=told)


def near(code: str, sent: str) -> bool:
    """Whether ``sent`` differs from ``code`` in one or two characters (a typo); equal codes
    are not near. Said only to the address registered for ``code``."""
    different = sum(a != b for a, b in zip(code, sent)) + abs(len(code) - len(sent))
    return 0 < different <= 2
