"""The Knights of Camelot Adventure Journal as data: what the record sheet shows, filled from a
player's view (docs/koc-journal.md). Pure: no reportlab; ``journal_pdf`` lays it out and
``journal_text`` writes it for an e-mail body.

``sheet_record(rec)`` is the part of the journal the report's table does not carry (called by
``views.journal``, so it is in a player's view of his own knight only); ``journal_data(view,
terms)`` builds the sheet from a player's view and the game's public scenario terms. Nothing
here reads another knight's record: a filled journal is as private as the view it comes from.
Every record the engine is still growing (Knave, office, Grail, Foreign War) is read with
``.get``; a field the state does not have stays blank on the sheet.
"""
from __future__ import annotations

from typing import Any


def game_turn_text(view: dict[str, Any]) -> str:
    """The game turn as the report's header and the journal give it: '4 (next)', '4 (under
    way)' while it waits for answers, '8 (the last)' once the game is over."""
    state = ("the last" if view.get("over") else
             "under way" if view.get("waiting") else "next")
    return f"{view.get('turn')} ({state})"


ENDED = {"done": "completed", "failed": "failed", "abandoned": "given up",
         "cancelled": "cancelled", "impossible": "impossible"}


# ---------------------------------------------------------------------------- from the record
def _adventure(task: dict) -> dict | None:
    adv = task.get("adventure") or {}
    status = str(task.get("status") or "")
    if adv:
        return {"number": str(adv.get("id") or ""), "label": str(adv.get("label") or ""),
                "marker": str(adv.get("marker") or ""), "prophecy": bool(task.get("prophecy")),
                "fulfilled": bool(task.get("fulfilled")),
                "site": str(adv.get("site") or task.get("dest") or ""),
                "result": ENDED.get(status, status.replace("_", " "))}
    shared = task.get("shared")
    if task.get("kind") == "share" and isinstance(shared, dict):
        return {"number": str(shared.get("id") or ""),
                "label": f"shared with {shared.get('leader')}",
                "marker": str(shared.get("marker") or ""), "prophecy": False, "fulfilled": False,
                "site": str(shared.get("site") or ""),
                "result": ENDED.get(status, status.replace("_", " "))}
    return None


def sheet_record(rec: dict) -> dict[str, Any]:
    """What the Adventure Journal records beyond the report's table, from a knight's own
    record (his view only)."""
    lord, lady, home = rec.get("lord") or {}, rec.get("lady") or {}, rec.get("home") or {}
    knave = rec.get("knave") or {}
    quest = rec.get("quest") or {}
    war = rec.get("war") or {}
    office = rec.get("office") or {}
    original = (rec.get("original_home") or {}).get("castle")
    return {
        "luck": rec.get("luck"),
        "wounds": rec.get("wounds") or 0,
        "lord_castle": lord.get("castle"), "lord_kind": lord.get("kind"),
        "lady_castle": lady.get("castle"),
        "homeland": ", ".join(str(x) for x in (home.get("kingdom"), home.get("castellany"))
                              if x) or None,
        "original_home": original if original and original != home.get("castle") else None,
        "outlawed": [str(x) for x in rec.get("outlawed") or []],
        "own_castle": rec.get("own_castle"),
        "adventures": [a for a in (_adventure(t) for t in rec.get("tasks", [])
                                   if isinstance(t, dict)) if a],
        "office_since": office.get("since"), "flagship": office.get("flagship"),
        "knave": ({"kvp": knave.get("kvp", 0), "sp": knave.get("sp", 0),
                   "curses": [str(c).replace("_", " ") for c in knave.get("curses", [])],
                   "absolved": bool(knave.get("absolved"))} if knave else None),
        "grail": {"carbonek": bool(quest.get("carbonek")), "permission": quest.get("permission"),
                  "seen": quest.get("seen"), "bears": bool(rec.get("grail"))},
        "war": ({"lord": war.get("lord"), "stage": war.get("stage"), "line": war.get("line"),
                 "since": war.get("since")} if war else None),
    }


# ---------------------------------------------------------------------------- the sheet's data
ARTHUR_TASKS = {"task_slay_monster": "slay a monster", "task_adventure": "an adventure",
                "task_mad_knight": "bring a mad knight", "task_joust": "joust with three knights",
                "task_message": "carry a message", "task_brigands": "clear out brigands",
                "task_court": "attend court", "task_feast": "attend a feast"}


def arthur_task_text(task) -> str:
    """King Arthur's task in words, as the journal and the report name it ("attend court (for
    the request 'men at arms')"); the record keeps the chart's key and the request the King
    answered (requests.arthur_answer), once shown as the record itself."""
    if not task:
        return ""
    if not isinstance(task, dict):
        return str(task).replace("_", " ")
    kind = str(task.get("kind") or "")
    what = ARTHUR_TASKS.get(kind) or kind.removeprefix("task_").replace("_", " ")
    request = str(task.get("request") or "").replace("_", " ")
    return what + (f" (for the request '{request}')" if request else "")


def _list(items) -> str:
    return ", ".join(str(i) for i in items if i)


def goal_lines(terms: dict | None) -> list[str]:
    """What the scenario asks of a knight (the scenario-specific box)."""
    terms = terms or {}
    out = []
    if terms.get("goal") == "grail":
        out.append("Goal: find the Holy Grail and bring it to Camelot")
    else:
        out.append(f"Goal: be received at the Round Table: petition King Arthur with "
                   f"{terms.get('petition_cp', 100)} CP or more at VL "
                   f"{terms.get('petition_max_vl', 5)} or better")
    if terms.get("knaves", True):
        out.append(f"A Knave wins with {terms.get('knave_kvp', 10)} KVP")
    if terms.get("turn_limit"):
        out.append(f"The game ends after game turn {terms['turn_limit']}")
    return out


def journal_data(view: dict, terms: dict | None = None) -> dict[str, Any]:
    """The filled journal of the player whose view this is (his view only)."""
    if "journal" not in view:
        raise ValueError("a journal is filled from a player's own view")
    j = view["journal"]
    s = j.get("sheet") or {}
    env = view.get("envelope") or {}
    arthur = j.get("arthur") or {}
    summons = j.get("summonses") or {}
    knave = s.get("knave")
    grail = s.get("grail") or {}
    war = s.get("war")
    poison = j.get("poison") or 0
    fields: dict[str, str] = {
        "knight": j["name"] + (" (Knight of the Round Table)" if j.get("arthurian") else ""),
        "player": view["viewer"],
        "scenario": view.get("scenario", ""),
        "homeland": s.get("homeland") or "",
        "home": (j.get("home") or "") + (f" (first home: {s['original_home']})"
                                         if s.get("original_home") else ""),
        "place": j.get("place") or "",
        "cp": str(j["cp"]), "vp": str(j["vp"]), "vl": str(j["vl"]), "wl": str(j["wl"]),
        "luck": "" if s.get("luck") is None else str(s["luck"]),
        "poison": (f"{poison} (WL held at {j.get('held_wl')})" if poison else ""),
        "gear": _list(j.get("gear", [])),
        "items": _list(j.get("items", [])),
        "followers": "; ".join(x for x in (
            j.get("dwarf") or "", f"mascot: {j['mascot']}" if j.get("mascot") else "",
            ("men-at-arms: " + _list(j["men_at_arms"])) if j.get("men_at_arms") else "",
            ("with: " + _list(j["others"])) if j.get("others") else "") if x),
        "comrades": _list(j.get("comrades", [])),
        "lord": (j.get("lord") or "") + (f" of {s['lord_castle']}" if j.get("lord")
                                         and s.get("lord_castle") else ""),
        "lord_summons": str(summons.get("lord") or "") if summons.get("lord") else "",
        "lady": (j.get("lady") or "") + (f" of {s['lady_castle']}" if j.get("lady")
                                         and s.get("lady_castle") else ""),
        "lady_summons": str(summons.get("lady") or "") if summons.get("lady") else "",
        "token": "yes" if j.get("token") else "",
        "favour": "yes" if arthur.get("favour") else "",
        "bonus": f"+{arthur['bonus']}" if arthur.get("bonus") else "",
        "task": arthur_task_text(arthur.get("task")),
        "own_castle": s.get("own_castle") or "",
        "office": (j.get("office") or "") + (f" (since turn {s['office_since']})"
                                             if j.get("office") and s.get("office_since")
                                             else "") + (f"; flagship at {s['flagship']}"
                                                         if s.get("flagship") else ""),
        "friendly": _list(j.get("friendly", [])),
        "outlawed": _list(s.get("outlawed", [])),
        "exiles": _list(j.get("exiles", [])),
        "enemies": _list(j.get("enemies", [])),
        "oaths": _list(j.get("oaths", [])),
        "challenged": _list(j.get("challenged", [])),
        "condition": "; ".join(x for x in (
            _list(j.get("enchantments", [])),
            f"in the service of {j['enchantress']}" if j.get("enchantress") else "",
            "mad" if j.get("mad") else "",
            f"in the form of a {j['animal']}" if j.get("animal") else "",
            "lost in the forest" if j.get("lost") else "",
            f"on guard at {j['guard']}" if j.get("guard") else "",
            *j.get("immobile", [])) if x),
        "knave_kvp": str(knave["kvp"]) if knave and not knave["absolved"] else "",
        "knave_sp": str(knave["sp"]) if knave and not knave["absolved"] else "",
        "knave": "; ".join(j.get("knave") or []),
        "grail_carbonek": "yes" if grail.get("carbonek") else "",
        "grail_permission": grail.get("permission") or "",
        "grail_seen": grail.get("seen") or "",
        "grail_bears": "yes" if grail.get("bears") else "",
        "grail": j.get("quest") or "",
        "war_lord": (war or {}).get("lord") or "",
        "war_line": (war or {}).get("line") or "" if war and war.get("stage") == "line" else "",
        "war": j.get("war") or "",
    }
    log: dict[int, list[str]] = {}
    for turn, text in view.get("history", []):
        log.setdefault(int(turn), []).append(str(text))
    return {
        "game": env.get("game_id", ""), "turn": view.get("turn"), "date": env.get("date", ""),
        "turn_text": game_turn_text(view),
        "link": env.get("link", ""), "commitment": env.get("commitment", ""),
        "fields": fields, "gear_kept": list(j.get("gear", [])),
        "adventures": list(s.get("adventures", [])),
        "goal": goal_lines(terms), "log": sorted(log.items()),
        "last_turn": int(view.get("turn") or 0),
    }


# ---------------------------------------------------------------------------- as text
LABELS = (
    ("knight", "Knight"), ("player", "Player"), ("scenario", "Scenario"),
    ("homeland", "Homeland"), ("home", "Home castle"), ("place", "Where"),
    ("cp", "Chivalry Points (CP)"), ("vp", "Virtue Points (VP)"),
    ("vl", "Virtue Level (VL = CP / VP, rounded up)"),
    ("wl", "Wound Level (WL = CP / 10, less poisoned wounds)"), ("luck", "Luck of the Day"),
    ("poison", "Poisoned wounds"), ("gear", "Equipment"), ("items", "Magic items"),
    ("followers", "Companions"), ("comrades", "Comrades"), ("lord", "Lord"),
    ("lord_summons", "Lord's summonses unanswered"), ("lady", "Lady"),
    ("lady_summons", "Lady's summonses unanswered"), ("token", "Lady's Token"),
    ("favour", "King Arthur's favour"), ("bonus", "King Arthur's task bonus"),
    ("task", "King Arthur's task"), ("own_castle", "His own castle"), ("office", "Office"),
    ("friendly", "Friendly castles"), ("outlawed", "Outlawed at"), ("exiles", "Exiled from"),
    ("enemies", "Enemies"), ("oaths", "Oaths"), ("challenged", "Fought in a challenge"),
    ("condition", "Enchantments and condition"), ("knave_kvp", "Knave: KVP"),
    ("knave_sp", "Knave: SP"), ("knave", "Knave"), ("grail_carbonek", "Grail: been to Carbonek"),
    ("grail_permission", "Grail: leave to see it in"), ("grail_seen", "Grail: seen in"),
    ("grail_bears", "Grail: bears it"), ("grail", "Quest of the Grail"),
    ("war_lord", "Foreign War: for"), ("war_line", "Foreign War: line"), ("war", "Foreign War"),
)


def journal_text(data: dict) -> str:
    """The filled journal as plain text (for an e-mail body): the filled fields, the
    adventures, the log of turns, and the link its QR code holds."""
    f = data["fields"]
    lines = [f"Knights of Camelot - Adventure Journal of {f['knight']}",
             f"Game {data['game']}, game turn {data['turn_text']}, processed {data['date']}",
             ""]
    lines += [f"  {line}" for line in data["goal"]] + [""]
    # the Knave's full line already holds his KVP and SP
    repeated = {"knave_kvp", "knave_sp"} if f.get("knave") else set()
    lines += [f"{label}: {f[key]}" for key, label in LABELS       # no padding: a phone's
              if f.get(key) and key not in repeated]                 # line is short
    lines.append("")
    lines.append("Adventures (number, marker, site, result):")
    for a in data["adventures"]:
        lines.append(f"  {a['number']} {a['label']}" + (f" [{a['marker']}]" if a["marker"] else "")
                     + (" (prophecy" + (", fulfilled)" if a["fulfilled"] else ")")
                        if a["prophecy"] else "")
                     + (f" at {a['site']}" if a["site"] else "") + f": {a['result']}")
    if not data["adventures"]:
        lines.append("  none yet")
    lines += ["", "Log of turns:"]
    for turn, entries in data["log"]:
        lines.append(f"  turn {turn}: " + "; ".join(entries))
    if not data["log"]:
        lines.append("  nothing recorded yet")
    lines.append("")
    if data.get("link"):
        lines += ["Your private link (the QR code on the sheet):", f"  {data['link']}"]
    if data.get("commitment"):
        lines += ["Chance commitment:", f"  {data['commitment']}"]
    return "\n".join(_wrapped(lines)).rstrip("\n") + "\n"


TEXT_WIDTH = 76     # as the turn reports' text: read on a phone, quoted in a reply


def _wrapped(lines: list[str]) -> list[str]:
    """Lines longer than TEXT_WIDTH broken at spaces, the rest of a line indented four spaces
    more than its start."""
    import textwrap

    out = []
    for line in lines:
        if len(line) <= TEXT_WIDTH:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        out += textwrap.wrap(line, TEXT_WIDTH, subsequent_indent=" " * (indent + 4),
                             break_long_words=False, break_on_hyphens=False)
    return out


def journal_files(view: dict, paper: str = "a4") -> dict[str, bytes]:
    """A player's filled journal as the files of his turn output: ``journal.pdf`` and
    ``journal.txt`` (``KocKind.player_files``); nothing for a view that is not a player's."""
    from companion.koc.journal_pdf import journal_pdf

    if "journal" not in view:
        return {}
    data = journal_data(view, view.get("terms"))
    return {"journal.pdf": journal_pdf(data, view.get("terms"), paper),
            "journal.txt": journal_text(data).encode("utf-8")}
