"""The moderator's operations, shared by the command line and the tests.

Every operation either completes or changes nothing: orders are validated before they are
stored, a turn is computed and its reports rendered before the one transaction that stores it.
"""
from __future__ import annotations

import datetime as _dt
import os
import re
import secrets
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from companion.engine.canon import GENESIS_HASH, canonical_json, deep_copy, keyed_hex, state_hash
from companion.engine.chance import Chance, seed_key
from companion.engine.game import MODERATOR, PUBLIC, TurnContext, parse_option_args, resolve_options
from companion.engine.names import match_name, slugify, unique_slugs
from companion.errors import CompanionError, StoreError
from companion.registry import get_kind, info
from companion.store import Game, Player, Store, Turn

DEFAULT_BASE_URL = "companion:/"
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
FORBIDDEN_IN_NAMES = ",;:=#@"


# ----------------------------------------------------------------------------------- helpers
def now_text() -> str:
    """The processing time: SOURCE_DATE_EPOCH if set (reproducible runs), else the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        if not epoch.strip().isdigit():
            raise CompanionError(f"SOURCE_DATE_EPOCH={epoch!r} is not a whole number of seconds")
        moment = _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc)
    else:
        moment = _dt.datetime.now(_dt.timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def check_game_id(game_id: str) -> None:
    if not GAME_ID.fullmatch(game_id):
        raise CompanionError(f"game id {game_id!r} is not usable",
                             hint="use 1 to 64 letters, digits, '-' or '_', starting with a "
                                  "letter or digit (it becomes a folder name and part of links)")


def parse_player_arg(text: str) -> tuple[str, str | None]:
    """``'Anna'`` or ``'Anna <anna@example.org>'`` -> (name, email)."""
    m = re.fullmatch(r"\s*(.*?)\s*<\s*([^<>\s]+@[^<>\s]+)\s*>\s*", text)
    if m and m.group(1):
        return m.group(1), m.group(2)
    return text.strip(), None


def check_player_name(name: str) -> None:
    if not name:
        raise CompanionError("a player name is empty")
    bad = [ch for ch in name if ch in FORBIDDEN_IN_NAMES or ord(ch) < 32 or ch == "\x7f"]
    if bad:
        shown = ", ".join(repr(ch) for ch in dict.fromkeys(bad))
        raise CompanionError(f"player name {name!r} contains {shown}",
                             hint=f"names may not contain {' '.join(FORBIDDEN_IN_NAMES)} or "
                                  "control characters (they separate items in orders and "
                                  "position files)")
    from companion.render.fonts import missing_glyphs

    missing = missing_glyphs(name)
    if missing:
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
        raise CompanionError(f"player name {name!r} has characters the bundled fonts cannot "
                             f"print: {shown}",
                             hint="use Latin, Greek or Cyrillic letters; reports would otherwise "
                                  "show empty boxes")


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

        return sys.stdin.read(), "<stdin>"
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CompanionError(f"file not found: {path}") from None
    except OSError as exc:
        raise CompanionError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return raw.decode("utf-8-sig"), path
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CompanionError(f"{path}:{line}: the file is not UTF-8 text",
                             hint="save it as UTF-8 (plain text)") from None


# ----------------------------------------------------------------------------------- games
@dataclass
class TurnOutcome:
    game_id: str
    turn: int
    public: list[str]
    awaiting: list[str]
    asked: list[str]
    over: bool
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


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
        probe = kind.setup_players(setup_text)
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
    for name in names:
        check_player_name(name)
    try:
        slugs = unique_slugs(names)
    except ValueError as exc:
        raise CompanionError(str(exc), hint="make the names differ in letters or digits") from None
    options = resolve_options(kind.option_specs, raw_options, names)
    if seed is None:
        seed = str(secrets.randbits(128))
    elif not seed.strip():
        raise CompanionError("--seed is empty")
    key = seed_key(seed)
    chance = Chance(key, 0)
    if setup_text is not None:
        state = kind.read_position(setup_text, setup_name, options)
    else:
        if hasattr(kind, "check_players"):
            kind.check_players(names, options)
        state = kind.create(names, options, chance)
    ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=options)
    state["events"] = []
    kind.finish_turn(state, ctx)
    emails = dict(players_given)
    game = Game(game_id, entry.id, seed, options, base_url or DEFAULT_BASE_URL, now_text(),
                setup_text,
                [Player(i, n, slugs[n], emails.get(n), keyed_hex(key, f"token/{n}", 16))
                 for i, n in enumerate(names)])
    turn0 = Turn(game_id, 0, game.created_at, state, state_hash(state, GENESIS_HASH),
                 GENESIS_HASH, {"submissions": [], "dice": [], "setup": setup_text is not None},
                 ctx.decisions, chance.to_json(), ctx.events)
    files: list[Path] = []
    staged = None
    if output is not None:
        staged = stage_reports(game, turn0, output)
    store.create_game(game, turn0)
    if staged is not None:
        files = publish(staged, output, game.id, 0)
    return TurnOutcome(game_id, 0, [], kind.awaited(state), kind.awaited(state),
                       kind.is_over(state), files)


# ----------------------------------------------------------------------------------- orders
@dataclass
class OrdersResult:
    player: str
    understood: list[str]
    submission_id: int | None = None
    replaced: bool = False


def check_orders(store: Store, game_id: str, player_typed: str, text: str,
                 filename: str) -> OrdersResult:
    game = store.game(game_id)
    player = resolve_player(game, player_typed)
    kind = get_kind(game.kind)
    state = store.turn(game_id).state
    validate_orders(kind, state, player, text, filename)
    orders = kind.parse_orders(state, player, text, filename)
    return OrdersResult(player, kind.acknowledge(state, player, orders))


def validate_orders(kind, state: dict, player: str, text: str, filename: str) -> None:
    """Parse and check an order text; raise one OrdersRejected listing every error of the file
    (syntax, names and legality together)."""
    from companion.engine.orders import OrdersRejected

    errors = []
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
    result = check_orders(store, game_id, player_typed, text, filename)
    last = store.turn(game_id)
    replaced = result.player in store.pending(game_id)
    result.submission_id = store.submit(game_id, result.player, last.number + 1, text, now_text())
    result.replaced = replaced
    return result


def legal_options(store: Store, game_id: str, player_typed: str) -> list[str]:
    game = store.game(game_id)
    player = resolve_player(game, player_typed)
    kind = get_kind(game.kind)
    return kind.options_for(store.turn(game_id).state, player)


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
    ctx = TurnContext(turn=number, key=key, chance=chance, orders=orders, options=game.options)
    kind.process(state, ctx)
    kind.finish_turn(state, ctx)
    if replay_chance is not None:
        chance.check_replay_complete()
    return state, ctx


def run_turn(store: Store, game_id: str, *, dice: Sequence[int] = (),
             output: Path | None = None, crash_hook=None) -> TurnOutcome:
    game = store.game(game_id)
    kind = get_kind(game.kind)
    last = store.turn(game_id)
    if kind.is_over(last.state):
        raise CompanionError(f"game {game_id} is over; there is no turn to process")
    pending = store.pending(game_id)
    submissions = {p: {"id": s.id, "text": s.text, "submitted_at": s.submitted_at,
                       "for_turn": s.for_turn} for p, s in pending.items()}
    state, ctx = compute_turn(kind, game, last, submissions, dice=dice)
    if not ctx.decisions and not ctx.used:
        raise CompanionError(f"nothing to adjudicate in game {game_id}: the game waits for "
                             f"orders from {', '.join(ctx.awaiting) or 'nobody'}",
                             hint="submit their orders first, or use --option missing=default "
                                  "when creating a game to let defaults apply")
    number = last.number + 1
    inputs = {"submissions": [dict(sub, player=p, used=p in ctx.used)
                              for p, sub in submissions.items()],
              "dice": list(dice)}
    turn = Turn(game_id, number, now_text(), state, state_hash(state, last.hash), last.hash,
                inputs, ctx.decisions, ctx.chance.to_json(), ctx.events)
    staged = None
    if output is not None:
        extras = extra_files(kind, game, store.turns(game_id) + [turn])
        staged = stage_reports(game, turn, output, extras)
    used = {p: submissions[p]["id"] for p in ctx.used if p in submissions}
    try:
        store.commit_turn(turn, used, crash_hook=crash_hook)
    except BaseException:
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        raise
    files = publish(staged, output, game_id, number) if staged is not None else []
    notes = []
    if ctx.chance.unused_dice:
        notes.append(f"{len(ctx.chance.unused_dice)} supplied dice were not needed: "
                     f"{', '.join(map(str, ctx.chance.unused_dice))}")
    held = [p for p in submissions if p not in ctx.used]
    if held:
        notes.append("orders held for the next turn (not reached yet): " + ", ".join(held))
    public = [e["text"] for e in ctx.events if e["to"] == PUBLIC]
    return TurnOutcome(game_id, number, public, ctx.awaiting, kind.awaited(state),
                       kind.is_over(state), files, notes)


# ----------------------------------------------------------------------------------- reports
def viewers(game: Game) -> list[str]:
    return [PUBLIC] + [p.name for p in game.players]


def report_documents(game: Game, turn: Turn) -> dict[str, dict[str, Any]]:
    """The report document of every viewer of a turn, each built from that viewer's view."""
    kind = get_kind(game.kind)
    docs = {}
    for viewer in viewers(game):
        view = kind.view(turn.state, viewer)
        view["envelope"] = {
            "game_id": game.id, "turn": turn.number, "date": turn.processed_at,
            "link": link(game, turn.number, viewer, turn.hash),
            "link_label": "public link" if viewer == PUBLIC else "your private link",
        }
        docs[viewer] = kind.report(view)
    return docs


def stage_reports(game: Game, turn: Turn, output: Path,
                  extras: dict[str, str] | None = None) -> Path:
    """Render every report of a turn (and any extra files) into a fresh folder beside the final
    one; ``publish`` then moves it into place."""
    from companion.render.report_pdf import render_pdf
    from companion.render.report_text import render_text

    output = Path(output)
    base = output / game.id
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(f"cannot create the output folder {base}: {exc.strerror}") from None
    staged = Path(tempfile.mkdtemp(prefix=f".turn-{turn.number:03d}-", dir=base))
    try:
        for viewer, doc in report_documents(game, turn).items():
            name = "public" if viewer == PUBLIC else game.player(viewer).slug
            (staged / f"{name}.pdf").write_bytes(render_pdf(doc))
            (staged / f"{name}.txt").write_text(render_text(doc), encoding="utf-8")
        for name, content in (extras or {}).items():
            (staged / name).write_text(content, encoding="utf-8")
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    return staged


def extra_files(kind, game: Game, turns: list[Turn]) -> dict[str, str]:
    """Files that need the whole record: the disclosure when a Gral game is over."""
    if kind.is_over(turns[-1].state) and hasattr(kind, "disclosure"):
        return {"disclosure.json": canonical_json(kind.disclosure(game, turns)) + "\n"}
    return {}


def publish(staged: Path, output: Path, game_id: str, number: int) -> list[Path]:
    final = Path(output) / game_id / f"turn-{number:03d}"
    if final.exists():
        old = final.with_name(final.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        final.rename(old)
        staged.rename(final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        staged.rename(final)
    return sorted(final.iterdir())


def render_reports(store: Store, game_id: str, number: int | None, output: Path) -> list[Path]:
    game = store.game(game_id)
    turn = store.turn(game_id, number)
    kind = get_kind(game.kind)
    extras = extra_files(kind, game, store.turns(game_id)[: turn.number + 1])
    staged = stage_reports(game, turn, output, extras)
    return publish(staged, output, game_id, turn.number)


# ----------------------------------------------------------------------------------- views
def show(store: Store, game_id: str, viewer_typed: str, number: int | None) -> tuple[dict, Any]:
    game = store.game(game_id)
    turn = store.turn(game_id, number)
    viewer = viewer_typed.strip().lower()
    if viewer not in (PUBLIC, MODERATOR):
        viewer = resolve_player(game, viewer_typed)
    kind = get_kind(game.kind)
    return kind.view(turn.state, viewer), (game, turn, viewer, kind)


# ----------------------------------------------------------------------------------- replay
@dataclass
class ReplayResult:
    ok: bool
    turns: int
    first_bad: int | None = None
    message: str = ""


def replay(store: Store, game_id: str) -> ReplayResult:
    game = store.game(game_id)
    kind = get_kind(game.kind)
    turns = store.turns(game_id)
    key = seed_key(game.seed)
    # turn 0: the creation
    t0 = turns[0]
    chance = Chance(key, 0, replay=t0.chance)
    try:
        if game.setup is not None:
            state = kind.read_position(game.setup, "setup", game.options)
        else:
            state = kind.create([p.name for p in game.players], game.options, chance)
        ctx = TurnContext(turn=0, key=key, chance=chance, orders={}, options=game.options)
        state["events"] = []
        kind.finish_turn(state, ctx)
        chance.check_replay_complete()
    except CompanionError as exc:
        return ReplayResult(False, 0, 0, f"turn 0: {exc.message}")
    previous = Turn(game_id, 0, t0.processed_at, state, state_hash(state, GENESIS_HASH),
                    GENESIS_HASH, {}, [], [], [])
    if previous.hash != t0.hash:
        return ReplayResult(False, 0, 0, "turn 0: the starting position differs from the record")
    for recorded in turns:
        if state_hash(recorded.state, recorded.prev_hash) != recorded.hash:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: the stored state does not match its "
                                "hash (it was changed after the turn was processed)")
    for recorded in turns[1:]:
        subs = {s["player"]: s for s in recorded.inputs["submissions"]}
        try:
            state, ctx = compute_turn(kind, game, previous, subs, replay_chance=recorded.chance)
        except CompanionError as exc:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: {exc.message}")
        digest = state_hash(state, previous.hash)
        if digest != recorded.hash:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: the replayed state differs from the "
                                f"record (hash {digest[:16]} instead of {recorded.hash[:16]})")
        used = sorted(s["player"] for s in recorded.inputs["submissions"] if s["used"])
        if sorted(ctx.used) != used:
            return ReplayResult(False, recorded.number, recorded.number,
                                f"turn {recorded.number}: different orders were used")
        previous = Turn(game_id, recorded.number, recorded.processed_at, state, digest,
                        previous.hash, {}, [], [], [])
    return ReplayResult(True, len(turns) - 1)


# ----------------------------------------------------------------------------------- QR links
@dataclass
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
            if p.slug == slug and secrets.compare_digest(p.token, token):
                viewer = p.name
        if viewer is None:
            raise CompanionError(f"the link names view '{slug}' of game {game.id}, but its token "
                                 "does not match any player's", hint="the link may be mistyped "
                                 "or forged")
    if state_hash(turn.state, turn.prev_hash) != turn.hash:
        return Opened(game.id, number, view, viewer, False,
                      f"turn {number}: the stored state no longer matches its own hash")
    matches = turn.hash.startswith(m.group("hash").lower())
    message = ("the stored state matches the link" if matches else
               "the stored state does NOT match the link's hash")
    return Opened(game.id, number, view, viewer, matches, message)
