"""The Medieval Mayhem table as a figure of the reports (PDF), the web view (SVG) and the text
report.

``table_data(view)`` is built from a viewer's view alone (``companion.mayhem.views.view``): the
Kingdom in the middle (the draw deck's size, the five face-up cards of the Barracks, the discard
pile with its top card), then each player's zones: the face-up side of their character card,
the size of their hand (Resources), their Territory (play zone) and their Castle (one group per
set); on the viewer's own report also their hand. What a view holds besides (a teammate's hand
with Team Tactics, every hand when the game is over) stays in the report's text sections: the
figure shows no hand but the viewer's own. The drawing itself is the shared card-table figure
(``companion/render/cardtable.py``).
"""
from __future__ import annotations

from typing import Any

from companion.engine.words import counted
from companion.render import cardtable

FONTS = cardtable.FONTS

TONE = {"Crimson": "crimson", "Gilded": "gold", "Sapphire": "sapphire"}


def _card(c: dict[str, Any], sub: str | None = None) -> dict[str, Any]:
    """A card of the view as a card of the figure: coloured by its colour, its type and number
    as the caption, its points and text in the tooltip."""
    p = c["points"]
    # a Defense card's caption names its kind ("Def. Shield 2"), which must fit the card
    caption = f"Def. {c['kind']} {c['number']}" if c.get("kind") else f"{c['type']} {c['number']}"
    text = str(c.get("text", "")).replace("**", "").replace("\n", " ")
    return {"name": c["name"],
            "sub": caption if sub is None else sub,
            "tone": TONE.get(c["colour"], "grey"),
            "title": f"{c['name']} ({c['label']}; points in play/set/hand {p['play']}/"
                     f"{p['set']}/{p['hand']}): {text}"}


def table_data(v: dict[str, Any]) -> dict[str, Any]:
    """The figure's data from the view ``v`` (nothing else)."""
    viewer = v["viewer"]
    limits = v["limits"]
    discard = v["discard"]          # newest first
    notes = []
    if v["phase"] == "play":
        notes.append(f"Round {v['round'] + 1}: {v['current']} is to act; {v['first']} started.")
    elif v["phase"] == "draft":
        notes.append("The character draft: the players are choosing their characters.")
    else:
        notes.append("The game is over.")
    if v["end"] and v["phase"] == "play":
        notes.append(f"The end is triggered: the game ends when the turn would pass to "
                     f"{v['first']}.")
    middle = {
        "title": "The Kingdom",
        "notes": notes,
        "style": "plain",
        "groups": [
            {"label": "Draw deck",
             "cards": [{"name": counted(v["deck_count"], "card"), "tone": "back",
                        "title": f"draw deck: {counted(v['deck_count'], 'card')}, face down"}]
             if v["deck_count"] else [], "empty": "empty"},
            {"label": f"Barracks ({len(v['barracks'])})",
             "cards": [_card(c) for c in v["barracks"]], "empty": "empty"},
            {"label": f"Discard pile ({len(discard)})",
             "cards": [dict(_card(discard[0]), sub="on top")] if discard else [],
             "empty": "empty"},
        ],
    }
    areas = [middle]
    for t in v["table"]:
        p = t["player"]
        marks = []
        if p == viewer:
            marks.append("you")
        if p == v.get("current"):
            marks.append("to act")
        if v["result"] and p in v["result"].get("winners", []):
            marks.append("winner")
        title = p + (f" ({', '.join(marks)})" if marks else "")
        if t["team"]:
            title += " - team " + " + ".join(t["team"])
        ch = t["character"]
        groups = [
            {"label": "Character",
             "cards": [{"name": ch["face"], "sub": "face up", "tone": "purple",
                        "title": f"{ch['face']}: {ch['action']}"}] if ch else [],
             "empty": "not chosen yet"},
            {"label": "Hand",
             "cards": [{"name": counted(t["hand_count"], "card"), "tone": "back",
                        "title": f"{p}: {counted(t['hand_count'], 'card')} in hand"}]
             if t["hand_count"] else [], "empty": "no cards"},
            {"label": f"Territory ({len(t['play'])}/{limits['play']})",
             "cards": [_card(c) for c in t["play"]], "empty": "empty"},
        ]
        if t["sets"]:
            for k, st in enumerate(t["sets"], 1):
                groups.append({"label": f"Castle set {k}/{limits['sets']}: same "
                                        + "/".join(st["aspects"] or ["nothing"]),
                               "cards": [_card(c) for c in st["cards"]]})
        else:
            groups.append({"label": f"Castle (0/{limits['sets']} sets)", "cards": [],
                           "empty": "no sets"})
        areas.append({
            "title": title,
            "notes": [f"Points in play {t['visible']['play']}, in sets {t['visible']['set']}."],
            "style": "you" if p == viewer else "plain",
            "groups": groups,
        })
    if viewer in v["players"] and "hand" in v:
        areas.append({"title": "Your hand (private: only you see it)", "style": "private",
                      "groups": [{"label": f"Resources ({len(v['hand'])}/{limits['hand']})",
                                  "cards": [_card(c) for c in v["hand"]], "empty": "empty"}]})
    return {"label": f"The table, as {viewer} sees it" if viewer in v["players"]
            else "The table: the face-up cards and the counts", "areas": areas}


def table_text(data: dict[str, Any]) -> str:
    return cardtable.table_text(data)


def table_flowable(data: dict[str, Any], width: float):
    return cardtable.flowable(data, width)


def table_svg(data: dict[str, Any]) -> str:
    return cardtable.svg(data, "card-table mayhem-table")
