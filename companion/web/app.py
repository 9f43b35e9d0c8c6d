"""The web application: the pages behind the QR codes, the order form, the moderator's page.

Routes (``ROOT`` is the ASGI root path, empty unless a proxy mounts the app below a prefix):

    GET  /                                   a short page saying what the links are
    GET  /static/app.css                     the stylesheet (no other asset; no CDN)
    GET  /GAME/TURN/VIEW?h=HASH16            the viewer's report of that turn (the QR link)
    GET  /GAME/TURN/VIEW/report.pdf?h=...    the same report as PDF
    GET  /GAME/TURN/VIEW/orders?h=...        the order form (a player, the latest turn)
    POST /GAME/TURN/VIEW/orders?h=...        action=check | submit (form token required); a
                                             stored submission is answered 303, to the form
                                             with ``&sent=stored|replaced|withdrawn``
    GET  /moderator                          sign-in, then the games
    POST /moderator/login, /moderator/logout
    GET  /moderator/game/GAME                players, orders in, deadline, run the turn
    POST /moderator/game/GAME/turn           adjudicate (form token required)
    POST /moderator/game/GAME/rewind         take back the turns after one (form token, a box
                                             ticked; ``companion rewind``)
    POST /moderator/game/GAME/deadline       set the deadline (``companion deadline``; form token)
    POST /moderator/game/GAME/hold, release  hold a play-by-email game, end its hold
    POST /moderator/game/GAME/token          a player's new secret link (``companion token``)
    POST /moderator/game/GAME/address        a player's new email address (``game address``)
    GET  /moderator/game/GAME/view/VIEWER    any player's (or the public) report, latest turn

VIEW is ``public`` or ``<slug>.<token>``. A link whose game, turn, token or hash is wrong gets
the very same 404 as a game that does not exist, and counts as a failed attempt of the client
(:class:`companion.web.security.FailureLimiter`); a player's own link to a turn the moderator
took back answers 410 with a link to the latest turn.
"""
from __future__ import annotations

import hmac
import re
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Match, Mount, Route
from starlette.staticfiles import StaticFiles

from companion import service
from companion.engine.game import PUBLIC
from companion.engine.numbers import is_digits
from companion.engine.orders import MAX_ORDER_CHARS  # the longest orders (by mail too)
from companion.engine.words import counted, numbered
from companion.errors import CompanionError
from companion.registry import get_kind, info
from companion.render.report_html import render_html, render_page
from companion.resources import resource_dir
from companion.store import Game, Store, Turn
from companion.web.config import WebConfig, verify_password
from companion.web.security import (FailureLimiter, SecurityHeaders, form_token,
                                     same_origin)

MAX_BODY = MAX_ORDER_CHARS * 12 + 16 * 1024
"""The largest form accepted (bytes): the longest orders in the worst encoding (a character of
four UTF-8 bytes is twelve form-encoded, ``%F0%9F%98%80``) and room for the other fields, so a
text within MAX_ORDER_CHARS is never refused for its bytes."""
KEY_SUFFIX = ".web-key"
"""The form-token key is kept in a file beside the store: the store's name and this."""
SESSION_COOKIE = "companion_session"
LOGIN_COOKIE = "companion_login"
SESSION_SECONDS = 12 * 3600
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
HASH16 = re.compile(r"^[0-9a-f]{16}$")
ORDERS_FILE = "orders"
"""The file name order errors are reported against (``orders:2:5``)."""
REASON_CHARS = 200
"""The longest reason kept with turns taken back from the moderator's page."""
ACTIONS = ("check", "submit")
"""What an order form may ask for."""
SENT = {"stored": "Your orders are stored.",
        "replaced": "Your orders are stored (they replace your earlier ones).",
        "withdrawn": "Your pending orders are withdrawn."}
"""What the order page says after a submission redirected to it (``&sent=...``)."""
CROSS_SITE = ("Your browser says this form was sent from another site's page, so nothing was "
              "{done}. Open the page from your own link and send the form from there.")
STALE_FORM = ("This form could not be checked: the page is too old (opened before the server "
              "restarted, or before your link changed) or it was not sent from this site's own "
              "page. Nothing was {done}. Open the page again and send it from there.")


class TurnNumber(Convertor):
    """A turn number as written in links: no sign, no leading zero (``/g/00/...`` is no link)."""
    regex = "0|[1-9][0-9]*"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("turn", TurnNumber())


class NotFound(Exception):
    """Anything that must look like a missing page (wrong game, turn, token or hash)."""


class TakenBack(Exception):
    """A player's own link to a turn the moderator took back (``companion rewind``): said as
    such, with the link to the latest turn, instead of the 404 of a wrong link."""

    def __init__(self, number: int, latest: int, latest_path: str):
        super().__init__(number)
        self.number, self.latest, self.latest_path = number, latest, latest_path


class TooMany(Exception):
    """The client has failed too often lately."""


@dataclass
class Opened:
    game: Game
    turn: Turn
    latest: int
    viewer: str            # PUBLIC or a player's name
    view: str              # the path segment as given
    hash16: str


class WebApp:
    """The state of one server: its store, the key of its form tokens (kept beside the store:
    :func:`form_key`), the moderator's sessions, the failure counter, and a lock that serialises submissions and turns."""

    def __init__(self, store_path: Path, output: Path | None, config: WebConfig,
                 config_file: Path | None = None):
        self.store_path = Path(store_path)
        self.output = output
        self.config = config
        self.config_file = config_file
        self.key = form_key(self.store_path)
        self.limiter = FailureLimiter(config.max_failures, config.failure_window)
        self.sessions: dict[str, float] = {}
        self.lock = threading.Lock()
        self._docs: dict[tuple, dict] = {}
        self._docs_lock = threading.Lock()
        self.wal()

    # -- the store ------------------------------------------------------------------------------
    def wal(self) -> None:
        """Write-ahead logging, so that pages are read while a turn is being written (a
        property of the file: it stays for the command line too)."""
        try:
            with self.store() as store:
                store.db.execute("PRAGMA journal_mode=WAL")
        except (CompanionError, sqlite3.Error):
            pass            # a read-only store: pages still work, in the default mode

    @contextmanager
    def store(self):
        """A connection for one request (short read transactions: every statement is its
        own, the connection is closed at the end of the request)."""
        store = Store(self.store_path)
        try:
            yield store
        finally:
            store.close()

    # -- links ----------------------------------------------------------------------------------
    def open(self, store: Store, game_id: str, number: int, view: str, h: str) -> Opened:
        """Resolve a link; NotFound for anything wrong, with no hint of what."""
        if not GAME_ID.match(game_id) or not HASH16.match(h or "") or len(view) > 200:
            raise NotFound
        if not store.has_game(game_id):
            raise NotFound
        game = store.game(game_id)
        latest = latest_number(store, game_id)
        viewer = None
        if view == "public":
            viewer = PUBLIC
        else:
            slug, _, token = view.partition(".")
            for player in game.players:      # every player compared: no early exit
                match = hmac.compare_digest(player.token.encode(), token.encode())
                if match and player.slug == slug:
                    viewer = player.name
        if viewer is None:
            raise NotFound
        turn = store.turn(game_id, number) if 0 <= number <= latest else None
        if turn is None or not hmac.compare_digest(turn.hash[:16].encode(), h.encode()):
            if any(hmac.compare_digest(gone[:16].encode(), h.encode())
                   for gone in store.rewound_hashes(game_id, number)):
                latest_turn = store.turn(game_id, latest)
                raise TakenBack(number, latest, self.url("", game_id, latest, view,
                                                         latest_turn.hash))
            raise NotFound
        return Opened(game, turn, latest, viewer, view, h)

    def url(self, root: str, game_id: str, number: int, view: str, hash_hex: str,
            suffix: str = "") -> str:
        return f"{root}/{game_id}/{number}/{view}{suffix}?h={hash_hex[:16]}"

    def document(self, opened: Opened) -> dict[str, Any]:
        """The report document of the opened view (kept: a turn never changes; the key holds
        the link, so a new token or base URL makes a new one)."""
        game, turn = opened.game, opened.turn
        link = service.link(game, turn.number, opened.viewer, turn.hash)
        key = (game.id, turn.number, turn.hash, opened.viewer, link)
        with self._docs_lock:
            doc = self._docs.get(key)
        if doc is None:
            doc = service.report_documents(game, turn, only=opened.viewer)[opened.viewer]
            with self._docs_lock:
                if len(self._docs) > 256:
                    self._docs.clear()
                self._docs[key] = doc
        return doc

    # -- forms ----------------------------------------------------------------------------------
    def player_token(self, opened: Opened) -> str:
        return form_token(self.key, "orders", opened.game.id, opened.view)

    def new_session(self) -> str:
        now = time.time()
        for sid, expiry in list(self.sessions.items()):
            if expiry < now:
                del self.sessions[sid]
        sid = secrets.token_urlsafe(32)
        self.sessions[sid] = now + SESSION_SECONDS
        return sid

    def session(self, request: Request) -> str | None:
        sid = request.cookies.get(SESSION_COOKIE)
        if sid and self.sessions.get(sid, 0) > time.time():
            return sid
        return None


def form_key(store_path: Path) -> bytes:
    """The key of the form tokens: 32 random bytes kept (as hex, readable by the owner only)
    in ``STORE.web-key`` beside the store, made the first time, so that a page opened before
    the server restarted can still be sent. It is drawn from the operating system's random
    source and never derived from anything a player could learn. Where the file cannot be
    kept (a read-only folder), a key for this run of the server only."""
    import logging
    import os

    path = store_path.parent / (store_path.name + KEY_SUFFIX)
    try:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            text = path.read_text(encoding="ascii").strip()
            if re.fullmatch(r"[0-9a-f]{64}", text):
                return bytes.fromhex(text)
            raise ValueError(f"{path} does not hold a key of 64 hex digits") from None
        key = secrets.token_bytes(32)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(key.hex() + "\n")
        return key
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        logging.getLogger("companion.web").warning(
            "the form key cannot be kept (%s): forms opened before a restart of the server "
            "will be refused", exc)
        return secrets.token_bytes(32)


def latest_number(store: Store, game_id: str) -> int:
    number = store.latest_number(game_id)
    if number is None:
        raise NotFound
    return number


def turn_list(store: Store, game_id: str) -> list[tuple[int, str, str]]:
    """(number, hash, processed_at) of every turn, without reading the states."""
    return [(int(n), h, at) for n, h, at in store.db.execute(
        "SELECT number, hash, processed_at FROM turns WHERE game_id=? ORDER BY number",
        (game_id,))]


def client_of(request: Request) -> str:
    """Whose failed attempts a request counts with (:class:`FailureLimiter`): its address,
    but an IPv6 address with the other addresses of its /64 network, as one connection (a
    household, a server) is given a whole /64 and may use any address in it: counted one by
    one, each address would get its own allowance of wrong passwords."""
    import ipaddress

    host = request.client.host if request.client else "-"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


def root_of(request: Request) -> str:
    """The path prefix the application is served under (a proxy's, or none)."""
    scope = request.scope
    return scope.get("app_root_path", scope.get("root_path", "")).rstrip("/")


async def read_form(request: Request) -> dict[str, str]:
    """A URL-encoded form of at most MAX_BODY bytes (413 beyond, 415 for anything else)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise HTTPProblem(415, "Unsupported form", "Send the form from the page.")
    too_large = HTTPProblem(413, "Too large", f"The form is larger than {MAX_BODY // 1024} KB, "
                            f"more than the longest orders ({MAX_ORDER_CHARS:,} characters) "
                            "need; nothing was stored. Shorten the text and send it again.")
    declared = request.headers.get("content-length")
    if declared is not None and (not is_digits(declared) or int(declared) > MAX_BODY):
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY:
            raise too_large
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                          max_num_fields=10)
    except (UnicodeDecodeError, ValueError):
        raise HTTPProblem(400, "Bad form", "The form could not be read.") from None
    form: dict[str, str] = {}
    for name, value in pairs:
        form.setdefault(name, value)
    return form


class HTTPProblem(Exception):
    """A refusal said on a page of its own; ``kept``: what the user typed, shown back in a box
    to copy (never stored), ``link``: where to go on."""

    def __init__(self, status: int, heading: str, text: str, kept: str = "",
                 link: str = "", link_text: str = ""):
        super().__init__(heading)
        self.status, self.heading, self.text = status, heading, text
        self.kept, self.link, self.link_text = kept, link, link_text


def page(template: str, request: Request, status: int = 200, **context) -> HTMLResponse:
    return HTMLResponse(render_page(template, root=root_of(request), **context),
                        status_code=status)


NOT_FOUND_TEXT = ("There is no page at this address. If it came from a report, the link may "
                  "be mistyped, or a newer link may have replaced it.")


def not_found(request: Request) -> HTMLResponse:
    """The one 404 of the application: missing game, turn, view, wrong token or hash alike."""
    return page("message.html.j2", request, 404, heading="Not found", text=NOT_FOUND_TEXT)


def create_app(store_path: Path, output: Path | None = None, config: WebConfig | None = None,
               config_file: Path | None = None) -> Starlette:
    """The ASGI application serving the store at ``store_path``."""
    web = WebApp(store_path, output, config or WebConfig(), config_file)

    def guarded(handler):
        """Refuse a client that failed too often; turn NotFound into the one 404 (and count
        it), and every other refusal into a page."""
        import functools
        import inspect

        @functools.wraps(handler)
        async def endpoint(request: Request):
            client = client_of(request)
            if web.limiter.blocked(client):
                return too_many(request, client)
            try:
                if inspect.iscoroutinefunction(handler):
                    return await handler(request)
                return await run_in_threadpool(handler, request)
            except NotFound:
                web.limiter.fail(client)
                return not_found(request)
            except TooMany:
                return too_many(request, client)
            except TakenBack as gone:
                return page("message.html.j2", request, 410, heading="Turn taken back",
                            text=f"The moderator took back turn {gone.number} of this game "
                                 f"(late orders or a mistake); the game stands at turn "
                                 f"{gone.latest}.",
                            link=root_of(request) + gone.latest_path,
                            link_text=f"Open turn {gone.latest}")
            except HTTPProblem as problem:
                if problem.status == 403:
                    web.limiter.fail(client)
                return page("message.html.j2", request, problem.status,
                            heading=problem.heading, text=problem.text, kept=problem.kept,
                            link=problem.link, link_text=problem.link_text)
        return endpoint

    def too_many(request: Request, client: str) -> Response:
        wait = web.limiter.retry_after(client)
        answer = page("message.html.j2", request, 429, heading="Too many attempts",
                      text="Too many wrong links or passwords from your address. "
                           f"Wait {counted(-(-wait // 60), 'minute')} and try again.")
        answer.headers["retry-after"] = str(wait)
        return answer

    def opened_from(request: Request, store: Store) -> Opened:
        params = request.path_params
        return web.open(store, params["game"], params["turn"], params["view"],
                        request.query_params.get("h", ""))

    # -- player pages ---------------------------------------------------------------------------
    def report(request: Request) -> Response:
        root = root_of(request)
        with web.store() as store:
            opened = opened_from(request, store)
            doc = web.document(opened)
            game, turn = opened.game, opened.turn
            view = opened.view
            turns = []
            for number, digest, at in turn_list(store, game.id):
                turns.append({"number": number, "date": at, "current": number == turn.number,
                              "url": web.url(root, game.id, number, view, digest)})
            latest_hash = turns[-1]["url"] if turns else None
            extra: dict[str, Any] = {
                "pdf_url": web.url(root, game.id, turn.number, view, turn.hash, "/report.pdf"),
                "turns": turns, "hash16": opened.hash16, "matches": True, "root": root,
            }
            if turn.number < opened.latest:
                extra["newer_url"], extra["newer_turn"] = latest_hash, opened.latest
            elif opened.viewer != PUBLIC:
                kind = get_kind(game.kind)
                if not kind.is_over(turn.state):
                    extra["orders_url"] = web.url(root, game.id, turn.number, view, turn.hash,
                                                  "/orders")
                    extra["orders_state"] = orders_state(store, game, turn, opened.viewer, kind)
                    extra["deadline"] = service.mail_schedule(store, game.id)[0]
        return HTMLResponse(render_html(doc, extra))

    def report_pdf(request: Request) -> Response:
        from companion.render.report_pdf import render_pdf

        with web.store() as store:
            opened = opened_from(request, store)
            doc = web.document(opened)
        name = "public" if opened.viewer == PUBLIC else opened.game.player(opened.viewer).slug
        return Response(render_pdf(doc), media_type="application/pdf", headers={
            "content-disposition": f'inline; filename="{opened.game.id}-turn-'
                                   f'{opened.turn.number:03d}-{name}.pdf"'})

    def orders_state(store: Store, game: Game, turn: Turn, player: str, kind) -> str:
        pending = store.pending(game.id).get(player)
        nxt = turn.number + 1
        if pending is not None:
            return f"Your orders for turn {nxt} are in (sent {pending.submitted_at})."
        if player in kind.awaited(turn.state):
            return f"Your orders for turn {nxt} are awaited."
        return f"Nothing is asked of you for turn {nxt}; you may still send orders."

    def orders_url(request: Request, opened: Opened, turn: Turn | None = None) -> str:
        turn = turn or opened.turn
        return web.url(root_of(request), opened.game.id, turn.number, opened.view, turn.hash,
                       "/orders")

    def orders_context(request: Request, store: Store, opened: Opened) -> dict[str, Any]:
        """The order page of one state: the latest turn of a running game (the form, what is
        asked, the deadline), an earlier turn (over: a link to the latest), or a finished game
        (no orders); each says one thing."""
        if opened.viewer == PUBLIC:
            raise NotFound
        root = root_of(request)
        game, turn = opened.game, opened.turn
        kind = get_kind(game.kind)
        context = {
            "title": info(game.kind).title, "game_id": game.id, "turn": turn.number,
            "player": opened.viewer, "deadline": None, "held": False,
            "report_url": web.url(root, game.id, turn.number, opened.view, turn.hash),
            "pdf_url": web.url(root, game.id, turn.number, opened.view, turn.hash,
                               "/report.pdf"),
            "action_url": orders_url(request, opened),
            "csrf": web.player_token(opened), "max_chars": MAX_ORDER_CHARS,
            "text": "", "can_submit": False, "closed_reason": "", "orders_state": "",
            "legal": [],
        }
        if turn.number < opened.latest:
            latest = turn_list(store, game.id)[-1]
            context.update(closed_reason=f"Turn {turn.number} is over: orders are sent from "
                                         "the latest turn's page.",
                           newer_url=web.url(root, game.id, latest[0], opened.view, latest[1],
                                             "/orders"),
                           newer_turn=latest[0])
        elif kind.is_over(turn.state):
            context.update(closed_reason="The game is over: no orders are asked for.")
        else:
            pending = store.pending(game.id).get(opened.viewer)
            deadline, held = service.mail_schedule(store, game.id)
            context.update(can_submit=True, deadline=deadline, held=held,
                           text=pending.text if pending is not None else "",
                           orders_state=orders_state(store, game, turn, opened.viewer, kind))
            try:
                context["legal"] = kind.options_for(turn.state, opened.viewer)
            except CompanionError:
                context["legal"] = []
        return context

    def orders_page(request: Request) -> Response:
        with web.store() as store:
            opened = opened_from(request, store)
            context = orders_context(request, store, opened)
            sent = request.query_params.get("sent", "")
            if context["can_submit"] and sent in SENT:
                mine = service.pending_orders(store, opened.game.id, opened.viewer)[0]
                if (sent == "withdrawn") == (mine["submission"] is None):
                    context.update(message=SENT[sent], message_class="ok",
                                   understood=mine["understood"] or [])
        return page("orders.html.j2", request, **context)

    async def orders_post(request: Request) -> Response:
        form = await read_form(request)
        return await run_in_threadpool(orders_act, request, form)

    def moved_on(request: Request, store: Store, opened: Opened, text: str) -> Response:
        """Orders sent from the page of a turn that is no longer the latest: nothing stored;
        the latest turn's order page with the text in its form (or in a box to copy, when the
        game is over)."""
        latest = store.turn(opened.game.id)
        fresh = Opened(opened.game, latest, latest.number, opened.viewer, opened.view,
                       latest.hash[:16])
        context = orders_context(request, store, fresh)
        context["text"] = text
        if context["can_submit"]:
            message = (f"Turn {latest.number} was processed after this form was opened: your "
                       f"orders were not stored. They are in the form below, now for turn "
                       f"{latest.number + 1}: check them against the new position and send "
                       "them again.")
        else:
            message = (f"Turn {latest.number} was processed after this form was opened, and "
                       "the game is over: your orders were not stored.")
        context.update(message=message, message_class="bad")
        return page("orders.html.j2", request, 409, **context)

    def orders_act(request: Request, form: dict[str, str]) -> Response:
        text = form.get("orders", "").replace("\r\n", "\n").replace("\r", "\n")
        with web.store() as store:
            opened = opened_from(request, store)
            if not same_origin(request.headers, request.url.scheme):
                raise HTTPProblem(403, "Refused", CROSS_SITE.format(done="stored"))
            if not hmac.compare_digest(form.get("csrf", ""), web.player_token(opened)):
                raise HTTPProblem(403, "Form too old", STALE_FORM.format(done="stored"),
                                  kept=text[:MAX_ORDER_CHARS], link=orders_url(request, opened),
                                  link_text="Open the order page again")
            action = form.get("action", "check")
            if opened.turn.number < opened.latest:
                return moved_on(request, store, opened, text)
            context = orders_context(request, store, opened)
            context["text"] = text
            if not context["can_submit"]:
                context.update(message="Your orders were not stored.", message_class="bad")
                return page("orders.html.j2", request, 409, **context)
            if action not in ACTIONS:
                context.update(message=f"The form asked for '{action[:20]}', which the order "
                                       "page does not do; nothing was stored. Press Check or "
                                       "Submit.", message_class="bad")
                return page("orders.html.j2", request, 400, **context)
            if len(text) > MAX_ORDER_CHARS:
                context.update(message=f"The orders are {len(text):,} characters long, more "
                                       f"than the {MAX_ORDER_CHARS:,} allowed; nothing was "
                                       "stored. Shorten them and send them again.",
                               message_class="bad")
                return page("orders.html.j2", request, 413, **context)
            status = 200
            with web.lock:
                if latest_number(store, opened.game.id) != opened.turn.number:
                    return moved_on(request, store, opened, text)   # a turn ran meanwhile
                try:
                    if action == "submit":
                        result = service.submit_orders(store, opened.game.id, opened.viewer,
                                                       text, ORDERS_FILE)
                        late = settle_race(store, opened, result, text)
                        if not late:        # stored: POST/redirect/GET, a reload sends nothing
                            sent = ("withdrawn" if result.withdrawn else
                                    "replaced" if result.replaced else "stored")
                            return RedirectResponse(f"{orders_url(request, opened)}&sent={sent}",
                                                    status_code=303)
                        context.update(message=late, message_class="bad" if "withdrawn" in
                                       late else "ok", understood=result.understood,
                                       orders_state=orders_state(
                                           store, opened.game, opened.turn, opened.viewer,
                                           get_kind(opened.game.kind)))
                    else:
                        result = service.check_orders(store, opened.game.id, opened.viewer,
                                                      text, ORDERS_FILE)
                        context.update(message="The orders are valid (not sent yet: press "
                                               "Submit).", message_class="ok",
                                       understood=result.understood)
                except CompanionError as exc:
                    status = 422
                    context.update(located(exc, text))
        return page("orders.html.j2", request, status, **context)

    # -- the moderator --------------------------------------------------------------------------
    def login_token(request: Request) -> str:
        return form_token(web.key, "login", request.cookies.get(LOGIN_COOKIE, ""))

    def moderator_home(request: Request) -> Response:
        sid = web.session(request)
        if sid is None:
            return login_page(request)
        with web.store() as store:
            games = [dict(g, url=f"{root_of(request)}/moderator/game/{g['id']}")
                     for g in service.game_summaries(store)]
        return page("moderator_games.html.j2", request, games=games,
                    csrf=form_token(web.key, "moderator", sid))

    def login_page(request: Request, failed: bool = False, status: int = 200) -> Response:
        nonce = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(24)
        csrf = form_token(web.key, "login", nonce)
        response = page("moderator_login.html.j2", request, status, failed=failed, csrf=csrf,
                        configured=bool(web.config.moderator_password_hash),
                        config_file=Path(web.config_file).name if web.config_file
                        else "companion.toml")
        set_cookie(request, response, LOGIN_COOKIE, nonce, 3600)
        return response

    def set_cookie(request: Request, response: Response, name: str, value: str,
                   max_age: int) -> None:
        response.set_cookie(name, value, max_age=max_age, path=f"{root_of(request)}/moderator",
                            httponly=True, samesite="strict",
                            secure=web.config.secure_cookies or request.url.scheme == "https")

    async def login(request: Request) -> Response:
        form = await read_form(request)
        if not same_origin(request.headers, request.url.scheme):
            raise HTTPProblem(403, "Refused", CROSS_SITE.format(done="done"))
        if not hmac.compare_digest(form.get("csrf", ""), login_token(request)) or not \
                request.cookies.get(LOGIN_COOKIE):
            raise HTTPProblem(403, "Form too old", STALE_FORM.format(done="done"),
                              link=f"{root_of(request)}/moderator", link_text="Sign in")
        # counted before the password is checked, taken back when it is right: a burst of
        # guesses sent at once gets no more tries than the same guesses one by one
        client = client_of(request)
        mark = web.limiter.reserve(client)
        if mark is None:
            raise TooMany
        ok = await run_in_threadpool(verify_password, form.get("password", ""),
                                     web.config.moderator_password_hash)
        if not ok:
            return login_page(request, failed=True, status=403)
        web.limiter.forgive(client, mark)
        response = RedirectResponse(f"{root_of(request)}/moderator", status_code=303)
        set_cookie(request, response, SESSION_COOKIE, web.new_session(), SESSION_SECONDS)
        response.delete_cookie(LOGIN_COOKIE, path=f"{root_of(request)}/moderator")
        return response

    def moderator_check(request: Request, form: dict[str, str]) -> str:
        sid = web.session(request)
        if sid is None:
            raise HTTPProblem(403, "Signed out", "Sign in again on the moderator's page.")
        if not same_origin(request.headers, request.url.scheme):
            raise HTTPProblem(403, "Refused", CROSS_SITE.format(done="done"))
        if not hmac.compare_digest(form.get("csrf", ""), form_token(web.key, "moderator", sid)):
            raise HTTPProblem(403, "Form too old", STALE_FORM.format(done="done"),
                              link=f"{root_of(request)}/moderator", link_text="The games")
        return sid

    async def logout(request: Request) -> Response:
        form = await read_form(request)
        sid = moderator_check(request, form)
        web.sessions.pop(sid, None)
        response = RedirectResponse(f"{root_of(request)}/moderator", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path=f"{root_of(request)}/moderator")
        return response

    def game_context(request: Request, store: Store, game_id: str, sid: str) -> dict:
        if not GAME_ID.match(game_id) or not store.has_game(game_id):
            raise NotFound
        root = root_of(request)
        game = store.game(game_id)
        turn = store.turn(game_id)
        kind = get_kind(game.kind)
        over = kind.is_over(turn.state)
        pending = {e["player"]: e for e in service.pending_orders(store, game_id)}
        deadline, held = service.mail_schedule(store, game_id)
        return {
            "game": game, "turn": turn, "kind_title": info(game.kind).title, "over": over,
            "state": "over" if over else "running", "deadline": deadline, "held": held,
            "awaited": missing_orders(store, game_id),
            "players": [{"name": p.name, "slug": p.slug, "email": p.email,
                         "submitted": pending[p.name]["submitted_at"],
                         "orders": pending[p.name]["text"],
                         "understood": pending[p.name]["understood"],
                         "url": f"{root}/moderator/game/{game_id}/view/{p.slug}"}
                        for p in game.players],
            "public_url": f"{root}/moderator/game/{game_id}/view/public",
            "turn_url": f"{root}/moderator/game/{game_id}/turn",
            "rewind_url": f"{root}/moderator/game/{game_id}/rewind",
            "release_url": f"{root}/moderator/game/{game_id}/release",
            "hold_url": f"{root}/moderator/game/{game_id}/hold",
            "deadline_url": f"{root}/moderator/game/{game_id}/deadline",
            "token_url": f"{root}/moderator/game/{game_id}/token",
            "address_url": f"{root}/moderator/game/{game_id}/address",
            "rewound": store.rewound(game_id), "reason_chars": REASON_CHARS,
            "csrf": form_token(web.key, "moderator", sid),
        }

    def missing_orders(store: Store, game_id: str) -> list[str]:
        """Whom the game still waits for: as the games' list and 'companion list' say it."""
        return service.game_summary(store, game_id)["awaited"]

    def moderator_game(request: Request) -> Response:
        sid = web.session(request)
        if sid is None:
            return RedirectResponse(f"{root_of(request)}/moderator", status_code=303)
        with web.store() as store:
            context = game_context(request, store, request.path_params["game"], sid)
        return page("moderator_game.html.j2", request, **context)

    async def moderator_action(request: Request) -> Response:
        """POST /moderator/game/GAME/ACTION: one of ``actions`` (below), or the one 404."""
        entry = actions().get(request.path_params["action"])
        if entry is None:
            raise NotFound
        return await moderate(request, *entry)

    async def moderate(request: Request, action, failed: int) -> Response:
        """A moderator's form (run the turn, take turns back, deadline...): signed in, from
        this site's page, for the turn the page showed (an old page does nothing), one at a
        time; a refusal (``failed``) says why and changes nothing."""
        form = await read_form(request)
        sid = moderator_check(request, form)
        return await run_in_threadpool(moderated, request, form, sid, action, failed)

    def moderated(request: Request, form: dict[str, str], sid: str, action,
                  failed: int) -> Response:
        game_id = request.path_params["game"]
        with web.store() as store:
            if not GAME_ID.match(game_id) or not store.has_game(game_id):
                raise NotFound
            status = 200
            with web.lock:
                if not is_digits(form.get("expect", "")):
                    outcome = {"outcome": "The form is incomplete (it does not say which turn "
                                          "the page showed); nothing was done. Open the page "
                                          "again and send the form from there.",
                               "outcome_class": "bad"}
                    status = 400
                elif form.get("expect") != str(latest_number(store, game_id)):
                    outcome = {"outcome": "The game had moved on since the page was opened "
                                          "(the page was old); nothing was done.",
                               "outcome_class": "bad"}
                    status = 409
                else:
                    try:
                        outcome = action(store, game_id, form)
                    except CompanionError as exc:
                        outcome = {"outcome": exc.message + (f" ({exc.hint})" if exc.hint
                                                             else ""),
                                   "outcome_class": "bad", "typed": form}
                        status = getattr(exc, "status", failed)
            context = game_context(request, store, game_id, sid)
        return page("moderator_game.html.j2", request, status, **context, **outcome)

    def adjudicate(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        """Run the next turn; with orders missing, only with the box ticked that says whose."""
        missing = missing_orders(store, game_id)
        if missing and form.get("confirm") != "yes":
            error = CompanionError(f"no orders yet from {', '.join(missing)}: tick the box to "
                                   f"run turn {latest_number(store, game_id) + 1} without "
                                   "them; nothing was done")
            error.status = 422
            raise error
        result = service.run_turn(store, game_id, output=web.output)
        lines = list(result.public) + [f"note: {n}" for n in result.notes]
        return {"outcome": f"Turn {result.turn} processed.", "outcome_class": "ok",
                "outcome_lines": lines}

    def take_back(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        """``companion rewind`` from the page: the turn to keep, why, and a box ticked."""
        typed = form.get("to", "").strip()
        if not is_digits(typed):
            latest = latest_number(store, game_id)
            raise CompanionError(f"'{typed[:20]}' is not a turn number; nothing was done",
                                 hint=f"choose a turn from 0 to {latest - 1}")
        to = int(typed)
        gone = service.rewind_span(store, game_id, to)
        if form.get("confirm") != "yes":
            raise CompanionError(f"tick the box to take back {numbered('turn', gone)}; "
                                 "nothing was done")
        reason = " ".join(form.get("reason", "").split())[:REASON_CHARS]
        done = service.rewind(store, game_id, to, web.output, reason,
                              expect_latest=int(form["expect"]))
        lines = [f"Orders pending for turn {to + 1}: {', '.join(done.pending) or 'none'}."]
        if done.moved:
            lines.append(f"Their reports moved to {done.moved[0].parent}.")
        lines.append("Play by email is on hold: release it below when the orders are right."
                     if done.held else f"Add or change orders, then run turn {to + 1} again.")
        return {"outcome": f"{numbered('Turn', done.numbers)} taken back; turn {to} "
                           "is the latest again.", "outcome_class": "ok",
                "outcome_lines": lines}

    def release(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        if not service.set_held(store, game_id, False):
            raise CompanionError("the game was not on hold; nothing was done")
        return {"outcome": "Released: the next mail pass runs the turn when it is due.",
                "outcome_class": "ok"}

    def hold(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        service.set_schedule(store, game_id)            # a game not yet played by email
        if not service.set_held(store, game_id, True):
            raise CompanionError("the game was on hold already; nothing was done")
        return {"outcome": "On hold: no mail pass runs a turn of this game until it is "
                           "released.", "outcome_class": "ok"}

    def actions() -> dict[str, tuple[Any, int]]:
        """Each form of the moderator's page: what it does, and the status of a refusal."""
        return {"turn": (adjudicate, 409), "rewind": (take_back, 422), "release": (release, 409),
                "hold": (hold, 409), "deadline": (set_deadline, 422), "token": (new_link, 422),
                "address": (new_address, 422)}

    def chosen(store: Store, game_id: str, form: dict[str, str]):
        player = next((p for p in store.game(game_id).players
                       if p.slug == form.get("player")), None)
        if player is None:
            raise CompanionError("choose a player; nothing was done")
        return player

    def new_address(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        """``companion game address`` from the page: a player who moved, or a stand-in (told
        to the other players by the next mail pass unless the box 'a correction' is ticked)."""
        player = chosen(store, game_id, form)
        typed = form.get("address", "").strip()
        if not typed:
            raise CompanionError(f"give {player.name}'s new address, or none for no mail; "
                                 "nothing was done")
        done = service.change_seat_address(store, game_id, player.name, typed[:254],
                                           "moderator: the web page",
                                           quiet=form.get("quiet") == "yes")
        said = done.said("by the next mail pass")
        return {"outcome": f"{done.player}: {done.old or 'no address'} -> "
                           f"{done.new or 'no address (no mail)'}.",
                "outcome_class": "ok",
                "outcome_lines": ["Reports and replies go to the new address from now on."] + (
                    [said[0].upper() + said[1:] + "."] if said else [])}

    def new_link(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        """``companion token`` from the page: a player whose link leaked gets a new one."""
        player = chosen(store, game_id, form)
        if form.get("confirm") != "yes":
            raise CompanionError(f"tick the box to give {player.name} a new link; nothing was "
                                 "done")
        name, link, files = service.reissue_token(store, game_id, player.name, web.output)
        lines = [f"New link: {link}", "Send it to them: the old link no longer opens anything."]
        if files:
            lines.append(f"Their latest report was written again in {files[0].parent}.")
        return {"outcome": f"{name} has a new link.", "outcome_class": "ok",
                "outcome_lines": lines}

    def set_deadline(store: Store, game_id: str, form: dict[str, str]) -> dict[str, Any]:
        """``companion deadline GAME WHEN`` from the page."""
        said = service.set_schedule(store, game_id, form.get("when", "")[:40])
        latest = latest_number(store, game_id)
        return {"outcome": f"Game {game_id}, turn {latest}: {said}.", "outcome_class": "ok",
                "outcome_lines": [f"The deadline is for the orders of turn {latest + 1} (worked "
                                  f"out from turn {latest}), as 'companion deadline {game_id}' "
                                  "says it."]}

    def moderator_view(request: Request) -> Response:
        sid = web.session(request)
        if sid is None:
            return RedirectResponse(f"{root_of(request)}/moderator", status_code=303)
        game_id, wanted = request.path_params["game"], request.path_params["viewer"]
        with web.store() as store:
            if not GAME_ID.match(game_id) or not store.has_game(game_id):
                raise NotFound
            game = store.game(game_id)
            turn = store.turn(game_id)
            if wanted == "public":
                viewer = PUBLIC
            else:
                viewer = next((p.name for p in game.players if p.slug == wanted), None)
                if viewer is None:
                    raise NotFound
            view = "public" if viewer == PUBLIC else f"{wanted}.{game.player(viewer).token}"
            doc = web.document(Opened(game, turn, turn.number, viewer, view, turn.hash[:16]))
        return HTMLResponse(render_html(doc, {"back_url": f"{root_of(request)}/moderator/game/"
                                                          f"{game_id}",
                                              "root": root_of(request)}))

    def landing(request: Request) -> Response:
        return page("landing.html.j2", request)

    async def missing(request: Request, exc: Exception) -> Response:
        """The one 404; a known page asked for with a slash at the end is sent to its address
        without it (a relative address: path and query only, never built from the Host
        header)."""
        from starlette._utils import get_route_path

        inner = get_route_path(request.scope)
        if getattr(exc, "status_code", 404) == 404 and len(inner) > 1 and inner.endswith("/"):
            bare = inner.rstrip("/")
            scope = dict(request.scope, path=request.scope["path"].rstrip("/"))
            if bare.startswith("/") and not bare.startswith("//") and any(
                    route.matches(scope)[0] != Match.NONE for route in routes):
                query = request.scope.get("query_string", b"").decode("latin-1")
                return RedirectResponse(root_of(request) + bare + (f"?{query}" if query
                                                                    else ""), status_code=307)
        return not_found(request)

    async def failure(request: Request, exc: Exception) -> Response:
        return page("message.html.j2", request, 500, heading="Something went wrong",
                    text="The server could not answer this request. Nothing was changed.")

    routes = [
        Route("/", landing),
        Mount("/static", app=StaticFiles(directory=str(resource_dir("templates") / "web" /
                                                        "static")), name="static"),
        Route("/moderator", guarded(moderator_home)),
        Route("/moderator/login", guarded(login), methods=["POST"]),
        Route("/moderator/logout", guarded(logout), methods=["POST"]),
        Route("/moderator/game/{game}", guarded(moderator_game)),
        Route("/moderator/game/{game}/{action}", guarded(moderator_action), methods=["POST"]),
        Route("/moderator/game/{game}/view/{viewer}", guarded(moderator_view)),
        Route("/{game}/{turn:turn}/{view}", guarded(report)),
        Route("/{game}/{turn:turn}/{view}/report.pdf", guarded(report_pdf)),
        Route("/{game}/{turn:turn}/{view}/orders", guarded(orders_page)),
        Route("/{game}/{turn:turn}/{view}/orders", guarded(orders_post), methods=["POST"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: missing, 405: missing,
                                                       500: failure, Exception: failure})
    app.router.redirect_slashes = False     # 'missing' redirects, to a relative address
    app.state.web = web
    app.add_middleware(SecurityHeaders)
    return app


def settle_race(store: Store, opened: Opened, result, text: str) -> str | None:
    """After storing orders: when another process processed a turn between their check and
    their storing (the web's own turns wait for the lock), the orders were either used by that
    turn or stay pending for the next; pending orders that no longer fit the new position are
    withdrawn at once, so the next turn never meets orders it cannot read. Returns what to tell
    the player, or None when no turn intervened."""
    game_id, player = opened.game.id, opened.viewer
    now = latest_number(store, game_id)
    if now == opened.turn.number or result.withdrawn:
        return None
    mine = store.pending(game_id).get(player)
    if mine is None or mine.id != result.submission_id:
        return f"Turn {now} was processed as your orders arrived; they were used in it."
    try:
        service.check_orders(store, game_id, player, text, ORDERS_FILE)
    except CompanionError:
        service.submit_orders(store, game_id, player, service.WITHDRAW, ORDERS_FILE)
        return (f"Turn {now} was processed as your orders arrived, and they do not fit the new "
                "position: they were withdrawn. Open the new turn and send new orders.")
    return f"Turn {now} was processed as your orders arrived; they stand for turn {now + 1}."


def located(exc: CompanionError, text: str) -> dict[str, Any]:
    """Every error of a refused order text at its line and column, and the text as a numbered
    listing with the bad lines marked."""
    from companion.engine.orders import OrdersRejected

    errors = []
    if isinstance(exc, OrdersRejected):
        for e in exc.errors:
            errors.append({"line": e.line.number if e.line else None, "column": e.col,
                           "length": e.length, "message": e.message,
                           "suggestion": e.suggestion})
    else:
        m = re.match(r"^[^:]*:(\d+):(\d+): (.*)$", exc.message)
        if m:
            errors.append({"line": int(m.group(1)), "column": int(m.group(2)), "length": 1,
                           "message": m.group(3), "suggestion": exc.hint})
        else:
            errors.append({"line": None, "column": None, "length": 1, "message": exc.message,
                           "suggestion": exc.hint})
    marks: dict[int, str] = {}
    for e in errors:
        if e["line"] and e["column"] and e["line"] not in marks:
            marks[e["line"]] = " " * (e["column"] - 1) + "^" * e["length"]
    bad = {e["line"] for e in errors}
    listing = []
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "" and len(lines) not in bad:
        lines.pop()                 # the end of the last line, not a line of its own
    for n, line in enumerate(lines, 1):
        listing.append({"number": str(n), "text": line, "bad": n in bad})
        if n in marks:
            listing.append({"number": "", "text": marks[n], "bad": True})
    return {"errors": errors, "listing": listing,
            "message": f"{len(errors)} error{'s' if len(errors) != 1 else ''}: nothing was "
                       "stored.", "message_class": "bad"}
