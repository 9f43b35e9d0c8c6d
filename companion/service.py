"""The moderator's operations, shared by the command line and the tests.

Every operation either completes or changes nothing: orders are validated before they are
stored, a turn is computed and its reports rendered before the one transaction that stores it.
Publishing the reports is part of the turn's durable work: a turn committed without its reports
in place (the process died between the two) is found and published by the next ``turn``,
``report`` or ``replay``.
"""
from __future__ import annotations

import datetime as _dt
import hmac
import os
import re
import shutil
from dataclasses import field
from pathlib import Path
from typing import Any, Callable, Sequence

from companion.engine.canon import GENESIS_HASH, canonical_json, deep_copy, sha256_hex
from companion.engine.chance import Chance, seed_key
from companion.engine.game import MODERATOR, PUBLIC, TurnContext, parse_option_args, resolve_options
from companion.engine.identity import (IdentityError, check_email, check_game_id,
                                       check_player_name, inside, new_secret, new_token,
                                       player_slugs)
from companion.engine.names import fold, match_name
from companion.engine.record import record
from companion.engine.words import counted
from companion.errors import CompanionError, StoreError, TurnMovedOn
from companion.registry import get_kind, info
from companion.store import TURN_COLUMNS, Game, Player, Store, Turn

DEFAULT_BASE_URL = "companion:/"
WITHDRAW = "withdraw"
"""The one line that withdraws a player's pending orders on purpose."""
RACE_ATTEMPTS = 5
"""How often orders or a turn are worked out again when another process changed the game
between reading it and writing (see :class:`companion.errors.TurnMovedOn`)."""
__all__ = ["check_game_id", "check_player_name"]


# ----------------------------------------------------------------------------------- helpers
def now_text() -> str:
    """The processing time: SOURCE_DATE_EPOCH if set (reproducible runs), else the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        if not epoch.strip().isascii() or not epoch.strip().isdigit() or len(epoch) > 12:
            raise CompanionError(f"SOURCE_DATE_EPOCH={epoch!r} is not a whole number of seconds")
        moment = _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)
    else:
        moment = _dt.datetime.now(_dt.timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def parse_player_arg(text: str) -> tuple[str, str | None]:
    """``'Anna'`` or ``'Anna <anna@example.org>'`` -> (name, email)."""
    m = re.fullmatch(r"\s*(.*?)\s*<\s*([^<>\s]+@[^<>\s]+)\s*>\s*", text)
    if m and m.group(1):
        return m.group(1), m.group(2)
    return text.strip(), None


def link(game: Game, turn: int, viewer: str, state_hash_hex: str) -> str:
    base = game.base_url
    if base.endswith("/") and not base.endswith(":/"):
        base = base[:-1]
    if viewer == PUBLIC:
        view = "public"
    else:
        p = game.player(viewer)
        view = f"{p.slug}.{p.token}"
    return f"{base}/{game.id}/{turn}/{view}?h={state_hash_hex[:16]}"


def resolve_player(game: Game, typed: str) -> str:
    names = [p.name for p in game.players]
    found = match_name(typed, names)
    if found.ok:
        return found.name
    if found.ambiguous:
        raise CompanionError(f"'{typed}' could be any of these players: "
                             f"{', '.join(found.candidates)}", hint="type more of the name")
    hint = ("did you mean " + " or ".join(f"'{s}'" for s in found.suggestions) + "?"
            if found.suggestions else f"players of {game.id}: {', '.join(names)}")
    raise CompanionError(f"'{typed}' is not a player of game {game.id}", hint=hint)


def read_text_file(path: str) -> tuple[str, str]:
    """Read an orders or setup file (``-`` reads standard input); returns (text, display name)."""
    if path == "-":
        import sys

        if sys.stdin.isatty():      # typed at the terminal: say what it waits for
            print("reading from standard input: type or paste the text, then Ctrl-D on a line "
                  "of its own (Ctrl-Z and Enter on Windows)", file=sys.stderr, flush=True)
        return decode_text(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CompanionError(f"file not found: {path}",
                             hint=f"a relative path starts in the current folder ({Path.cwd()}); "
                                  "'-' reads standard input") from None
    except IsADirectoryError:
        raise CompanionError(f"{path} is a folder, not a file") from None
    except OSError as exc:
        raise CompanionError(f"cannot read {path}: {exc.strerror}") from None
    return decode_text(raw, path), path


def decode_text(raw: bytes, name: str) -> str:
    """Text from bytes: UTF-8 (with or without a byte-order mark) or UTF-16 with its mark."""
    import codecs

    if raw.lstrip()[:5] == b"%PDF-":
        raise CompanionError(f"{name} is a PDF, not a text file",
                             hint="give the plain-text file: a report's .txt beside its .pdf, "
                                  "or orders typed or pasted as text")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding, what = "utf-16", "UTF-16"
    else:
        encoding, what = "utf-8-sig", "UTF-8"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode(encoding, "replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise CompanionError(f"{name}:{line}:{col}: the file is not {what} text (byte "
                             f"0x{raw[exc.start]:02x})",
                             hint="save it as UTF-8 (plain text); UTF-16 needs its byte-order "
                                  "mark") from None
    if "\0" in text:
        before = text[: text.index("\0")]
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise CompanionError(f"{name}:{line}:{col}: the file holds a NUL character; it is not "
                             "a text file", hint="save it as UTF-8 (plain text)")
    return text


# ----------------------------------------------------------------------------------- games
@record
class TurnOutcome:
    game_id: str
    turn: int
    public: list[str]
    awaiting: list[str]
    asked: list[str]
    over: bool
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recovered: list[int] = field(default_factory=list)
    """Turns stored by an interrupted run whose reports this run wrote (no new turn then)."""
    progress: str | None = None
    """The game's own count after the turn (``GameKind.progress``), when it has one."""


def new_game(store: Store, kind_id: str, game_id: str, player_args: Sequence[str], *,
             seed: str | None = None, option_args: Sequence[str] = (),
             setup: str | None = None, base_url: str | None = None,
             output: Path | None = None) -> TurnOutcome:
    entry = info(kind_id)
    kind = get_kind(entry.id)
    if not kind.playable:
        raise CompanionError(f"{entry.title} cannot be played here yet: its rules engine is not "
                             "built", hint=f"its data, charts and printables are available: "
                                          f"companion data export {entry.id}, companion print "
                                          f"{entry.id}")
    check_game_id(game_id)
    if store.has_game(game_id):
        raise StoreError(f"a game '{game_id}' already exists in {store.path}",
                         hint="choose another GAME_ID")
    players_given = [parse_player_arg(p) for p in player_args]
    setup_text = None
    if setup is not None:
        setup_text, setup_name = read_text_file(setup)
    raw_options = parse_option_args(option_args)
    names = [n for n, _ in players_given]
    if setup_text is not None:
        # the position names the players; --player may repeat them (and add emails)
        probe = setup_players_of(kind, entry, setup_text, setup_name, raw_options)
        if names and [n.casefold() for n in names] != [n.casefold() for n in probe]:
            raise CompanionError(f"--player gives {', '.join(names)} but {setup_name} has the "
                                 f"players {', '.join(probe)}",
                                 hint="leave out --player, or give the same names in order")
        names = probe or names
    if not names:
        raise CompanionError("a game needs players", hint="add --player NAME for each player")
    if not entry.min_players <= len(names) <= entry.max_players:
        raise CompanionError(f"{entry.title} is for {entry.min_players} to {entry.max_players} "
                             f"players; {len(names)} given")
    slugs = player_slugs(names)
    for name, email in players_given:
        check_email(email, f"the email address of {name}", new=True)
    options = resolve_options(kind.option_specs, raw_options, names)
    if seed is None:
        import secrets   # here, not at the top: the quick commands never need it

        seed = str(secrets.randbits(128))
    elif not seed.strip():
        raise CompanionError("--seed is empty")
    if setup_text is None and hasattr(kind, "check_players"):
        kind.check_players(names, options)
    emails = dict(players_given)
    game = Game(game_id, entry.id, seed, options, base_url or DEFAULT_BASE_URL, now_text(),
                setup_text, [Player(i, n, slugs[n], emails.get(n), new_token(f"{game_id}/{n}"))
                             for i, n in enumerate(names)], secret=new_secret(game_id))
    chance = Chance(seed_key(seed), 0)
    state, ctx = opening(kind, game, chance, setup_name if setup_text is not None else "setup")
    setup_digest = sha256_hex(setup_text) if setup_text is not None else None
    turn0 = Turn.sealed(game_id, 0, game.created_at, state, GENESIS_HASH,
                        {"submissions": [], "dice": [], "setup": setup_text is not None,
                         "setup_sha256": setup_digest,
                         **({"edition": kind.edition} if kind.edition else {})},
                        ctx.decisions, chance.to_json(), ctx.events)
    files: list[Path] = []
    staged = None
    if output is not None:
        staged = stage_reports(game, turn0, output)
    try:
        store.create_game(game, turn0)
    except BaseException:
        discard(staged)
        raise
    if staged is not None:
        files = publish(staged, output, game.id, 0)
        store.mark_published(game.id, 0)
    return TurnOutcome(game_id, 0, [], kind.awaited(state), kind.awaited(state),
                       kind.is_over(state), files)


def setup_players_of(kind, entry, text: str, filename: str, raw_options: dict) -> list[str]:
    """The players a setup position names, checked as 'new' checks names. When the position
    names none that can be used, its reader is asked to read it: its errors say what is wrong
    and where (file, line, column)."""
    from companion.errors import DataError

    probe = kind.setup_players(text)
    problem = None
    try:
        if not probe:
            raise IdentityError("the position names no players")
        player_slugs(probe)
        if not entry.min_players <= len(probe) <= entry.max_players:
            raise IdentityError(f"{entry.title} is for {entry.min_players} to "
                                f"{entry.max_players} players; the position names {len(probe)}")
        return probe
    except IdentityError as exc:
        problem = exc
    for attempt in (raw_options, {}):
        try:
            options = resolve_options(kind.option_specs, attempt, probe)
        except CompanionError:
            continue
        kind.read_position(text, filename, options)    # raises its located errors
        break
    # the reader found nothing to say: point at the first bad name, or at the start
    line, col = 1, 1
    for name in probe:
        at = text.find(name)
        if at >= 0:
            line = text.count("\n", 0, at) + 1
            col = at - (text.rfind("\n", 0, at) + 1) + 1
            break
    raise DataError(problem.message, path=filename, line=line, column=col,
                    hint=problem.hint or "a position names its players in seat order (see "
                                         "the game's docs page for its format)")


def opening(kind, game: Game, chance: Chance, setup_name: str = "setup",
            edition: int | None = None) -> tuple[dict, TurnContext]:
    """Turn 0 of a game: its setup position read, or a new game created with ``chance``,
    under the rules ``edition`` (the kind's current one for a new game; a replay passes the
    one turn 0 recorded)."""
    if game.setup is not None:
        state = kind.read_position(game.setup, setup_name, game.options)
    else:
        state = kind.create([p.name for p in game.players], game.options, chance)
    edition = kind.edition if edition is None else edition
    if edition:
        state["edition"] = edition
    ctx = TurnContext(turn=0, key=seed_key(game.seed), chance=chance, orders={},
                      options=game.options, secret=game.secret_key)
    state["events"] = []
    kind.finish_turn(state, ctx)
    return state, ctx


# ----------------------------------------------------------------------------------- orders
@record
class OrdersResult:
    player: str
    understood: list[str]
    submission_id: int | None = None
    replaced: bool = False
    withdrawn: bool = False
    checked_turn: int | None = None     # the number of the turn the orders were checked against


def is_withdrawal(text: str) -> bool:
    """A text of the one line 'withdraw' (as a phone may leave it too: 'Withdraw.', 'withdraw
    please')."""
    from companion.engine.orders import forgiving, order_lines

    lines = order_lines(text)
    if len(lines) != 1:
        return False
    if fold(lines[0].raw.split("#", 1)[0]) == WITHDRAW:
        return True
    second = forgiving(lines[0])
    return second is not None and [t.key for t in second.tokens] == [WITHDRAW]


def check_orders(store: Store, game_id: str, player_typed: str, text: str,
                 filename: str) -> OrdersResult:
    from companion.engine.orders import order_lines

    game = store.game(game_id)
    player = resolve_player(game, player_typed)
    kind = get_kind(game.kind)
    last = store.turn(game_id)
    state = last.state
    if is_withdrawal(text):
        return OrdersResult(player, ["withdraw: your pending orders are withdrawn; nothing is "
                                     "submitted for you"], checked_turn=last.number)
    if not order_lines(text):
        what = "is empty" if not text.strip() else "holds no order lines (only comments, " \
                                                    "quoted email text or a signature)"
        raise CompanionError(f"{filename}:1:1: the order file {what}; nothing was changed",
                             hint=f"to withdraw your earlier orders on purpose, send a single "
                                  f"line '{WITHDRAW}'")
    validate_orders(kind, state, player, text, filename)
    orders = kind.parse_orders(state, player, text, filename)
    return OrdersResult(player, kind.acknowledge(state, player, orders), checked_turn=last.number)


def validate_orders(kind, state: dict, player: str, text: str, filename: str) -> None:
    """Parse and check an order text; raise one OrdersRejected listing every error of the file
    (syntax, names and legality together)."""
    from companion.engine.orders import OrdersRejected, control_characters

    errors = control_characters(text)
    if errors:
        raise OrdersRejected(errors, filename)
    try:
        orders = kind.parse_orders(state, player, text, filename)
    except OrdersRejected as rejected:
        errors.extend(rejected.errors)
        orders = rejected.partial
    if orders is not None:
        try:
            kind.check_orders(state, player, orders, filename)
        except OrdersRejected as rejected:
            errors.extend(rejected.errors)
    if errors:
        raise OrdersRejected(errors, filename)


def submit_orders(store: Store, game_id: str, player_typed: str, text: str,
                  filename: str) -> OrdersResult:
    """Check orders and store them for the next turn. The store refuses them when a turn was
    processed (by another process) between the check and the storing; they are then checked
    again against the new turn, so stored orders always fit the turn they wait for."""
    for _attempt in range(RACE_ATTEMPTS):
        result = check_orders(store, game_id, player_typed, text, filename)
        replaced = result.player in store.pending(game_id)
        withdraw = is_withdrawal(text)
        if withdraw and not replaced:
            raise CompanionError(f"{result.player} has no pending orders to withdraw in game "
                                 f"{game_id}; nothing was changed")
        try:
            result.submission_id = store.submit(game_id, result.player, result.checked_turn + 1,
                                                text, now_text(), withdraw=withdraw,
                                                expect_latest=result.checked_turn)
        except TurnMovedOn:
            continue
        result.replaced = replaced
        result.withdrawn = withdraw
        return result
    raise StoreError(f"game {game_id} kept changing while the orders of {player_typed} were "
                     "being stored; nothing was changed", hint="send them again")


def pending_orders(store: Store, game_id: str, player_typed: str | None = None
                   ) -> list[dict[str, Any]]:
    """What each player (or the one named) has pending for the next turn, for the moderator
    ('companion orders show', the moderator's page): player, turn, submission, when, the
    text, and how it is understood (None when the player has nothing pending)."""
    game = store.game(game_id)
    names = [resolve_player(game, player_typed)] if player_typed else \
        [p.name for p in game.players]
    pending = store.pending(game_id)
    last = store.turn(game_id)
    kind = get_kind(game.kind)
    out = []
    for name in names:
        entry: dict[str, Any] = {"player": name, "turn": last.number + 1, "submission": None,
                                 "submitted_at": None, "text": None, "understood": None}
        sub = pending.get(name)
        if sub is not None:
            entry.update(submission=sub.id, submitted_at=sub.submitted_at, text=sub.text)
            try:
                orders = kind.parse_orders(last.state, name, sub.text, "orders")
                entry["understood"] = kind.acknowledge(last.state, name, orders)
            except CompanionError as exc:       # cannot happen to stored orders; said if so
                entry["understood"] = [f"not readable now: {exc.message}"]
        out.append(entry)
    return out


def legal_options(store: Store, game_id: str, player_typed: str) -> list[str]:
    game = store.game(game_id)
    player = resolve_player(game, player_typed)
    kind = get_kind(game.kind)
    return kind.options_for(store.turn(game_id).state, player)


def why_no_options(store: Store, game_id: str, player_typed: str) -> str:
    """Why PLAYER has no order lines now: the game is over, or whom it waits for instead."""
    game = store.game(game_id)
    player = resolve_player(game, player_typed)
    kind = get_kind(game.kind)
    state = store.turn(game_id).state
    if kind.is_over(state):
        return "the game is over"
    awaited = kind.awaited(state)
    if player in awaited:
        return f"the game waits for {player}, but what it asks has no lines to list"
    if awaited:
        return f"nothing is asked of {player} now; the game waits for {', '.join(awaited)}"
    return f"nothing is asked of {player} now"


# ----------------------------------------------------------------------------------- turns
def compute_turn(kind, game: Game, last: Turn, submissions: dict[str, dict[str, Any]],
                 *, dice: Sequence[int] = (), replay_chance: list[dict] | None = None,
                 strict: bool = True) -> tuple[dict, TurnContext]:
    """Process one turn from the previous state and the submissions (pure: stores nothing)."""
    state = deep_copy(last.state)
    key = seed_key(game.seed)
    number = last.number + 1
    orders = {}
    for player, sub in submissions.items():
        orders[player] = kind.parse_orders(state, player, sub["text"],
                                           f"orders of {player} (submission {sub.get('id')})")
    chance = Chance(key, number, dice=dice, replay=replay_chance)
    ctx = TurnContext(turn=number, key=key, chance=chance, orders=orders, options=game.options,
                      secret=game.secret_key)
    kind.process(state, ctx)
    kind.finish_turn(state, ctx)
    if replay_chance is not None:
        chance.check_replay_complete()
    return state, ctx


def run_turn(store: Store, game_id: str, *, dice: Sequence[int] = (),
             output: Path | None = None, crash_hook=None) -> TurnOutcome:
    game = store.game(game_id)
    kind = get_kind(game.kind)
    recovered = publish_missing(store, game, output) if output is not None else []
    last = store.turn(game_id)
    if recovered:
        # an earlier run stored this turn and died before its reports were in place: finish
        # that run's work and stop, so one 'turn' never processes two turns
        state = last.state
        return TurnOutcome(game_id, last.number, [e["text"] for e in last.events
                                                  if e["to"] == PUBLIC],
                           [], kind.awaited(state), kind.is_over(state),
                           sorted(inside(game_folder(output, game), f"turn-{last.number:03d}")
                                  .iterdir()),
                           recovered=recovered)
    if kind.is_over(last.state):
        raise CompanionError(f"game {game_id} is over; there is no turn to process")
    for attempt in range(RACE_ATTEMPTS):
        pending = store.pending(game_id)
        submissions = {p: {"id": s.id, "text": s.text, "submitted_at": s.submitted_at,
                           "for_turn": s.for_turn} for p, s in pending.items()}
        state, ctx = compute_turn(kind, game, last, submissions, dice=dice)
        if not ctx.decisions and not ctx.used:
            raise CompanionError(f"nothing to adjudicate in game {game_id}: the game waits for "
                                 f"orders from {', '.join(ctx.awaiting) or 'nobody'}",
                                 hint="the game's options make it wait for these orders "
                                      "(missing=wait or the like): when a player does not "
                                      "answer, the moderator may send orders for them "
                                      f"('companion options {game_id} PLAYER' lists them; "
                                      f"'companion orders submit {game_id} PLAYER FILE')")
        number = last.number + 1
        inputs = {"submissions": [dict(sub, player=p, used=p in ctx.used)
                                  for p, sub in submissions.items()],
                  "dice": list(dice)}
        turn = Turn.sealed(game_id, number, now_text(), state, last.hash, inputs, ctx.decisions,
                           ctx.chance.to_json(), ctx.events)
        staged = None
        if output is not None:
            extras = extra_files(kind, game, turn, lambda: store.turns(game_id) + [turn])
            staged = stage_reports(game, turn, output, extras)
        used = {p: submissions[p]["id"] for p in ctx.used if p in submissions}
        try:
            store.commit_turn(turn, used, crash_hook=crash_hook,
                              read=[sub["id"] for sub in submissions.values()])
        except TurnMovedOn:
            discard(staged)      # orders arrived meanwhile: the turn is worked out again
            if attempt == RACE_ATTEMPTS - 1:
                raise
            continue
        except BaseException:
            discard(staged)
            raise
        break
    files = []
    if staged is not None:
        files = publish(staged, output, game_id, number)
        store.mark_published(game_id, number)
    notes = []
    if ctx.chance.unused_dice:
        unused = ctx.chance.unused_dice
        notes.append(f"{counted(len(unused), 'supplied die', 'supplied dice')} "
                     f"{'was' if len(unused) == 1 else 'were'} not needed: "
                     f"{', '.join(map(str, unused))}")
    held = [p for p in submissions if p not in ctx.used]
    if held:
        notes.append("orders held for the next turn (not reached yet): " + ", ".join(held))
    public = [e["text"] for e in ctx.events if e["to"] == PUBLIC]
    return TurnOutcome(game_id, number, public, ctx.awaiting, kind.awaited(state),
                       kind.is_over(state), files, notes, progress=kind.progress(state))


# ----------------------------------------------------------------------------------- reports
def viewers(game: Game) -> list[str]:
    return [PUBLIC] + [p.name for p in game.players]


def report_documents(game: Game, turn: Turn, only: str | None = None
                     ) -> dict[str, dict[str, Any]]:
    """The report document of every viewer of a turn (or of the viewer ``only``), each built
    from that viewer's view; a player who can play by mail (``mail_codes``) finds their own
    mail code in theirs, and nobody else's."""
    from companion.fairness import chance_commitment

    kind = get_kind(game.kind)
    commitment = chance_commitment(game)
    codes = mail_codes(game)
    docs = {}
    for viewer in ([only] if only is not None else viewers(game)):
        view = kind.view(turn.state, viewer)
        view["envelope"] = {
            "game_id": game.id, "turn": turn.number, "date": turn.processed_at,
            "link": link(game, turn.number, viewer, turn.hash),
            "link_label": "public link" if viewer == PUBLIC else "your private link",
        }
        docs[viewer] = kind.report(view)
        docs[viewer]["timestamp"] = turn.processed_at     # the PDF's dates
        docs[viewer]["header"] = list(docs[viewer].get("header", [])) + [
            ("Chance commitment", commitment)]
        if viewer in codes:
            docs[viewer]["sections"] = [mail_section(game.player(viewer), codes[viewer])] + \
                list(docs[viewer].get("sections", []))
    return docs


def mail_codes(game: Game) -> dict[str, str]:
    """The mail code of every player who can send orders by mail (docs/mail.md): a player with
    a registered address. Derived from the game's secret and the player's token, so every
    rendering of a report (the turn, 'companion report' again, the web view) shows the same."""
    if not any(p.email for p in game.players):
        return {}
    from companion.mail.identity import mail_code

    return {p.name: mail_code(game, p) for p in game.players if p.email}


def mail_section(player: Player, code: str) -> dict[str, Any]:
    """The 'Orders by mail' section of one player's own report: their code and how to use it."""
    from companion.render.document import para, section

    return section(
        "Orders by mail",
        para(f"Your mail code: {code}"),
        para(f"To play by email, write from {player.email} (the address registered for you) "
             "to the moderator's address, the one your reports are mailed from. Put the code "
             f"in the subject (for example 'orders {code}') or alone on the first line, and "
             "your orders in the body, one per line. Instead of orders, a word after the code "
             "asks for something else: options (the lines open to you), pending (your orders "
             "as they stand), resend (your latest report), help, or address NEW-ADDRESS."),
        para("Keep the code to yourself: with your address it lets a message speak for you. "
             "If it gets out, ask the moderator for a new one."))


def player_files(game: Game, turn: Turn) -> dict[str, bytes]:
    """Each player's own files beside his report (a game kind's ``player_files``), named
    ``<player>.<suffix>``; each built from that player's view with his report's envelope."""
    from companion.engine.game import GameKind
    from companion.fairness import chance_commitment

    kind = get_kind(game.kind)
    if type(kind).player_files is GameKind.player_files:
        return {}
    commitment = chance_commitment(game)
    files = {}
    for player in game.players:
        view = player_view(game, turn, player.name, commitment)
        for suffix, data in kind.player_files(view).items():
            files[f"{player.slug}.{suffix}"] = data
    return files


def player_view(game: Game, turn: Turn, player: str, commitment: str | None = None) -> dict:
    """A player's view of a turn with the envelope of his report (game, turn, date, his
    private link, the chance commitment)."""
    from companion.fairness import chance_commitment

    view = get_kind(game.kind).view(turn.state, player)
    view["envelope"] = {
        "game_id": game.id, "turn": turn.number, "date": turn.processed_at,
        "link": link(game, turn.number, player, turn.hash), "link_label": "your private link",
        "commitment": commitment if commitment is not None else chance_commitment(game)}
    return view


def game_folder(output: Path, game: Game | str) -> Path:
    """OUTPUT/GAME_ID, built from a checked id and refused if it would leave OUTPUT."""
    game_id = game if isinstance(game, str) else game.id
    return inside(Path(output), check_game_id(game_id))


STAGING_PREFIX = ".staging-turn-"


def stage_reports(game: Game, turn: Turn, output: Path,
                  extras: dict[str, str] | None = None) -> Path:
    """Render every report of a turn (and any extra files) into a fresh hidden folder beside the
    final one; ``publish`` then moves it into place."""
    from companion.render.report_pdf import render_pdfs
    from companion.render.report_text import render_text

    base = game_folder(output, game)
    try:
        base.mkdir(parents=True, exist_ok=True)
        base = inside(Path(output), game.id)    # again, now that it exists (symbolic links)
        import tempfile   # here, not at the top: the quick commands never need it

        staged = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{turn.number:03d}-", dir=base))
    except OSError as exc:
        raise output_failure(base, exc) from None
    try:
        docs = report_documents(game, turn)
        pdfs = render_pdfs(list(docs.values()))     # in parallel where that pays
        for (viewer, doc), pdf in zip(docs.items(), pdfs):
            name = "public" if viewer == PUBLIC else game.player(viewer).slug
            inside(staged, f"{name}.pdf").write_bytes(pdf)
            inside(staged, f"{name}.txt").write_text(render_text(doc), encoding="utf-8")
        for name, content in (extras or {}).items():
            inside(staged, name).write_text(content, encoding="utf-8")
        for name, data in player_files(game, turn).items():
            inside(staged, name).write_bytes(data)
    except BaseException as exc:
        discard(staged)
        if isinstance(exc, OSError):
            raise output_failure(staged, exc) from None
        raise
    return staged


def output_failure(where: Path, exc: OSError) -> CompanionError:
    import errno

    reason = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.EDQUOT: "the disk quota is used up"}.get(exc.errno, exc.strerror or str(exc))
    return CompanionError(f"cannot write reports in {where}: {reason}; no turn was stored and "
                          "no report replaced", hint="fix that and run the command again (or "
                                                     "give another folder with --output)")


def discard(staged: Path | None) -> None:
    if staged is not None:
        shutil.rmtree(staged, ignore_errors=True)


def extra_files(kind, game: Game, turn: Turn, record: Callable[[], list[Turn]]
                ) -> dict[str, str]:
    """Files that need the whole record, written when a game is over: the chance disclosure
    (docs/fairness.md), and a game's own (the sealed Gral sheets). ``record`` gives every turn
    up to ``turn``; it is called only when the game is over, so a turn of a running game costs
    the same at turn 60 as at turn 1."""
    from companion import fairness

    if not kind.is_over(turn.state):
        return {}
    turns = record()
    files = {fairness.FILE_NAME: fairness.to_text(fairness.disclosure(game, turns))}
    if hasattr(kind, "disclosure"):
        files["disclosure.json"] = canonical_json(kind.disclosure(game, turns)) + "\n"
    return files


def publish(staged: Path, output: Path, game_id: str, number: int) -> list[Path]:
    """Put a staged turn folder in place of OUTPUT/GAME_ID/turn-NNN (replacing an older one)."""
    final = inside(game_folder(output, game_id), f"turn-{number:03d}")
    try:
        if final.exists():
            old = final.with_name(final.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            final.rename(old)
            staged.rename(final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staged.rename(final)
    except OSError as exc:
        discard(staged)
        raise CompanionError(f"cannot put the reports in place at {final}: "
                             f"{exc.strerror or exc}",
                             hint="fix that and run 'companion report' (the turn itself is "
                                  "stored)") from None
    return sorted(final.iterdir())


def clean_staging(output: Path, game_id: str) -> None:
    """Remove what interrupted runs left in a game's output folder: staging folders and turn
    folders set aside while being replaced."""
    base = game_folder(output, game_id)
    if not base.is_dir():
        return
    for entry in sorted(base.iterdir()):
        if entry.is_dir() and not entry.is_symlink() and (
                entry.name.startswith(STAGING_PREFIX) or entry.name.startswith(".turn-")
                or (entry.name.startswith("turn-") and entry.name.endswith(".old"))):
            shutil.rmtree(entry, ignore_errors=True)


def set_aside_rewound(store: Store, game: Game, output: Path) -> list[Path]:
    """Move the report folders of turns taken back (numbered beyond the latest turn) to
    OUTPUT/GAME/rewound/turn-NNN-HASH12, so that a turn run again never replaces them. Called
    after ``rewind`` commits and before any turn's reports are put in place, so a crash in
    between (or a rewind by mail, inside its transaction) is tidied by the next run."""
    base = game_folder(output, game)
    latest = store.latest_number(game.id)
    if latest is None or not base.is_dir():
        return []
    moved: list[Path] = []
    # only the numbers taken back and not run again: the work does not grow with the game
    for (number,) in store.db.execute("SELECT DISTINCT number FROM rewound_turns WHERE "
                                      "game_id=? AND number>? ORDER BY number",
                                      (game.id, latest)).fetchall():
        entry = inside(base, f"turn-{number:03d}")
        if not entry.is_dir() or entry.is_symlink():
            continue
        hashes = store.rewound_hashes(game.id, number)
        name = f"turn-{number:03d}-{hashes[-1][:12]}"
        target = inside(base, "rewound", name)
        again = 1
        while target.exists():          # the same turn taken back once more
            again += 1
            target = inside(base, "rewound", f"{name}-{again}")
        target.parent.mkdir(parents=True, exist_ok=True)
        entry.rename(target)
        moved.append(target)
    return moved


def publish_missing(store: Store, game: Game, output: Path) -> list[int]:
    """Publish the reports of every turn committed without them; clean up leftovers of
    interrupted runs. Returns the turns published."""
    clean_staging(output, game.id)
    set_aside_rewound(store, game, output)
    missing = store.unpublished(game.id)
    if missing:
        kind = get_kind(game.kind)
        for number in missing:
            turn = store.turn(game.id, number)
            extras = extra_files(kind, game, turn,
                                 lambda n=number: store.turns(game.id)[: n + 1])
            staged = stage_reports(game, turn, output, extras)
            publish(staged, output, game.id, number)
            store.mark_published(game.id, number)
    return missing


def render_reports(store: Store, game_id: str, number: int | None, output: Path) -> list[Path]:
    game = store.game(game_id)
    publish_missing(store, game, output)
    turn = store.turn(game_id, number)
    kind = get_kind(game.kind)
    extras = extra_files(kind, game, turn,
                         lambda: store.turns(game_id)[: turn.number + 1])
    staged = stage_reports(game, turn, output, extras)
    files = publish(staged, output, game_id, turn.number)
    store.mark_published(game_id, turn.number)
    return files


def set_base_url(store: Store, game_id: str, url: str) -> str:
    """Change the start of a game's links (``companion game set GAME base-url URL``): the
    reports written from now on carry it (the latest turn's reports are not rewritten here)."""
    from companion.store import check_game

    game = store.game(game_id)
    game.base_url = url.strip()
    try:
        if not game.base_url:
            raise IdentityError("the base URL is empty")
        check_game(game, f"game {game_id}")
    except IdentityError as exc:
        raise CompanionError(exc.message, hint="give a URL such as https://pbem.example.org "
                             "(no spaces, no '?' or '#')") from None
    with store.transaction() as db:
        db.execute("UPDATE games SET base_url=? WHERE id=?", (game.base_url, game_id))
    return game.base_url


def change_address(store: Store, game_id: str, player_typed: str, address: str,
                   source: str = "moderator: companion game address") -> tuple[str, str | None,
                                                                               str | None]:
    """Give a player a new email address (``none``: no address, so no mail): a player who
    moved, or somebody taking over the seat (then give a new token too). Recorded in
    ``mail_address_changes``, announced to nobody (:func:`change_seat_address` announces a new
    player). Returns (player, old address, new address)."""
    done = change_seat_address(store, game_id, player_typed, address, source, announce=False)
    return done.player, done.old, done.new


def change_seat_address(store: Store, game_id: str, player_typed: str, address: str,
                        source: str = "moderator: companion game address", *,
                        quiet: bool = False, announce: bool = True):
    """``companion game address``: as :func:`change_address`, and a seat given to a new player
    in a game under way is announced to the other players by the next mail pass, once
    (``quiet``: a correction, nobody is told of it nor of the seat's change not told yet;
    :mod:`companion.mail.seats`). Returns the :class:`companion.mail.seats.SeatChange`."""
    from companion.mail import seats
    from companion.mail.outbox import now_text

    game = store.game(game_id)
    name = resolve_player(game, player_typed)
    new: str | None = address.strip()
    if new.lower() in ("none", "-", ""):
        new = None
    else:
        try:
            check_email(new, "the new address", new=True)
        except IdentityError as exc:
            raise CompanionError(exc.message, hint="give an address such as "
                                 "name@example.org, or 'none' for no mail") from None
    player = game.player(name)
    with store.transaction() as db:
        return seats.change(store, db, game, player, new, now_text(), source, quiet=quiet,
                            announce=announce)


@record
class Rewound:
    to: int
    numbers: list[int]
    pending: list[str]           # players whose orders for turn to+1 are pending again
    moved: list[Path]            # the report folders of the turns taken back, now here
    held: bool = False           # a play-by-email game, held until released


def rewind_span(store: Store, game_id: str, to: int) -> list[int]:
    """The turns ``rewind`` to ``to`` would take back (``to``+1 to the latest), or a
    CompanionError saying why there are none (the one check of the command line, of the
    moderator's mail and of :func:`rewind`)."""
    store.game(game_id)                 # an unknown game is said as such
    latest = store.turn(game_id).number
    if not (0 <= to < latest):
        raise CompanionError(f"game {game_id} has turns 0 to {latest}; turn {to} is "
                             + ("its latest: nothing comes after it" if to == latest else
                                "not one of them"),
                             hint=(f"give a turn from 0 to {latest - 1}" if latest > 1 else
                                   "give turn 0 (to take back turn 1)") if latest else
                             "a game at turn 0 has nothing to take back")
    return list(range(to + 1, latest + 1))


def rewind(store: Store, game_id: str, to: int, output: Path | None, reason: str = "",
           db=None, expect_latest: int | None = None) -> Rewound:
    """Take back every turn after ``to`` (``companion rewind``): the orders late to a turn, a
    moderator's mistake. Nothing is lost: the turns are kept whole in the store
    (``rewound_turns``), with when and why; the orders that were pending when turn ``to+1``
    ran (those it used and those it held for later) are pending again, so that running the
    turn again (with orders added or changed) takes them; the reports written
    for the turns taken back move to OUTPUT/GAME/rewound/; a play-by-email game is held until
    the moderator releases it. The dice of a turn run again are the same as before where the
    same draws are made (the seed decides them; ``turn --dice`` gives others). With ``db``,
    inside the caller's transaction (the moderator's command by mail); with ``expect_latest``,
    only while that is the latest turn (the moderator's page, another process running turns)."""
    from companion.mail.outbox import now_text

    game = store.game(game_id)
    rewind_span(store, game_id, to)
    when = now_text()
    reason = reason.strip() or "taken back by the moderator"
    if db is None:
        numbers = store.rewind(game_id, to, when, reason, expect_latest)
        moved = set_aside_rewound(store, game, output) if output is not None else []
    else:           # the folders move once the caller commits (the next publish_missing)
        numbers, moved = Store.rewind_in(db, game_id, to, when, reason), []
    held = bool(numbers) and mail_schedule(store, game_id)[1]
    return Rewound(to, numbers, sorted(store.pending(game_id)), moved, held)


def reissue_token(store: Store, game_id: str, player_typed: str,
                  output: Path | None) -> tuple[str, str, list[Path]]:
    """Give a player a new secret token (the old link stops working); the latest turn's reports
    are written again with the new link. Returns (player, new link, files)."""
    game = store.game(game_id)
    name = resolve_player(game, player_typed)
    player = game.player(name)
    player.token = new_token(f"{game_id}/{name}/{player.token}")
    store.set_token(game_id, player.seat, player.token)
    turn = store.turn(game_id)
    files = render_reports(store, game_id, None, output) if output is not None else []
    return name, link(game, turn.number, name, turn.hash), files


# ----------------------------------------------------------------------------------- views
VIEW_WORDS = (PUBLIC, MODERATOR)


def show(store: Store, game_id: str, viewer_typed: str, number: int | None) -> tuple[dict, Any]:
    """A view of a turn. 'public' and 'moderator' name those views (no player's name can fold
    to either: they are reserved); anything else names a player."""
    game = store.game(game_id)
    turn = store.turn(game_id, number)
    viewer = fold(viewer_typed)
    if viewer not in VIEW_WORDS:
        viewer = resolve_player(game, viewer_typed)
    kind = get_kind(game.kind)
    return kind.view(turn.state, viewer), (game, turn, viewer, kind)


def set_schedule(store: Store, game_id: str, when: str | None = None) -> str:
    """Give a game its play-by-email schedule row if it has none (as when 'mail run' first
    sees it: the next pass mails its latest turn's reports), and with ``when`` (as typed:
    ``2026-12-01 18:00``, ``+2d``, ``none``) set the deadline of its next turn. Returns the
    schedule in words. A ``when`` that is not a deadline changes nothing."""
    from companion.mail import deadlines

    moment = deadlines.parse_when(when) if when is not None else None
    with store.transaction() as db:
        latest = Store.latest_in(db, game_id)
        deadlines.ensure(db, game_id, latest)
        if when is not None:
            deadlines.set_deadline(db, game_id, latest, moment)
        return deadlines.describe(deadlines.ensure(db, game_id, latest), latest)


def set_held(store: Store, game_id: str, held: bool) -> bool:
    """Put a play-by-email game on hold or release it (the moderator's page); False when it
    already was so, or is not played by email."""
    from companion.mail.deadlines import set_hold

    with store.transaction() as db:
        return set_hold(db, game_id, held)


def mail_schedule(store: Store, game_id: str) -> tuple[str | None, bool]:
    """The deadline and hold of a game, from the play-by-email tables when the store has them
    (schema 4); (None, False) otherwise. The deadline is that of the turn now awaited: one set
    for a turn that has since been processed counts for nothing, as for the mail pass
    (``deadlines.deadline_for``)."""
    import sqlite3

    try:
        row = store.db.execute("SELECT deadline, deadline_turn, held FROM mail_games "
                               "WHERE game_id=?", (game_id,)).fetchone()
    except sqlite3.Error:
        return None, False
    if row is None:
        return None, False
    deadline, deadline_turn, held = row
    if deadline is not None and deadline_turn != store.latest_number(game_id):
        deadline = None
    return deadline, bool(held)


def game_summaries(store: Store) -> list[dict[str, Any]]:
    """Where each stored game stands, for its moderator ('companion list', the web view's
    moderator page): id, kind, latest turn, state ('running', 'over' or 'on hold'), the
    players whose orders are in for the next turn, those it still waits for (whose orders
    it needs and has not got), and its deadline."""
    return [game_summary(store, game_id) for game_id in store.game_ids()]


def game_summary(store: Store, game_id: str) -> dict[str, Any]:
    """Where one game stands (``game_summaries``)."""
    game = store.game(game_id)
    turn = store.turn(game_id)
    kind = get_kind(game.kind)
    over = kind.is_over(turn.state)
    deadline, held = mail_schedule(store, game_id)
    submitted = [] if over else sorted(store.pending(game_id))
    return {"id": game_id, "kind": game.kind, "turn": turn.number,
            "state": "over" if over else ("on hold" if held else "running"),
            "submitted": submitted,
            "awaited": [] if over else [p for p in kind.awaited(turn.state)
                                        if p not in submitted],
            "deadline": None if over else deadline}


def refuse_before_deadline(store: Store, game_id: str) -> None:
    """A turn run by hand ('companion turn') while the game waits for orders before a deadline
    that has not passed (a game played by email): most likely the command typed twice, or
    after the mail pass had already run the turn. Refused (nothing changes), saying whose
    orders are missing and how to run it all the same; the web page asks the same with a box
    to tick."""
    from companion.mail.deadlines import format_time, now, parse_time

    if store.unpublished(game_id):
        return                  # the run writes the reports a turn was stored without
    summary = game_summary(store, game_id)
    deadline, awaited = summary["deadline"], summary["awaited"]
    if deadline is None or not awaited or parse_time(deadline) <= now():
        return
    raise CompanionError(
        f"game {game_id}: turn {summary['turn'] + 1} is due at its deadline, {deadline}, and "
        "no orders have come yet from "
        f"{', '.join(awaited)}; nothing was done (it is now {format_time(now())})",
        hint=f"'companion turn {game_id} --now' runs it now, with the game's defaults for "
             "the missing orders; otherwise the mail pass runs it when the deadline passes "
             "or every order is in")


# ----------------------------------------------------------------------------------- replay
@record
class ReplayResult:
    ok: bool
    turns: int
    first_bad: int | None = None
    message: str = ""
    column: str | None = None
    notes: list[str] = field(default_factory=list)


def replay(store: Store, game_id: str, output: Path | None = None) -> ReplayResult:
    """Re-run a game from its recorded inputs. Every stored turn must match its digests and hash
    chain, and every recomputed column (state, decisions, chance, events) the stored one; the
    result names the first turn and column that does not."""
    from companion.store import verify_turn

    game = store.game(game_id)
    kind = get_kind(game.kind)
    notes = []
    if output is not None:
        notes = [f"reports of turn {n} were not in the output folder (a game imported or "
                 "moved, or a run interrupted) and were written now"
                 for n in publish_missing(store, game, output)]
    try:
        turns = store.turns(game_id, check=False)
    except StoreError as exc:
        return ReplayResult(False, 0, None, exc.message, notes=notes)
    previous_hash = GENESIS_HASH
    for recorded in turns:
        problem = verify_turn(recorded, canonical_json(store.stored_digests(game_id,
                                                                            recorded.number)))
        if problem is None and recorded.prev_hash != previous_hash:
            problem = "its link to the previous turn (prev_hash) is broken"
        if problem:
            column = problem.split("'")[1] if "'" in problem else "hash"
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: the stored record {problem}",
                                column, notes)
        previous_hash = recorded.hash
    key = seed_key(game.seed)
    t0 = turns[0]
    chance = Chance(key, 0, replay=t0.chance)
    recorded_setup = t0.inputs.get("setup_sha256", "")
    if recorded_setup != "" and recorded_setup != (
            sha256_hex(game.setup) if game.setup is not None else None):
        return ReplayResult(False, 0, 0, "turn 0: the game's setup position was changed after "
                                         "the game began", "inputs", notes)
    if game.setup is not None:
        from companion.errors import DataError, DataErrors

        try:
            kind.read_position(game.setup, "setup", game.options)
        except (DataError, DataErrors) as exc:
            # a position accepted when the game began, refused by the stricter checks of today:
            # turn 0 stands as stored (its hash chain is checked above); the turns after it
            # are still re-run from it
            notes.append("turn 0: the setup position no longer passes the checks of this "
                         f"version ({exc.message}); the stored starting position is used")
            return replay_from(kind, game, turns, t0, notes)
    try:
        state, ctx = opening(kind, game, chance, edition=t0.inputs.get("edition", 0))
        chance.check_replay_complete()
    except CompanionError as exc:
        return ReplayResult(False, 0, 0, f"turn 0: {exc.message}", "chance", notes)
    replayed = {"state": state, "decisions": ctx.decisions, "chance": chance.to_json(),
                "events": ctx.events}
    bad = first_difference(t0, replayed)
    if bad:
        return ReplayResult(False, 0, 0, f"turn 0: the replayed '{bad}' differs from the "
                                         "record", bad, notes)
    return replay_from(kind, game, turns, t0, notes)


def replay_from(kind, game: Game, turns: list[Turn], previous: Turn,
                notes: list[str]) -> ReplayResult:
    """Re-run turns 1... from the recorded turn 0, comparing every recomputed column."""
    for recorded in turns[1:]:
        subs = {s["player"]: s for s in recorded.inputs["submissions"]}
        try:
            state, ctx = compute_turn(kind, game, previous, subs, replay_chance=recorded.chance)
        except CompanionError as exc:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: {exc.message}", "chance", notes)
        replayed = {"state": state, "decisions": ctx.decisions, "chance": ctx.chance.to_json(),
                    "events": ctx.events}
        bad = first_difference(recorded, replayed)
        if bad:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: the replayed '{bad}' differs from "
                                "the record", bad, notes)
        used = sorted(s["player"] for s in recorded.inputs["submissions"] if s["used"])
        if sorted(ctx.used) != used:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: different orders were used",
                                "inputs", notes)
        previous = recorded
    return ReplayResult(True, len(turns) - 1, notes=notes)


def rerun(store: Store, kind, game: Game, recorded: list[dict]) -> list[tuple[int, Turn,
                                                                             str | None]]:
    """Re-run a game from its seed and recorded inputs alone, into ``store`` (a fresh one):
    chance from the seed's stream, the moderator's dice where the record has them. Returns
    (turn, the turn as re-run, a problem or None) for every recorded turn."""
    if not recorded:
        raise CompanionError("the disclosure has no turns")
    game.players = [Player(p.seat, p.name, slug, None, p.token) for p, slug in
                    zip(game.players, player_slugs([p.name for p in game.players]).values())]
    chance = Chance(seed_key(game.seed), 0)
    first = recorded[0]
    state, ctx = opening(kind, game, chance, edition=first["inputs"].get("edition", 0))
    previous = Turn.sealed(game.id, 0, first["processed_at"], state, GENESIS_HASH,
                           first["inputs"], ctx.decisions, chance.to_json(), ctx.events)
    store.create_game(game, previous)
    out = [(0, previous, None)]
    for number, record in enumerate(recorded[1:], 1):
        inputs = record["inputs"]
        subs = {s["player"]: {k: v for k, v in s.items() if k not in ("player", "used")}
                for s in inputs["submissions"]}
        dice = list(inputs.get("dice", []))
        try:
            state, ctx = compute_turn(kind, game, previous, subs, dice=dice)
        except CompanionError as exc:
            out.append((number, previous, f"the recorded orders and dice cannot be re-run "
                                          f"({exc.message})"))
            break
        rebuilt = {"submissions": [dict(sub, player=p, used=p in ctx.used)
                                   for p, sub in subs.items()], "dice": dice}
        problem = None if canonical_json(rebuilt) == canonical_json(inputs) else \
            "re-run, it uses other orders than the record says"
        turn = Turn.sealed(game.id, number, record["processed_at"], state, previous.hash,
                           inputs, ctx.decisions, ctx.chance.to_json(), ctx.events)
        store.commit_turn(turn, {})
        out.append((number, turn, problem))
        previous = turn
    return out


def first_difference(recorded: Turn, replayed: dict[str, Any]) -> str | None:
    for column in TURN_COLUMNS:
        if column in replayed and canonical_json(replayed[column]) != \
                canonical_json(getattr(recorded, column)):
            return column
    return None


# ----------------------------------------------------------------------------------- import
def import_game(store: Store, data: Any, name: str, new_id: str | None = None) -> str:
    """Import an export file's content: checked completely (identities, digests, hash chain),
    then re-run from its inputs like 'replay'; a game that does not replay is taken out again
    and nothing is imported."""
    from companion.store import parse_export

    if new_id:
        check_game_id(new_id)
    try:
        parse_export(data, new_id)      # every check before the store is touched
    except StoreError as exc:
        raise StoreError(f"{name}: {exc.message}", hint=exc.hint) from None
    game_id = store.import_game(data, new_id=new_id)
    if new_id:      # a copy: its players get links of their own (the original's do not open it)
        for player in store.game(game_id).players:
            store.set_token(game_id, player.seat,
                            new_token(f"{game_id}/{player.name}/{player.token}"))
    try:
        result = replay(store, game_id)
    except Exception as exc:  # noqa: BLE001 - a crafted state may break the rules code
        result = ReplayResult(False, 0, None, f"the rules cannot run it ({type(exc).__name__})")
    if not result.ok:
        store.delete_game(game_id)
        raise StoreError(f"{name}: the game does not replay from its own record "
                         f"({result.message}); nothing was imported",
                         hint="the file was made or changed outside companion")
    return game_id


# ----------------------------------------------------------------------------------- QR links
@record
class Opened:
    game_id: str
    turn: int
    view: str
    viewer: str | None
    matches: bool
    message: str


LINK = re.compile(r"^(?P<base>.*?)/?(?P<game>[A-Za-z0-9][A-Za-z0-9_-]*)/(?P<turn>\d+)/"
                  r"(?P<view>[^/?]+)\?h=(?P<hash>[0-9a-fA-F]{16})$")


def open_payload(store: Store, payload: str) -> Opened:
    m = LINK.match(payload.strip())
    if not m:
        raise CompanionError(f"not a companion link: {payload!r}",
                             hint="expected BASE_URL/GAME_ID/TURN/VIEW?h=HASH16")
    game = store.game(m.group("game"))
    number = int(m.group("turn"))
    turn = store.turn(game.id, number)
    view = m.group("view")
    viewer = None
    if view == "public":
        viewer = PUBLIC
    else:
        slug, _, token = view.partition(".")
        for p in game.players:
            if p.slug == slug and hmac.compare_digest(p.token, token):
                viewer = p.name
        if viewer is None:
            raise CompanionError(f"the link names view '{slug}' of game {game.id}, but its token "
                                 "does not match any player's", hint="the link may be mistyped "
                                 "or forged")
    matches = turn.hash.startswith(m.group("hash").lower())
    message = ("the stored state matches the link" if matches else
               "the stored state does NOT match the link's hash")
    return Opened(game.id, number, view, viewer, matches, message)
