"""What each viewer may see of a Gral game, and the report built from that view alone.

``view(state, viewer)`` is a pure function. A player's view holds the public position and
knowledge, the events that player may see, and only that player's own sheet and standing
orders. The public view holds no sheet at all. When the game is over, every sheet and every
salt of the sheet commitments is public.
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import MODERATOR, PUBLIC, visible
from companion.engine.words import counted, word_for
from companion.gral.orders import objection_text
from companion.gral.rules import free_units, influence, listed
from companion.render import document as d


def codes(world) -> dict[str, str]:
    """Two-letter codes of the initiates (initials of first and last name), unique."""
    out: dict[str, str] = {}
    for i in world.initiates:
        words = i.name.replace("-", " ").split()
        code = (words[0][0] + words[-1][0]).upper()
        while code in out.values():
            code = code[0] + chr(ord(code[1]) + 1)
        out[i.id] = code
    return out


def _sheet_view(kind, state: dict, player: str) -> dict[str, Any]:
    w = kind.world
    sheet = state["sheets"][player]
    units = [{"id": u.id, "bar": u.bar, "value": u.value,
              "initiate": w.initiate[sheet["units"][u.id]].name if u.id in sheet["units"] else None}
             for u in w.units]
    totals = []
    for i in w.initiates:
        gross = sum(w.unit[u].value for u, t in sheet["units"].items() if t == i.id)
        paid = sheet["paid"].get(i.id, 0)
        if gross or paid:
            totals.append({"initiate": i.name, "assigned": gross, "paid": paid,
                           "influence": gross - paid,
                           "uncovered": state["pieces"][i.id] is None})
    spent = sum(w.unit[u].value for u in sheet["units"])
    return {"player": player, "units": units, "totals": totals, "assigned": spent,
            "free": w.total_points - spent}


def view(kind, state: dict, viewer: str) -> dict[str, Any]:
    w = kind.world
    players = state["players"]
    over = state["phase"] == "over"
    code = codes(w)
    v: dict[str, Any] = {
        "viewer": viewer,
        "players": list(players),
        "first": state["first"],
        "phase": state["phase"],
        "next": state["next"] if state["phase"] == "round" else None,
        "rounds": state["rounds"],
        "variant": state["variant"],
        "hq": {p: w.order[o].name for p, o in state["hq"].items()},
        "board": {
            "rows": w.rows, "columns": w.columns, "diagonal": w.diagonal,
            "fields": [{"name": f.name, "short": f.short, "row": f.row, "column": f.column,
                        "hq": w.order[w.hq_of[f.id]].name if f.id in w.hq_of else None}
                       for f in w.fields],
            "orders": [{"name": o.name, "symbol": o.symbol, "colour": o.colour,
                        "headquarters": w.field[o.headquarters].name} for o in w.orders],
            "pieces": [{"initiate": i.name, "code": code[i.id], "order": w.order[i.order].name,
                        "size": i.size,
                        "field": w.field[state["pieces"][i.id]].name if state["pieces"][i.id] else None}
                       for i in w.initiates],
            "grail": {"field": w.field[state["grail"]["field"]].name,
                      "holder": w.initiate[state["grail"]["holder"]].name
                      if state["grail"]["holder"] else None},
        },
        "known": {p: {w.initiate[i].name: n for i, n in sorted(
            state["known"].get(p, {}).items(), key=lambda kv: _roster(w, kv[0]))}
            for p in players},
        "lost": {p: {w.initiate[i].name: n for i, n in state["lost"].get(p, {}).items()}
                 for p in players},
        "paid": {p: {w.initiate[i].name: n for i, n in state["sheets"][p]["paid"].items()}
                 for p in players},
        "commitments": dict(state["commitments"]),
        "commit_turn": state.get("commit_turn", 0),
        "events": [e["text"] for e in state["events"] if visible(e, viewer)],
        "result": state["result"],
        "awaited": kind.awaited(state),
    }
    if viewer in players:
        v["sheet"] = _sheet_view(kind, state, viewer)
        v["standing"] = [objection_text(w, ob) for ob in state["standing"].get(viewer, [])]
        v["asks"] = _asks(kind, state, viewer)
    if viewer == MODERATOR or over:
        v["sheets"] = {p: _sheet_view(kind, state, p) for p in players}
    if viewer == MODERATOR:
        v["standing_all"] = {p: [objection_text(w, ob) for ob in state["standing"].get(p, [])]
                             for p in players}
        v["pending"] = state["pending"]
    if over:
        v["salts"] = state.get("salts")
    return v


def _roster(world, initiate: str) -> int:
    return [i.id for i in world.initiates].index(initiate)


def _asks(kind, state: dict, player: str) -> dict[str, Any]:
    expects = kind.expects(state, player)
    groups = kind.option_groups(state, player)
    if expects == "nothing":
        prompt = "Nothing: the game is over."
    elif expects == "opening":
        prompt = ("Make your opening allocation: assign as much or as little of your influence as "
                  "you like, to as many initiates as you like. Nobody else learns what you assign.")
    else:
        order = [state["next"]] + [p for p in _after(state, state["next"])] \
            if state["phase"] == "round" else list(state["players"])
        position = order.index(player) + 1 if player in order else None
        prompt = ("Choose your action for the coming round: move an initiate (list alternatives, "
                  "best first), blow a cover, or assign influence instead of moving. ")
        if position == 1:
            prompt += (f"You act first in the round (order: {', '.join(order)}): the position "
                       "is as shown when your action is carried out.")
        elif position:
            prompt += (f"You act {_ordinal(position)} in the round (order: {', '.join(order)}), "
                       "so the position may change before your turn; a listed move that is no "
                       "longer possible is skipped.")
        pending = state.get("pending")
        if pending and pending["player"] == player:
            if pending["proposed"]:
                prompt = ("Your action is waiting: the moves you listed were rejected ("
                          + "; ".join(pending["proposed"]) + "). ")
            else:       # every listed move was skipped as not possible: none was proposed
                prompt = ("Your action is waiting: none of the moves you listed was possible "
                          "when your action came. ")
            if kind.obliged(state, pending):
                prompt += ("Send further moves; influence may be assigned only once every "
                           "possible move has been rejected.")
            else:
                prompt += "Send new orders: a move, a blow, an assignment of influence or 'pass'."
    out = []
    for title, lines in groups:
        if lines and all(line.startswith("assign ") for line in lines):
            w = kind.world
            free = sorted(w.unit[u].value for u in free_units(state, player, w))
            board = [i.name for i in w.initiates if state["pieces"][i.id] is not None]
            lines = ["assign <unit>[+<unit>...] to <initiate>",
                     "  your free units: " + ", ".join(map(str, free)),
                     "  initiates on the board: " + ", ".join(board)]
        elif lines and all(line.startswith("object ") for line in lines):
            # the pattern, not the examples 'companion options' lists: a report shows no whole
            # objection line but the reader's own (another player may have sent that very line)
            w = kind.world
            mine = [i.name for i in w.initiates if state["pieces"][i.id] is not None
                    and influence(state, player, i.id, w) > 0]
            lines = ["object <initiate|any> [conditions] up to <N|all>   (see the order form)"]
            if mine:
                lines.append("  initiates you have influence on: " + ", ".join(mine))
            if state["standing"].get(player):
                lines.append("  'object none' clears your standing orders")
        out.append({"title": title, "lines": lines})
    return {"expects": expects, "prompt": prompt, "groups": out}


def _after(state: dict, player: str) -> list[str]:
    players = state["players"]
    i = players.index(player)
    return players[i + 1:] + players[:i]


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh", 8: "eighth"}.get(n, f"{n}th")


def public_summary(kind, state: dict) -> list[str]:
    lines = [e["text"] for e in state["events"] if e["to"] == PUBLIC]
    return lines


# ------------------------------------------------------------------------------------- report

ORDER_HELP = [
    "move <initiate> to <field> [with grail | leaving grail | dropping grail]",
    "     [and blow <initiate> [taking grail]] [insist <N> | insist all]",
    "blow <initiate> by <initiate> [taking grail] [insist <N> | insist all]",
    "assign <unit>[+<unit>...] to <initiate>",
    "pass",
    "object <initiate|any> [to <field>] [from <field>]",
    "       [with grail | without grail] [blowing <initiate|any>]",
    "       [by <player>] [except by <player>] [ending] up to <N|all>",
    "object none",
]


def board_text(view: dict[str, Any]) -> str:
    """The board as a text grid (for the email body), with a legend."""
    b = view["board"]
    cols, rows = b["columns"], b["rows"]
    width = 14
    by_pos = {(f["row"], f["column"]): f for f in b["fields"]}
    marks = {o["name"]: o["name"][0] for o in b["orders"]}
    lines = ["+" + "+".join("-" * width for _ in range(cols)) + "+"]
    for r in range(1, rows + 1):
        cells = []
        for c in range(1, cols + 1):
            f = by_pos[(r, c)]
            name = f["name"] if len(f["name"]) <= width else f["short"]
            if f["hq"]:
                name = f"{name[:width - 4]} [{marks[f['hq']]}]"
            content = [name]
            tokens = []
            for p in b["pieces"]:
                if p["field"] == f["name"]:
                    tokens.append(p["code"] + ("*" if b["grail"]["holder"] == p["initiate"] else ""))
            if b["grail"]["holder"] is None and b["grail"]["field"] == f["name"]:
                tokens.append("(grail)")
            line = ""
            for t in tokens:
                if len(line) + len(t) + (1 if line else 0) > width:
                    content.append(line)
                    line = t
                else:
                    line = f"{line} {t}" if line else t
            if line:
                content.append(line)
            cells.append(content)
        height = max(len(c) for c in cells)
        for k in range(height):
            lines.append("|" + "|".join((c[k] if k < len(c) else "").ljust(width) for c in cells)
                         + "|")
        lines.append("+" + "+".join("-" * width for _ in range(cols)) + "+")
    # within the board's width, so that a plain-text report does not wrap it
    lines.append("North is up; [A] [T] [R] [I] mark the headquarters; * carries the grail.")
    legend = [f"{p['code']} {p['initiate']} ({p['order']}, {p['size']})"
              + ("" if p["field"] else ": uncovered") for p in b["pieces"]]
    column = max(len(x) for x in legend) + 2
    pairs = 2 if 2 * column <= 76 else 1        # two columns only when they fit an email line
    for i in range(0, len(legend), pairs):
        lines.append("".join(x.ljust(column) for x in legend[i:i + pairs]).rstrip())
    return "\n".join(lines)


def report(kind, v: dict[str, Any]) -> dict[str, Any]:
    env = v["envelope"]
    viewer = v["viewer"]
    is_player = viewer in v["players"]
    header = [["Game", env["game_id"]], ["Turn", str(env["turn"])],
              ["Report for", viewer if is_player else "everybody (public report)"],
              ["Processed", env["date"]], ["Players", ", ".join(v["players"]) + " (seat order)"]]
    if v["variant"] == "original":
        header.append(["Headquarters", ", ".join(f"{p}: {o}" for p, o in v["hq"].items())])
    phase = {"opening": "opening allocation",
             "round": f"round play ({counted(v['rounds'], 'round')} done)",
             "over": "the game is over"}[v["phase"]]
    if v["phase"] == "round":
        phase += f"; next to act: {v['next']}"
    header.append(["Stage", phase])

    sections = []
    events = v["events"] or ["Nothing has happened yet."]
    sections.append(d.section("What happened", d.bullet_list(events)))
    if v["result"]:
        r = v["result"]
        # the reason begins with a capital; capitalize() would lower the names in it
        blocks = [d.para(f"{word_for(len(r['winners']), 'Winner')}: "
                         f"{listed(r['winners']) if r['winners'] else 'nobody'}. "
                         f"{r['reason'][:1].upper()}{r['reason'][1:]}.")]
        if r["totals"]:
            blocks.append(d.table(["Player", "Influence on the bearer"],
                                  [[p, str(n)] for p, n in r["totals"].items()], [2, 1]))
            if v["variant"] == "original":
                blocks.append(d.para("In The Original the headquarters the grail reached "
                                     "decides; the influence is shown for interest only."))
        sections.append(d.section("Result", *blocks))

    # where each initiate stands next to his name: on a phone the later columns scroll
    pieces_rows = [[p["code"], p["initiate"],
                    (p["field"] or "uncovered") + (" (carries the grail)"
                                                   if v["board"]["grail"]["holder"] == p["initiate"] else ""),
                    p["order"], p["size"]]
                   for p in v["board"]["pieces"]]
    grail = v["board"]["grail"]
    grail_text = (f"The grail is carried by {grail['holder']} on {grail['field']}."
                  if grail["holder"] else f"The grail lies on {grail['field']}.")
    adjacency = ("Pawns step to a neighbouring field, diagonals included."
                 if v["board"]["diagonal"] else
                 "Pawns step to a field sharing an edge (no diagonal steps).")
    sections.append(d.section(
        "The board",
        d.figure("companion.gral.render:board_flowable", v["board"], board_text(v)),
        d.para(grail_text + " " + adjacency),
        d.table(["", "Initiate", "Field", "Order", "Figure"], pieces_rows, [0.6, 3, 3.4, 2, 1]),
    ))

    if is_player:
        s = v["sheet"]
        code_of = {p["initiate"]: p["code"] for p in v["board"]["pieces"]}
        bars = sorted({u["bar"] for u in s["units"]})
        width = max(sum(1 for u in s["units"] if u["bar"] == b) for b in bars)
        unit_rows = []
        for b in bars:
            cells = [f"{u['value']}" + (f" → {code_of[u['initiate']]}" if u["initiate"] else "")
                     for u in s["units"] if u["bar"] == b]
            unit_rows.append([f"Bar {b}"] + cells + [""] * (width - len(cells)))
        total_rows = [[t["initiate"] + (" (uncovered)" if t["uncovered"] else ""),
                       str(t["assigned"]), str(t["paid"]), str(t["influence"])] for t in s["totals"]]
        blocks = [d.para(f"Private: only you see this. Assigned {s['assigned']} of 100 points; "
                         f"{s['free']} points are still free."),
                  d.table([""] + [str(k) for k in range(1, width + 1)], unit_rows,
                          [1.3] + [1] * width),
                  d.para("Each cell is a unit: its points, and '→ code' once it is assigned "
                         "(codes as on the board).")]
        if total_rows:
            blocks.append(d.table(["Initiate", "Assigned", "Paid for covers", "Influence"],
                                  total_rows, [3, 1, 1.4, 1]))
        sections.append(d.section("Your influence sheet", *blocks))

    if v.get("sheets") and not is_player or (v["phase"] == "over" and v.get("sheets")):
        blocks = []
        for p, s in v["sheets"].items():
            rows = [[t["initiate"], str(t["assigned"]), str(t["paid"]), str(t["influence"])]
                    for t in s["totals"]] or [["(nothing assigned)", "", "", ""]]
            blocks.append(d.para(f"{p}: assigned {s['assigned']}, free {s['free']}."))
            blocks.append(d.table(["Initiate", "Assigned", "Paid", "Influence"], rows, [3, 1, 1, 1]))
        sections.append(d.section("All influence sheets (revealed)", *blocks))

    known_rows = []
    for p in v["players"]:
        known = v["known"][p]
        items = [f"{name} ≥ {n}" for name, n in known.items() if n and name not in v["lost"][p]]
        lost = [f"{name}: {n}" for name, n in v["lost"][p].items()]
        paid = [f"{name}: {n}" for name, n in v["paid"][p].items() if n]
        known_rows.append([p, ", ".join(items) or "-", ", ".join(lost) or "-",
                           ", ".join(paid) or "-"])
    sections.append(d.section(
        "What everybody knows",
        d.para("Influence revealed in objections is a lower bound on what a player still holds "
               "on that initiate (after any payment for blowing a cover). Influence on uncovered "
               "initiates is lost."),
        d.table(["Player", "Known to hold at least", "Lost on uncovered", "Paid for covers"],
                known_rows, [1.3, 3, 2, 1.7]),
    ))

    if is_player:
        asks = v["asks"]
        blocks = [d.para(asks["prompt"])]
        if asks["groups"]:
            blocks.append(d.options([(g["title"], g["lines"]) for g in asks["groups"]]))
        standing = v["standing"]
        if asks["expects"] != "nothing":        # a finished game: nothing stands any more
            blocks.append(d.para("Your standing orders (objections; the first matching line "
                                 "decides): " + ("; ".join(standing) if standing else
                                                 "none, so you object to nothing.")))
        sections.append(d.section("What is asked of you", *blocks))
        if asks["expects"] != "nothing":
            sections.append(d.section(
                "Order form",
                d.code(ORDER_HELP),
                d.form(8, "Write one order per line and send it to the moderator. Names may be "
                          "shortened to any unambiguous beginning (e.g. 'alb', 'akk') or word by "
                          "word with a dot ('S. Juan'); case and accents do not matter. '#' starts a comment. Standing 'object' lines "
                          "replace all your earlier ones; leave them out to keep those."),
            ))
    else:
        awaited = v["awaited"]
        if awaited:
            sections.append(d.section("Orders awaited", d.para(
                "Orders are now needed from: " + ", ".join(awaited) + ".")))

    commit_rows = [[p, v["commitments"].get(p, "")] for p in v["players"]]
    blocks = [d.para(f"Each player's influence sheet at the end of turn {v['commit_turn']}, "
                     "sealed: SHA-256 of a secret salt followed by the sheet. The salts are "
                     "published when the game ends, so anyone can then check that no sheet was "
                     "changed except as the orders said (the moderator's 'companion gral "
                     "verify' does it, and so can any SHA-256 tool)."),
              d.table(["Player", "Sheet commitment"], commit_rows, [1, 4])]
    if v.get("salts"):
        # a player reads this in a mail or on the web page, not in the moderator's folder
        blocks.append(d.para("The game is over: every salt is in the public disclosure file "
                             "disclosure.json, attached to the mail of this report (the "
                             "moderator keeps it with the last turn's reports)."))
    sections.append(d.section("Sealed sheets", *blocks))

    footer = (f"Die Jagd nach dem Gral - game {env['game_id']} - turn {env['turn']} - "
              + (f"private report for {viewer}" if is_player else "public report"))
    return {"title": "Die Jagd nach dem Gral", "pdf_title": f"{env['game_id']} turn {env['turn']}"
            f" - {viewer if is_player else 'public'}",
            "subject": "turn report", "header": header, "qr": env["link"],
            "qr_label": env["link_label"], "footer": footer, "sections": sections}
