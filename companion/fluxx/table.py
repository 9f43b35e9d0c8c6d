"""The Fluxx table as a figure of the reports (PDF), the web view (SVG) and the text report.

``table_data(view)`` is built from a viewer's view alone (``companion.fluxx.views.view``): the
Basic Rules and the New Rules in play, the Goal(s), the draw and discard piles, each player's
Keepers, Creepers and hand size, and, on the viewer's own report only, their hand. The drawing
itself is the shared card-table figure (``companion/render/cardtable.py``).
"""
from __future__ import annotations

from typing import Any

from companion.engine.words import counted
from companion.render import cardtable

FONTS = cardtable.FONTS

TONE = {"Basic Rules": "white", "New Rule": "yellow", "Goal": "pink", "Keeper": "green",
        "Creeper": "red", "Action": "blue"}


def _tone(type_line: str) -> str:
    return TONE.get(type_line.split(",")[0].strip(), "grey")


def _card(c: dict[str, Any], sub: str | None = None) -> dict[str, Any]:
    """A card of the view (name, type line, text) as a card of the figure."""
    kind = c["type"].split(",")[0].strip()
    title = f"{c['name']} ({c['type']})" + (f": {c['text']}" if c.get("text") else "")
    return {"name": c["name"], "sub": kind if sub is None else sub, "tone": _tone(c["type"]),
            "title": title}


def _rules_note(v: dict[str, Any]) -> str:
    n = v["numbers"]
    parts = [f"Draw {n['draw']}", "play all" if n["play"] == "all" else f"play {n['play']}",
             f"hand limit {n['hand_limit']}" if n["hand_limit"] is not None else "no hand limit",
             f"keeper limit {n['keeper_limit']}" if n["keeper_limit"] is not None
             else "no keeper limit"]
    if n["goals"] > 1:
        parts.append(f"up to {n['goals']} Goals")
    if n["three"] != 3:
        parts.append(f"a printed 3 counts as {n['three']}")
    return ", ".join(parts) + "; turns go " + v["direction"] + "."


def table_data(v: dict[str, Any]) -> dict[str, Any]:
    """The figure's data from the view ``v`` (nothing else)."""
    viewer = v["viewer"]
    piles = v["piles"]
    basic = {"name": v["basic"]["name"], "type": "Basic Rules", "text": v["basic"]["text"]}
    middle = {
        "title": "The middle of the table",
        "notes": [_rules_note(v)],
        "style": "plain",
        "groups": [
            {"label": f"Rules in play ({1 + len(v['rules'])})",
             "cards": [_card(basic, "")] + [_card(r, "") for r in v["rules"]]},
            {"label": "Goals" if len(v["goals"]) > 1 else "Goal",
             "cards": [_card(g, "") for g in v["goals"]], "empty": "no Goal yet"},
            {"label": "Draw pile",
             "cards": [{"name": counted(piles["deck"], "card"), "tone": "back",
                        "title": f"draw pile: {counted(piles['deck'], 'card')}, face down"}]
             if piles["deck"] else [], "empty": "empty"},
            {"label": f"Discard pile ({piles['discard']})",
             "cards": [{"name": piles["discard_top"][0], "sub": "on top", "tone": "grey",
                        "title": f"discard pile: {counted(piles['discard'], 'card')}, "
                                 f"{piles['discard_top'][0]} on top"}]
             if piles["discard_top"] else [], "empty": "empty"},
        ],
    }
    areas = [middle]
    for row in v["table"]:
        p = row["player"]
        marks = []
        if p == viewer:
            marks.append("you")
        if v["stage"] != "over" and p == v["active"]:
            marks.append("to play")
        if not row["seated"]:
            marks.append("not joined yet")
        if v["result"] and v["result"].get("winner") == p:
            marks.append("winner")
        areas.append({
            "title": p + (f" ({', '.join(marks)})" if marks else ""),
            "style": "you" if p == viewer else "plain",
            "groups": [
                {"label": "Hand", "cards": [{"name": counted(row["hand"], "card"),
                                             "tone": "back",
                                             "title": f"{p}: {counted(row['hand'], 'card')} "
                                                      "in hand"}] if row["hand"] else [],
                 "empty": "no cards"},
                {"label": f"Keepers ({len(row['keepers'])})",
                 "cards": [{"name": k, "tone": "green", "title": f"{k} (Keeper of {p})"}
                           for k in row["keepers"]]},
                {"label": f"Creepers ({len(row['creepers'])})",
                 "cards": [{"name": k, "tone": "red", "title": f"{k} (Creeper of {p})"}
                           for k in row["creepers"]]},
            ],
        })
    if viewer in v["players"] and "hand" in v:
        groups = [{"label": f"Your hand ({len(v['hand'])})",
                   "cards": [_card(c) for c in v["hand"]], "empty": "empty"}]
        if v.get("using"):
            groups.append({"label": "Drawn apart, to be played",
                           "cards": [_card(c) for c in v["using"]]})
        areas.append({"title": "Your hand (private: only you see it)", "style": "private",
                      "groups": groups})
    return {"label": f"The table, as {viewer} sees it" if viewer in v["players"]
            else "The table: the face-up cards and the counts", "areas": areas}


def table_text(data: dict[str, Any]) -> str:
    return cardtable.table_text(data)


def table_flowable(data: dict[str, Any], width: float):
    return cardtable.flowable(data, width)


def table_svg(data: dict[str, Any]) -> str:
    return cardtable.svg(data, "card-table fluxx-table")
