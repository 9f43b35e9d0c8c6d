"""What each viewer may see of a Holy Grail CCG game, and the report built from a view alone.

``view(kind, state, viewer)`` is pure. The secrets and who knows them (docs/grailccg-views.md):

* a hand is seen by its holder only; everyone else sees how many cards it holds;
* the order of a deck is seen by nobody (a count only), not even by its owner;
* a face-down area card is seen by nobody: the owner dealt it blind and the explorer has not
  turned it up yet. A player's view and the public view show such an area as "unexplored" in
  both Englands and in Avalon (only the moderator's view names the card);
* standing orders and the question put to a player are seen by that player only;
* everything face up is public: the Round Tables (members, pages and the items they carry),
  cards face up in England and Avalon, adversaries played onto areas, castle occupants, the
  ante, the dead carts (contents and order), the dispute in progress with all its numbers.

The public view holds no hand, no standing orders and no question at all.
"""
from __future__ import annotations

import re

from typing import Any

from companion.engine.game import MODERATOR, visible
from companion.grailccg import england as E
from companion.render import document as d

FIGURE = "companion.grailccg.views:england_flowable"

MULTI_HELP = [
    "... on <area> of <player>          whose England a card goes to (16.3)",
    "... against <player>               whom a card aimed at others hits",
]
"""Order-form lines added in games of three or more players."""
ORDER_HELP = [
    "play <card> [on <area|character>]  a card from your hand",
    "give <item> to <page>              an item for one of your pages",
    "pass <item> from <page> to <page>  hand an item on to another page",
    "use <item> [at <area>]             an item a page carries (not the turn given)",
    "move <area>                        one area: 1a..4b, av1..av4, home",
    "lead <knight>                      who leads the dispute",
    "fight [with <knight>]              settle the dispute by combat",
    "outwit [with <knight>]             settle it by wits",
    "run away [to <area>]               leave it (the opponent picks where)",
    "consult | assault | stay outside   at a castle",
    "decline [<knight>]                 no Round Table draw for the next one met (5)",
    "assign <page> to <knight>          a page whose knight died serves another",
    "search                             look for the Grail (Avalon)",
    "discard <card>, <card>             what goes when over the hand limit",
    "double                             double the ante after this turn",
    "end                                nothing more this turn",
    "standing orders, kept until replaced ('none' clears one):",
    "on dispute: play <card>, <card>    cards for the opponent's disputes",
    "on double: accept | concede        your answer to a doubled ante",
    "on retreat: <area>, <area>         where the opponent runs to",
    "on defend: <card>                  who holds your castles",
    "on reveal: apply | ignore          a turned-up card's primary property",
]

STATE_WORDS = {"down": "unexplored (face down)", "up": "face up", "open": "open land",
               "empty": "empty"}


# ------------------------------------------------------------------------------------ helpers
def _cards(kind):
    return kind.cards


def _card(kind, g: dict, inst: str) -> dict[str, Any]:
    """Everything printed on a card (public once the card is face up)."""
    card = kind.cards.get(g["cards"][inst])
    out: dict[str, Any] = {"name": card.name, "type": _type_name(card), "grail": card.grail,
                           "combat": card.combat, "wits": card.wits,
                           "icons": list(card.icons or ()), "text": _text(card)}
    if card.type == "page":
        out["capacity"] = card.capacity or 1
    return out


def _type_name(card) -> str:
    return getattr(card, "type_name", None) or str(card.type).replace("-", " ").title()


def _text(card) -> str:
    parts = []
    primary = getattr(card, "primary_text", "")
    secondary = getattr(card, "secondary_text", "")
    if primary and str(card.type) == "item":       # an item is carried or used (11.1)
        from companion.grailccg.cards import item_text

        label, said = item_text(card)
        parts.append(f"{label}: {said}")
    elif primary:
        parts.append(f"Played: {primary}")
    if secondary:
        parts.append(f"Turned up: {secondary}")
    outwits = getattr(card, "outwits_text", "")
    if outwits:
        parts.append(f"Wins at wits: {outwits}")
    if getattr(card, "defence", None) is not None:
        parts.append(f"Defence {card.defence}.")
    if getattr(card, "occupant", None):
        from companion.grailccg.printables import occupant_words

        parts.append(f"Held by {occupant_words(card.occupant)}.")
    if getattr(card, "castle_table", None):
        from companion.grailccg.printables import range_text

        parts.append("Castle table: " + "; ".join(
            f"{range_text(lo, hi)} {res.replace('-', ' ')}" for lo, hi, res in card.castle_table)
            + ".")
    if getattr(card, "village_table", None):
        from companion.grailccg.printables import table_runs

        parts.append("Village table: " + "; ".join(
            f"{lo if lo == hi else f'{lo}-{hi}'} {res.replace('-', ' ')}"
            for lo, hi, res in table_runs(card.village_table)) + ".")
    if getattr(card, "capacity", None):
        parts.append(f"Carries {card.capacity}.")
    if getattr(card, "draws", 0):
        parts.append(f"Draws +{card.draws}.")
    return " ".join(parts)


def _name(kind, g: dict, inst: str | None) -> str | None:
    if inst is None:
        return None
    return kind.cards.get(g["cards"][inst]).name


def _stats(c: dict[str, Any]) -> str:
    bits = []
    if c.get("combat") is not None:
        bits.append(f"combat {c['combat']}")
    if c.get("wits") is not None:
        bits.append(f"wits {c['wits']}")
    if c.get("icons"):
        bits.append("icons " + "+".join(c["icons"]))
    return ", ".join(bits)


def _other(g: dict, p: str) -> str:
    players = g["players"]
    return players[(players.index(p) + 1) % len(players)]


def _left(g: dict, p: str) -> str:
    """The player on ``p``'s left still in the game (16.3; the opponent with two players)."""
    players = g["players"]
    if len(players) <= 2:
        return _other(g, p)
    gone = set(g.get("out") or ()) | set(g.get("defeated") or ())
    i = players.index(p)
    for k in range(1, len(players)):
        q = players[(i + k) % len(players)]
        if q not in gone:
            return q
    return p


def _area(kind, g: dict, area: dict, name: str, viewer: str, holders: list[str]) -> dict:
    inst = area["card"]
    if inst is None:
        state = "open" if area["up"] else "empty"
    else:
        state = "up" if area["up"] else "down"
    out: dict[str, Any] = {
        "name": name, "state": state,
        "card": _card(kind, g, inst) if state == "up" else None,
        "foes": [_card(kind, g, f) for f in area["foes"]],
        "occupants": [_card(kind, g, f) for f in area["occupants"]],
        "outwitted": {p: [_name(kind, g, f) for f in fs]
                      for p, fs in sorted(area["outwitted"].items()) if fs},
        "searched": bool(area.get("searched")),
        "here": list(holders),
    }
    cs = area.get("castle")
    if cs:
        out["castle"] = {
            "outside": list(cs.get("outside", [])), "passage": list(cs.get("passage", [])),
            "breached": sorted(cs.get("breached", {})),
            "consulted": {p: n for p, n in sorted(cs.get("consulted", {}).items())},
            "assaulted": bool(cs.get("assaulted")),
            "held": [_name(kind, g, x) for x in cs.get("trapped", [])]}
    if viewer == MODERATOR and state == "down":
        out["hidden"] = _card(kind, g, inst)
    return out


def _table(kind, g: dict, p: str) -> dict[str, Any]:
    t = g["table"][p]
    pages = []
    for page, info in t["pages"].items():
        pages.append({"card": _card(kind, g, page), "serves": _name(kind, g, info["knight"]),
                      "items": [dict(_card(kind, g, i), usable=True) for i in info["items"]] +
                               [dict(_card(kind, g, i), usable=False) for i in info["new"]]})
    return {"at": t["at"], "from": t["from"],
            "members": [_card(kind, g, m) for m in t["members"]], "pages": pages}


def _dispute(kind, g: dict) -> dict[str, Any] | None:
    dsp = g.get("dispute")
    if not dsp:
        return None
    foe = kind.cards.get(g["cards"][dsp["foe"]])
    out = {"player": dsp["player"], "opponent": _left(g, dsp["player"]),
           "foe": _card(kind, g, dsp["foe"]), "area": dsp["area"], "kind": dsp["kind"],
           "methods": list(dsp["methods"]), "lead": _name(kind, g, dsp.get("lead")),
           "method": dsp.get("method"), "tied": dsp.get("tied") or 0,
           "rounds": dsp.get("rounds", 0),
           "mods": [{"side": m["side"], "what": m["what"], "value": m["value"], "by": m["by"],
                     "card": _name(kind, g, m.get("entry")) if m.get("entry") in g["cards"]
                     else None, "cancelled": bool(m.get("cancelled"))}
                    for m in dsp.get("mods", [])]}
    if dsp["kind"] == "assault":
        a = g["england"][dsp["player"]].get(dsp["area"]) if not dsp["area"].startswith("av") \
            else g["avalon"].get(dsp["area"])
        castle = a and a["card"]
        if castle:
            out["defence"] = kind.cards.get(g["cards"][castle]).defence or 0
    out["foe_type"] = _type_name(foe)
    return out


def _numbers(kind, g: dict) -> dict[str, Any] | None:
    last = g.get("last_dispute")
    if not last:
        return None
    out = {}
    for key, value in last.items():
        if key in ("lead", "foe") and isinstance(value, str) and value in g["cards"]:
            out[key] = _name(kind, g, value)
        else:
            out[key] = list(value) if isinstance(value, list) else value
    return out


def _standing_lines(kind, mine: dict) -> list[str]:
    out = []
    names = kind.cards.name
    for trig in ("dispute", "play", "invite"):
        cards = mine.get(trig) or []
        if cards:
            out.append(f"on {trig}: play " + ", ".join(names(c) for c in cards))
    for trig in ("double", "reveal"):
        if mine.get(trig):
            out.append(f"on {trig}: {mine[trig]}")
    if mine.get("retreat"):
        out.append("on retreat: " + ", ".join(mine["retreat"]))
    if mine.get("defend"):
        out.append("on defend: " + ", ".join(names(c) for c in mine["defend"]))
    return out


# --------------------------------------------------------------------------------------- view
def view(kind, state: dict, viewer: str) -> dict[str, Any]:
    g = state["game"]
    players = list(g["players"])
    pending = state.get("pending")
    c = g["counters"]
    holders: dict[str, list[str]] = {}
    for p in players:
        at = g["table"][p]["at"]
        holders.setdefault(at if at.startswith("av") else f"{p}:{at}", []).append(p)
    sides = []
    for p in players:
        o = _other(g, p)
        sides.append({
            "player": p, "builder": o,
            "hand": len(g["hands"][p]), "deck": len(g["decks"][p]),
            "dead": [_name(kind, g, x) for x in g["dead"][p]],
            "ante": [_name(kind, g, x) for x in g["ante"]["cards"][p]],
            "table": _table(kind, g, p),
            "england": {name: _area(kind, g, g["england"][p][name], name, viewer,
                                    holders.get(f"{p}:{name}", []))
                        for name in E.AREAS if name in g["england"][p]},
            "skips_draw": p in c.get("skip_draw", []),
            "grail_bonus": (c.get("grail_bonus") or {}).get(p, 0),
        } | ({"out": p in g.get("out", []), "forfeit_to": (g.get("forfeits") or {}).get(p)}
             if len(players) > 2 else {}))
    rules = state.get("rules") or {}
    no_join = c.get("no_join")
    v: dict[str, Any] = {
        "viewer": viewer, "players": players, "active": g["active"], "turn": g["turn"],
        "stage": g["stage"], "result": dict(g["result"]) if g.get("result") else None,
        "rules": {"hand_limit": rules.get("hand-limit", 7),
                  "doubling": rules.get("doubling", "on"),
                  "grail_draw": rules.get("grail-draw", "discard")},
        "sides": sides,
        "avalon": {name: _area(kind, g, a, name, viewer, holders.get(name, []))
                   for name, a in sorted(g["avalon"].items(), key=lambda x: E.order_key(x[0]))},
        "search_bonus": c.get("search_bonus", 0),
        "ante": {"share": g["ante"]["share"], "doubled": list(g["ante"]["doubled"]),
                 "last": g["ante"]["last"]},
        "dispute": _dispute(kind, g),
        "numbers": _numbers(kind, g),
        "no_join": {"until": no_join["until"]} if no_join else None,
        "defeated": list(g.get("defeated") or []),
        "events": [e["text"] for e in state.get("events", []) if visible(e, viewer)],
        "awaited": kind.awaited(state),
        "paused_for": pending["question"]["player"] if pending else None,
    }
    if viewer in players:
        v["hand"] = [_card(kind, g, x) for x in g["hands"][viewer]]
        v["standing"] = _standing_lines(kind, state["standing"].get(viewer, {}))
        v["asks"] = _asks(kind, state, viewer)
    if viewer == MODERATOR:
        v["hands"] = {p: [_name(kind, g, x) for x in g["hands"][p]] for p in players}
        v["deck_tops"] = {p: [_name(kind, g, x) for x in g["decks"][p][:5]] for p in players}
        v["question"] = dict(pending["question"]) if pending else None
        v["standing_all"] = {p: _standing_lines(kind, state["standing"].get(p, {}))
                             for p in players}
    return v


def option_groups(lines: list[str]) -> list[tuple[str, list[str]]]:
    groups = [("Settle the dispute", ("fight", "outwit", "run away", "lead")),
              ("Cards from your hand and items", ("play ", "give ", "pass ", "use ")),
              ("Move the Round Table", ("move ",)),
              ("Castle and Avalon", ("consult", "assault", "stay outside", "search")),
              ("After your turn", ("discard", "double", "end"))]
    out: list[tuple[str, list[str]]] = []
    taken: set[int] = set()
    for title, heads in groups:
        mine = []
        for i, line in enumerate(lines):
            if i not in taken and line.startswith(heads):
                mine.append(line)
                taken.add(i)
        if mine:
            out.append((title, mine))
    rest = [line for i, line in enumerate(lines) if i not in taken]
    if rest:
        out.append(("Other lines", rest))
    return out


def page_label(name: str) -> str:
    """A page's name as the Round Tables list it: 'Page Patsy', but 'Page' and 'Humphrey the
    Page' as they are (a name that already says it is a page gets no second 'Page')."""
    return name if "page" in re.findall(r"[a-z]+", name.lower()) else f"Page {name}"


def _asks(kind, state: dict, player: str) -> dict[str, Any]:
    g = state["game"]
    pending = state.get("pending")
    lines = kind.options_for(state, player)
    if g["stage"] == "over":
        return {"expects": "nothing", "prompt": "Nothing: the game is over.", "groups": []}
    if pending and pending["question"]["player"] == player:
        q = pending["question"]
        return {"expects": "answer",
                "prompt": "The game waits for your answer: " + q["prompt"] + " Send one of "
                          "the lines below (you may add orders for the rest of your turn).",
                "groups": [{"title": "Answer with one of these lines", "lines": lines}]}
    if player in g.get("out", ()):
        return {"expects": "nothing", "prompt": "Nothing: you are out of the game (16.3); the "
                "others play on.", "groups": []}
    if player in (g.get("defeated") or ()):
        return {"expects": "nothing", "prompt": "Nothing: you are out of the game; "
                f"{g['active']} searches on alone for the Grail and the ante (15.3).",
                "groups": []}
    standing = [{"title": "Standing orders you may send now (kept until replaced)",
                 "lines": lines}] if lines else []
    if pending:
        return {"expects": "nothing",
                "prompt": f"Nothing now: the game waits for {pending['question']['player']}'s "
                          "answer. Only standing orders are taken from you meanwhile.",
                "groups": standing}
    if g["active"] == player:
        return {"expects": "turn",
                "prompt": f"It is your turn ({g['turn']}). Your orders are carried out from "
                          "the top; a line that cannot be carried out when its turn comes is "
                          "left out, and the report says why.",
                "groups": [{"title": t, "lines": ls} for t, ls in option_groups(lines)]}
    return {"expects": "nothing",
            "prompt": f"Nothing now: it is {g['active']}'s turn. Until your own turn begins "
                      "only standing orders are taken from you (cards to play in the others' "
                      "disputes, your answer to a doubled ante, where a Round Table you oppose "
                      "runs to, who holds your castles, whether a card turned up works for "
                      "you); orders for your turn are refused until then.",
            "groups": standing}


# ------------------------------------------------------------------------------------- report
def _card_row(c: dict[str, Any]) -> list[str]:
    return [c["name"], c["type"], str(c["grail"]),
            "-" if c["combat"] is None else str(c["combat"]),
            "-" if c["wits"] is None else str(c["wits"]),
            "+".join(c["icons"]) or "-", c["text"] or "-"]


CARD_COLUMNS = ["Card", "Type", "Grail", "Combat", "Wits", "Icons", "Text"]
CARD_WIDTHS = [2.2, 1.2, 0.6, 0.8, 0.6, 1.1, 4.2]


def card_line(c: dict[str, Any]) -> str:
    """A card on one line: name, type, grail number, stats and text."""
    stats = _stats(c)
    line = f"{c['name']} ({c['type']}, grail {c['grail']}" + (f", {stats}" if stats else "") + ")"
    return line + (f": {c['text']}" if c["text"] else "")


def _area_lines(areas: dict[str, dict[str, Any]]) -> list[str]:
    """One line per area worth a line; the plain unexplored ones together."""
    out = []
    blank = []
    for n, a in areas.items():
        cell = _area_cell(a)
        if cell == "unexplored":
            blank.append(n)
        else:
            out.append(f"{n}: {cell}")
    if blank:
        out.append("unexplored, nothing known: " + ", ".join(blank))
    return out


def _with_stats(c: dict[str, Any]) -> str:
    stats = ", ".join(f"{k} {c[k]}" for k in ("combat", "wits") if c.get(k) is not None)
    return f"{c['name']} ({stats})" if stats else c["name"]


def _area_cell(a: dict[str, Any]) -> str:
    if a["state"] == "down":
        base = "unexplored"
    elif a["state"] == "up":
        base = a["card"]["name"]
        if a["card"]["type"] in ("Castle", "Village", "Land") and a["card"]["text"]:
            base += f" ({a['card']['type'].lower()}: {a['card']['text'].rstrip('.')})"
    else:
        base = STATE_WORDS[a["state"]]
    if a["foes"]:
        base += "; waiting there: " + ", ".join(_with_stats(f) for f in a["foes"])
    if a["occupants"]:
        base += "; held by " + ", ".join(_with_stats(f) for f in a["occupants"])
    for p, names in a["outwitted"].items():
        base += f"; outwitted by {p}: " + ", ".join(names)
    cs = a.get("castle")
    if cs:
        if cs["consulted"]:
            base += "; table consulted by " + ", ".join(f"{p} ({n}x)" for p, n in
                                                          cs["consulted"].items())
        if cs["passage"]:
            base += "; lets pass " + ", ".join(cs["passage"])
        if cs["breached"]:
            base += "; breached by " + ", ".join(cs["breached"])
        if cs["outside"]:
            base += "; staying outside: " + ", ".join(cs["outside"])
        if cs["held"]:
            base += "; holding " + ", ".join(cs["held"])
    if a["searched"]:
        base += "; searched"
    if a["here"]:
        base += " [Round Table of " + ", ".join(a["here"]) + "]"
    if a.get("hidden"):
        base += f" (moderator: {a['hidden']['name']})"
    return base


def _short(a: dict[str, Any], width: int = 12) -> str:
    if a["state"] == "down":
        text = "?"
    elif a["state"] == "up":
        text = a["card"]["name"]
    else:
        text = "open"
    if a["foes"] or a["occupants"]:
        text = "!" + text
    if len(text) > width:
        text = text[:width - 1] + "."
    if a["here"]:
        text = "*" + text
    return text


def layout_text(v: dict[str, Any]) -> list[str]:
    """The email's picture of England and Avalon: '?' unexplored, '!' an adversary waits,
    '*' a Round Table stands there."""
    out = []
    cells = " ".join(f"[{n} {_short(a)}]" for n, a in v["avalon"].items())
    out.append(f"Avalon (shared; search bonus +{v['search_bonus']}): {cells}")
    for side in v["sides"]:
        out.append("")
        out.append(f"England explored by {side['player']} (laid from {side['builder']}'s cards):")
        home = side["table"]["at"] == E.HOME
        rows = [(f"row {row[0][0]}", " ".join(f"[{n} {_short(side['england'][n])}]"
                                               for n in row)) for row in reversed(E.ROWS)]
        rows.append(("home", "[" + ("*" if home else "") + f"{side['player']}'s Round Table]"))
        width = max(len(cells) for _, cells in rows)
        for label, cells in rows:
            pad = " " * ((width - len(cells)) // 2)
            out.append(f"  {label + ':':<7}" + pad + cells)
    out.append("")
    out.append("? unexplored  ! an adversary waits there  * a Round Table stands there")
    return out


def _figure_data(v: dict[str, Any]) -> dict[str, Any]:
    def cell(a):
        label = {"down": "unexplored", "open": "open land", "empty": "empty"}.get(a["state"]) \
            if a["state"] != "up" else a["card"]["name"]
        return {"label": label, "state": a["state"], "foes": [f["name"] for f in
                                                               a["foes"] + a["occupants"]],
                "here": list(a["here"]), "searched": a["searched"]}
    return {"avalon": {n: cell(a) for n, a in v["avalon"].items()},
            "search_bonus": v["search_bonus"],
            "boards": [{"player": s["player"], "builder": s["builder"],
                        "home": s["table"]["at"] == E.HOME,
                        "areas": {n: cell(a) for n, a in s["england"].items()}}
                       | ({"out": s["out"]} if "out" in s else {})
                       for s in v["sides"]]}


def report(kind, v: dict[str, Any]) -> dict[str, Any]:
    env = v["envelope"]
    viewer = v["viewer"]
    is_player = viewer in v["players"]
    header = [["Game", env["game_id"]], ["Turn", str(env["turn"])],
              ["Report for", viewer if is_player else
               ("the moderator" if viewer == MODERATOR else "everybody (public report)")],
              ["Processed", env["date"]],
              ["Players", ", ".join(v["players"]) + " (seat order)"]]
    if v["stage"] == "over":
        stage = "the game is over"
    elif v["paused_for"]:
        stage = f"{v['active']}'s turn {v['turn']}, paused: waiting for {v['paused_for']}"
    else:
        stage = f"{v['active']}'s turn {v['turn']}"
    header.append(["Stage", stage])
    sections = [d.section("What happened", d.bullet_list(v["events"] or
                                                         ["Nothing has happened yet."]))]
    if v["result"]:
        r = v["result"]
        text = (f"A draw: {r['reason']}." if r.get("draw") or not r.get("winner") else
                f"{r['winner']} wins: {r['reason']}.")
        sections.append(d.section("Result", d.para(text)))

    if is_player:
        rows = [card_line(c) for c in v["hand"]]
        blocks = [d.para(f"Private: only you see your hand ({len(rows)} "
                         f"card{'s' if len(rows) != 1 else ''}, in the order you got them).")]
        if rows:
            blocks.append(d.bullet_list(rows))
        sections.append(d.section("Your hand", *blocks))

    blocks = [d.figure(FIGURE, _figure_data(v), "\n".join(layout_text(v))),
              d.para(("Each player explores an England laid face down from the opponent's "
                      "cards. " if len(v["players"]) <= 2 else
                      "Each player explores an England laid face down from the cards of the "
                      "player on their left, who also draws the grail numbers of its "
                      "adversaries (16.3). ") +
                     "Nobody knows a face-down card until it is turned up, not even "
                     "the player who dealt it, so unexplored areas are shown blank in every "
                     "report.")]
    for side in v["sides"]:
        where = side["table"]["at"]
        blocks.append(d.para(f"England explored by {side['player']}: the Round Table is at "
                             f"{'home (the Round Table area)' if where == E.HOME else where}."))
        blocks.append(d.bullet_list(_area_lines(side["england"])))
    blocks.append(d.para(f"Avalon (shared, reached from 4a or 4b): a search adds "
                         f"+{v['search_bonus']} for the earlier searches that failed; 6 or "
                         "more finds the Grail."))
    blocks.append(d.bullet_list(_area_lines(v["avalon"])))
    sections.append(d.section("England and Avalon", *blocks))

    blocks = []
    for side in v["sides"]:
        t = side["table"]
        members = [_card_row(c)[:6] for c in t["members"]]
        blocks.append(d.para(f"{side['player']}'s Round Table "
                             f"({'at home' if t['at'] == E.HOME else 'in ' + t['at']}"
                             + (f", came from {t['from']}" if t["from"] else "") + "):"))
        if members:
            blocks.append(d.table(CARD_COLUMNS[:6], members, CARD_WIDTHS[:6]))
        else:
            blocks.append(d.para("No knights or personas."))
        pages = []
        for pg in t["pages"]:
            items = "; ".join(f"{i['name']} ("
                              f"{'usable' if i['usable'] else 'usable from next turn'})"
                              for i in pg["items"]) or "nothing"
            room = pg["card"].get("capacity") or 1
            free = room - len(pg["items"])      # what it can still take, not its capacity
            space = (f"room for {free}" if not pg["items"] else
                     f"room for {free} more" if free > 0 else "no room for more")
            pages.append(f"{page_label(pg['card']['name'])}, serving "
                         f"{pg['serves'] or 'no knight'}, carries {items} ({space}).")
        if pages:
            blocks.append(d.bullet_list(pages))
    sections.append(d.section("The Round Tables", *blocks))

    rows = []
    for side in v["sides"]:
        rows.append([side["player"], str(side["deck"]), str(side["hand"]),
                     str(len(side["dead"])), "; ".join(side["ante"]) or "-"])
    ante = v["ante"]
    blocks = [d.table(["Player", "Deck", "Hand", "Dead cart", "Ante (face up)"], rows,
                      [1.6, 0.8, 0.8, 1, 4]),
              d.para(f"Each player has {ante['share']} card{'s' if ante['share'] != 1 else ''} "
                     "in the ante" + (f"; doubled by {', '.join(ante['doubled'])}"
                                      if ante["doubled"] else "")
                     + ". Deck order is secret to everybody; the dead carts are open to all.")]
    notes = []
    for side in v["sides"]:
        if side["skips_draw"]:
            notes.append(f"{side['player']} misses the next draw phase.")
        if side.get("grail_bonus"):
            notes.append(f"{side['player']}'s next grail number gets {side['grail_bonus']:+d} "
                         "(a card played earlier; it waits until that number is drawn).")
    for side in v["sides"]:
        if side.get("out"):
            notes.append(f"{side['player']} is out of the game (16.3); their cards stay where "
                         "they are.")
        if side.get("forfeit_to"):
            notes.append(f"{side['player']} conceded a doubled ante: their ante is forfeit to "
                         f"{side['forfeit_to']}, who takes it when the game ends (16.2).")
    for p in v.get("defeated", []):
        notes.append(f"{p} is out of the game; the other player searches on alone for the "
                     "Grail and the ante (15.3).")
    if v["no_join"]:
        notes.append("No knight or persona turned up joins a Round Table until the end of turn "
                     f"{v['no_join']['until']}.")
    if notes:
        blocks.append(d.bullet_list(notes))
    for side in v["sides"]:
        if side["dead"]:
            blocks.append(d.para(f"{side['player']}'s dead cart (oldest first): "
                                 + "; ".join(side["dead"]) + "."))
    sections.append(d.section("Decks, dead carts and the ante", *blocks))

    sections.append(d.section("Disputes", *_dispute_blocks(v)))

    if is_player and v["stage"] == "over":
        sections.append(d.section("What is asked of you",
                                  d.para("Nothing: the game is over; thank you for playing.")))
    elif is_player:
        asks = v["asks"]
        blocks = [d.para(asks["prompt"])]
        if asks["groups"]:
            blocks.append(d.options([(g["title"], g["lines"]) for g in asks["groups"]]))
        blocks.append(d.para("Your standing orders: " + ("; ".join(v["standing"]) or
                                                         "none (the defaults apply).")))
        sections.append(d.section("What is asked of you", *blocks))
        sections.append(d.section(
            "Order form", d.code(ORDER_HELP + (MULTI_HELP if len(v["players"]) > 2 else [])),
            d.form(8, "Write one order per line and send it to the moderator. Names may be "
                      "shortened to any beginning that is not ambiguous; case, accents and "
                      "punctuation do not matter. '#' starts a comment.")))
    else:
        if v["awaited"]:
            sections.append(d.section("Orders awaited", d.para(
                "Orders are now needed from: " + ", ".join(v["awaited"]) + ".")))
        if viewer == MODERATOR:
            rows = [[p, "; ".join(h) or "-", "; ".join(v["deck_tops"][p]) or "-",
                     "; ".join(v["standing_all"][p]) or "-"] for p, h in v["hands"].items()]
            sections.append(d.section("Secrets (moderator only)",
                                      d.table(["Player", "Hand", "Deck top", "Standing"], rows,
                                              [1, 3, 3, 3])))
    footer = (f"Holy Grail CCG - game {env['game_id']} - turn {env['turn']} - "
              + (f"private report for {viewer}" if is_player else "public report"))
    return {"title": "Monty Python and the Holy Grail CCG",
            "pdf_title": f"{env['game_id']} turn {env['turn']} - "
                         f"{viewer if is_player else 'public'}",
            "subject": "turn report", "header": header, "qr": env["link"],
            "qr_label": env["link_label"], "footer": footer, "sections": sections}


def _dispute_blocks(v: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = []
    dsp = v["dispute"]
    if dsp:
        foe = dsp["foe"]
        what = "an assault on a castle held by" if dsp["kind"] == "assault" else "a dispute with"
        text = (f"In progress: {dsp['player']}'s Round Table is in {what} {foe['name']} "
                f"({dsp['foe_type']}, {_stats(foe) or 'no stats'}) in {dsp['area']}. It may be "
                "met by " + " or ".join("combat" if m == "combat" else "wits"
                                        for m in dsp["methods"]) + ".")
        if dsp.get("defence"):
            text += f" The castle adds its defence {dsp['defence']} to the defender's combat."
        if dsp["lead"]:
            text += f" Lead: {dsp['lead']}" + (f" by {dsp['method']}" if dsp["method"] else "") \
                + "."
        if dsp["tied"]:
            text += f" It was tied on turn {dsp['tied']} and goes on the turn after."
        blocks.append(d.para(text))
        if dsp["mods"]:
            rows = [[m["card"] or "-", m["by"], f"{m['value']:+d} {m['what']}",
                     dsp["player"] + "'s side" if m["side"] == "player" else foe["name"],
                     "cancelled" if m["cancelled"] else "counts"] for m in dsp["mods"]]
            blocks.append(d.table(["Card", "Played by", "Change", "For", "Status"], rows,
                                  [2, 1.4, 1, 2, 1]))
        else:
            blocks.append(d.para("No cards have been played on it yet."))
    else:
        blocks.append(d.para("No dispute is in progress."))
    n = v["numbers"]
    if n:
        blocks.append(d.para("The last numbers drawn:"))
        blocks.append(d.table(["What", "Value"], _number_rows(n), [2.5, 4]))
    return blocks


def _number_rows(n: dict[str, Any]) -> list[list[str]]:
    kind = n.get("kind")
    if kind == "castle table":
        g1, g2 = (list(n.get("grail") or [0, 0]) + [0, 0])[:2]
        return [["Castle table consulted by", f"{n.get('player')} with {n.get('lead')}"],
                ["Grail numbers", f"{g1} + {g2}"],
                ["Wits of the consultant", f"+{n.get('lead_value')}"],
                ["Wits of the inhabitant", f"-{n.get('foe_value')} ({n.get('foe')})"],
                ["Total", str(n.get("total"))], ["Result", str(n.get("result"))]]
    if kind == "village table":
        return [["Village table for", str(n.get("player"))],
                ["Grail number", str(n.get("grail"))], ["Result", str(n.get("result"))]]
    if kind == "search":
        return [["Search by", f"{n.get('player')} in {n.get('area')}"],
                ["Grail number", str(n.get("grail"))],
                ["Earlier failed searches", f"+{n.get('bonus')}"],
                ["Total (6+ finds the Grail)", str(n.get("total"))]]
    rows = [["Dispute", f"{n.get('player')} ({n.get('kind')}, by {n.get('method')})"],
            ["Lead", f"{n.get('lead')}: {n.get('lead_value')}"]]
    if n.get("assist"):
        rows.append(["Other knights", f"+{n['assist']}"])
    if n.get("cards"):
        rows.append(["Cards played", f"{n['cards']:+d}"])
    if n.get("items"):
        rows.append(["Items", f"{n['items']:+d}"])
    rows.append(["Grail number", str(n.get("grail"))])
    rows.append(["Total", str(n.get("total"))])
    rows.append(["Adversary", f"{n.get('foe')}: {n.get('foe_value')}"])
    if n.get("defence"):
        rows.append(["Castle defence", f"+{n['defence']}"])
    if n.get("foe_cards"):
        rows.append(["Cards played against", f"{n['foe_cards']:+d}"])
    rows.append([f"Its grail number ({n['drawer']}'s deck)" if n.get("drawer") else
                 "Its grail number (opponent's deck)", str(n.get("foe_grail"))])
    rows.append(["Adversary's total", str(n.get("foe_total"))])
    return rows


# ------------------------------------------------------------------------------------- figure
AREA_FILL = {"down": (0.80, 0.76, 0.66), "up": (0.97, 0.95, 0.89), "open": (0.90, 0.94, 0.86),
             "empty": (0.93, 0.93, 0.93)}
INK = (0.25, 0.22, 0.18)
RED = (0.70, 0.12, 0.10)
GOLD = (0.85, 0.65, 0.13)


def _fit(c, text: str, font: str, size: float, width: float) -> tuple[str, float]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while size > 4.5 and stringWidth(text, font, size) > width:
        size -= 0.25
    while len(text) > 3 and stringWidth(text, font, size) > width:
        text = text[:-2] + "."
    return text, size


def draw_cell(c, x: float, y: float, w: float, h: float, name: str, cell: dict | None,
              fonts) -> None:
    """One area: its name small at the top, the card (or 'unexplored') in the middle, the
    adversaries waiting there in red, a gold ring where a Round Table stands."""
    state = cell["state"] if cell else "empty"
    c.setFillColorRGB(*AREA_FILL.get(state, AREA_FILL["empty"]))
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.6)
    c.roundRect(x, y, w, h, 3, stroke=1, fill=1)
    c.setFillColorRGB(*INK)
    c.setFont(fonts.SANS_BOLD, 5.5)
    c.drawString(x + 2.5, y + h - 7, name)
    if cell:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        label, size = _fit(c, cell["label"], fonts.SANS, 6.5, w - 5)
        c.setFont(fonts.SANS, size)
        baseline = y + h / 2 - 1
        if (x + (w - stringWidth(label, fonts.SANS, size)) / 2
                < x + 4 + stringWidth(name, fonts.SANS_BOLD, 5.5) and h < 2 * (size + 5.5)):
            baseline = y + 4        # a low cell (the home area): under the name, not on it
        c.drawCentredString(x + w / 2, baseline, label)
        if cell["foes"]:
            text, size = _fit(c, "! " + ", ".join(cell["foes"]), fonts.SANS_BOLD, 5.5, w - 5)
            c.setFillColorRGB(*RED)
            c.setFont(fonts.SANS_BOLD, size)
            c.drawCentredString(x + w / 2, y + 3, text)
        if cell.get("searched"):
            c.setFillColorRGB(*INK)
            c.setFont(fonts.SANS, 5)
            c.drawRightString(x + w - 2.5, y + h - 7, "searched")
        if cell["here"]:
            c.setStrokeColorRGB(*GOLD)
            c.setLineWidth(2)
            c.roundRect(x + 1.5, y + 1.5, w - 3, h - 3, 2.5, stroke=1, fill=0)
            c.setFillColorRGB(*GOLD)
            c.setFont(fonts.SANS_BOLD, 5.5)
            c.drawRightString(x + w - 3, y + h - 7, ", ".join(cell["here"])[:18])


def draw_layout(c, data: dict[str, Any], x0: float, y0: float, width: float, fonts) -> float:
    """England and Avalon as in the report; returns the height used (drawn downwards from
    y0, the top edge)."""
    boards = data["boards"]
    gap = 14
    per_row = board_columns(len(boards))
    bw = (width - gap * (per_row - 1)) / per_row
    cw = bw / 4.3
    ch = 28
    top = y0
    # Avalon, shared, centred
    names = list(data["avalon"])
    aw = min(cw * 1.1, (width - 20) / max(1, len(names)))
    ax = x0 + (width - aw * len(names)) / 2
    c.setFillColorRGB(*INK)
    c.setFont(fonts.SANS_BOLD, 7.5)
    c.drawCentredString(x0 + width / 2, top - 8,
                        f"Avalon (shared) - search bonus +{data['search_bonus']}")
    for i, n in enumerate(names):
        draw_cell(c, ax + i * aw + 1, top - 12 - ch, aw - 2, ch, n, data["avalon"][n], fonts)
    top -= 12 + ch + 12
    avalon = y0 - top
    for b, board in enumerate(boards):
        band, column = divmod(b, per_row)
        in_band = min(per_row, len(boards) - band * per_row)    # a shorter last band: centred
        bx = x0 + (width - in_band * bw - (in_band - 1) * gap) / 2 + column * (bw + gap)
        top = y0 - avalon - band * (BOARD_HEIGHT + BOARD_GAP)
        c.setFillColorRGB(*INK)
        c.setFont(fonts.SANS_BOLD, 7)
        title, size = _fit(c, f"{board['player']}'s England (from {board['builder']}'s cards)",
                           fonts.SANS_BOLD, 7, bw)
        c.setFont(fonts.SANS_BOLD, size)
        c.drawCentredString(bx + bw / 2, top - 7, title)
        y = top - 10
        for row in reversed(E.ROWS):
            y -= ch + 2
            rx = bx + (bw - cw * len(row)) / 2
            for i, n in enumerate(row):
                draw_cell(c, rx + i * cw + 1, y, cw - 2, ch, n, board["areas"].get(n), fonts)
        y -= 18 + 2
        home = {"label": "Round Table area", "state": "open", "foes": [],
                "here": [board["player"]] if board["home"] else [], "searched": False}
        draw_cell(c, bx + (bw - cw * 2) / 2 + 1, y, cw * 2 - 2, 18, "home", home, fonts)
    return y0 - y


BOARD_HEIGHT = 10 + 4 * (28 + 2) + 18 + 2
"""One England in the PDF: its title, four rows of areas and the Round Table area."""
BOARD_GAP = 12
"""Between two rows of Englands."""
BOARDS_PER_ROW = 3
"""At most this many Englands side by side on the page: four to six players' Englands take two
rows (2 + 2, 3 + 2, 3 + 3), each wide enough for its areas' names to be read."""


def board_columns(count: int) -> int:
    """How many Englands stand side by side: the fewest rows of at most BOARDS_PER_ROW, as
    evenly filled as they can be."""
    count = max(1, count)
    rows = -(-count // BOARDS_PER_ROW)
    return -(-count // rows)


def england_flowable(data: dict[str, Any], width: float):
    """A platypus flowable for the report: the Englands (in rows of up to three) with the
    shared Avalon above."""
    from reportlab.platypus import Flowable

    from companion.render import fonts

    fonts.register_fonts()
    count = max(1, len(data.get("boards") or []))
    rows = -(-count // board_columns(count))
    rows_height = 12 + 28 + 12 + rows * BOARD_HEIGHT + (rows - 1) * BOARD_GAP + 6

    class Layout(Flowable):
        def wrap(self, avail_width, avail_height):
            return width, rows_height

        def draw(self):
            draw_layout(self.canv, data, 0, rows_height, width, fonts)

    return Layout()


SVG_WIDTH = 360
"""The England/Avalon SVG's width in user units: about a phone's column in CSS pixels, so that
its smallest text (SVG_SIZES) stays above 9 pixels there; it scales up on a larger screen."""
SVG_SIZES = {"title": 12, "name": 10, "label": 11, "foes": 10, "note": 9.5}
"""Font sizes of the SVG's texts in user units (bold: title, name, foes and the Round Table's
holder, drawn at the size of "name")."""


def england_svg(data: dict[str, Any]) -> str:
    """England and Avalon as SVG for the web view (the twin of :func:`england_flowable`, found
    by companion/render/report_html.py), laid out for a phone: one column SVG_WIDTH units wide,
    the shared Avalon on top (four areas to a row), then each player's England under it (as
    many as the data holds), with the Round Table area under each. Every text is at least
    9.5 units (SVG_SIZES): a name too long for its area is wrapped (the card and the foes there
    share three lines), then ends in an ellipsis, never shrunk (the area's ``title`` holds all
    of it). Built
    from the figure data alone (what the viewer may see); every text is escaped here; no style
    attribute, no script; fixed number formatting (same data, same bytes)."""
    from companion.render.cardtable import clip, esc, wrap
    from companion.render.fonts import SANS, SANS_BOLD

    def colour(rgb) -> str:
        return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)

    def num(value: float) -> str:
        text = f"{value:.1f}"
        return text[:-2] if text.endswith(".0") else text

    size = SVG_SIZES
    ink, red, gold = colour(INK), colour(RED), colour(GOLD)
    width, pad, gap = SVG_WIDTH, 6, 16
    widest = max(len(row) for row in E.ROWS)
    cw = (width - 2 * pad) / widest
    ch = 66
    boards = list(data.get("boards") or [])
    avalon = list((data.get("avalon") or {}).items())
    out: list[str] = []

    def say(x: float, y: float, value: str, kind: str, fill: str, anchor: str = "start",
            bold: bool = False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        middle = "" if anchor == "start" else f' text-anchor="{anchor}"'
        out.append(f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size[kind])}"{weight}'
                   f'{middle} fill="{fill}">{esc(value)}</text>')

    def cell(x: float, y: float, w: float, h: float, name: str, c: dict | None) -> None:
        state = (c or {}).get("state", "empty")
        fill = colour(AREA_FILL.get(state, AREA_FILL["empty"]))
        label = str((c or {}).get("label") or "")
        foes = [str(f) for f in (c or {}).get("foes") or []]
        here = [str(p) for p in (c or {}).get("here") or []]
        searched = bool((c or {}).get("searched"))
        tip = f"{name}: {label}"
        if foes:
            tip += "; waiting there: " + ", ".join(foes)
        if searched:
            tip += "; searched"
        if here:
            tip += "; Round Table of " + ", ".join(here)
        out.append(f'<g><title>{esc(tip)}</title>')
        out.append(f'<rect x="{num(x + 2)}" y="{num(y + 2)}" width="{num(w - 4)}" '
                   f'height="{num(h - 4)}" rx="5" fill="{fill}" stroke="{ink}" '
                   f'stroke-width="1"/>')
        if here:
            out.append(f'<rect x="{num(x + 5)}" y="{num(y + 5)}" width="{num(w - 10)}" '
                       f'height="{num(h - 10)}" rx="4" fill="none" stroke="{gold}" '
                       f'stroke-width="3"/>')
        say(x + 8, y + 15, name, "name", ink, bold=True)
        room = w - 16 - len(name) * size["name"] * 0.68 - 4    # right of the area's name
        if searched:
            say(x + w - 8, y + 15, clip("searched", SANS, size["note"], room), "note", ink,
                "end")
        elif here:
            say(x + w - 8, y + 15, clip(", ".join(here), SANS_BOLD, size["name"], room),
                "name", gold, "end", bold=True)
        if h < 50:                                              # the Round Table area
            say(x + w / 2, y + h - 11, clip(label, SANS, size["label"], w - 14), "label", ink,
                "middle")
        else:                   # the card and the foes waiting there: three lines at most
            lines = [(line, "label", ink, False)
                     for line in wrap(label, SANS, size["label"], w - 14, 3 if not foes else 2)]
            if foes:
                lines += [(line, "foes", red, True)
                          for line in wrap("! " + ", ".join(foes), SANS_BOLD, size["foes"],
                                           w - 12, 3 - len(lines))]
            for k, (line, kind, fill, bold) in enumerate(lines):
                say(x + w / 2, y + 44.5 + (k - (len(lines) - 1) / 2) * 11.5, line, kind, fill,
                    "middle", bold=bold)
        out.append("</g>")

    def heading(y: float, value: str) -> float:
        """A bold title across the figure (two lines at most); returns the y under it."""
        for line in wrap(value, SANS_BOLD, size["title"], width - 2 * pad, 2):
            say(width / 2, y + 12, line, "title", ink, "middle", bold=True)
            y += 15
        return y + 3

    y = heading(pad, f"Avalon (shared), search bonus +{data.get('search_bonus', 0)}")
    for start in range(0, len(avalon), widest):
        row = avalon[start:start + widest]
        rx = (width - cw * len(row)) / 2
        for i, (name, c) in enumerate(row):
            cell(rx + i * cw, y, cw, ch, name, c)
        y += ch
    for board in boards:
        y = heading(y + gap, f"{board.get('player', '')}'s England (from "
                             f"{board.get('builder', '')}'s cards)")
        areas = board.get("areas") or {}
        for row in reversed(E.ROWS):
            rx = (width - cw * len(row)) / 2
            for i, name in enumerate(row):
                cell(rx + i * cw, y, cw, ch, name, areas.get(name))
            y += ch
        home = {"label": "Round Table area", "state": "open", "foes": [],
                "here": [board.get("player", "")] if board.get("home") else [],
                "searched": False}
        cell((width - cw * 2) / 2, y + 6, cw * 2, 40, E.HOME, home)
        y += 6 + 40
    height = y + pad
    names = ", ".join(str(b.get("player", "")) for b in boards)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
            f'role="img" aria-label="{esc("England and Avalon: the Englands of " + names)}" '
            f'class="grailccg-england" font-family="DejaVu Sans, sans-serif">')
    return head + "".join(out) + "</svg>"
