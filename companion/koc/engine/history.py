"""The knight's history: what his Adventure Journal's log of turns holds (docs/koc-journal.md).

Kept in the state as ``state["history"] = {player: [[game_turn, text], ...]}``, a few short
entries per knight per game turn, appended as turns are processed, so that a journal can be
filled for any turn without re-running the game. Each entry is private to its knight (the views
hand a player his own list only).

The entries are derived, not reported by the rules modules: ``recording(state)`` wraps the
processing of a turn, takes a compact digest of every knight before it and compares it with the
digest after it: adventures heard of, completed, failed, given up; tournaments; Knight's Fates
(prison, madness, enchantment, wounds that poison, gear lost, death); service (Lord, Lady,
home, office, the Round Table, comrades, oaths, enemies, exiles); CP and VP gained or lost;
and the Knave's, the Grail's and the Foreign War's records as far as the state has them.
Every record is read with ``.get``: a change elsewhere in the engine costs an entry, never a turn.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

KEY = "history"
ENDINGS = {"done": "completed", "failed": "failed", "abandoned": "given up",
           "cancelled": "cancelled", "impossible": "impossible"}


def _names(items: Any, key: str = "name") -> list[str]:
    out = []
    for item in items or []:
        if isinstance(item, dict):
            item = item.get(key) or item.get("key") or item.get("kind")
        if item:
            out.append(str(item).replace("_", " "))
    return out


def _task_label(task: dict) -> str:
    adv = task.get("adventure") or {}
    if adv:
        marker = f" ({adv['marker']})" if adv.get("marker") else ""
        prophecy = ", a prophecy" if task.get("prophecy") else ""
        what = "tournament" if task.get("tournament") else "adventure"
        return f"{what} {adv.get('id', '?')} {adv.get('label', '')}".rstrip() + marker + prophecy
    if task.get("kind") == "share" and task.get("shared"):
        sh = task["shared"]
        return f"share of {sh.get('leader')}'s adventure {sh.get('id')}"
    if task.get("tournament"):
        return "tournament" + (f" at {task['dest']}" if task.get("dest") else "")
    kind = str(task.get("kind", "task")).replace("_", " ")
    return kind + (f" to {task['dest']}" if task.get("dest") else "")


def digest(rec: dict) -> dict:
    """What of a knight's record the history compares (small, JSON-like)."""
    lord, lady, home = rec.get("lord") or {}, rec.get("lady") or {}, rec.get("home") or {}
    knave = rec.get("knave") or {}
    war = rec.get("war") or {}
    quest = rec.get("quest") or {}
    return {
        "name": rec.get("name"), "cp": rec.get("cp"), "vp": rec.get("vp"),
        "arthurian": bool(rec.get("arthurian")),
        "lord": lord.get("name"), "lady": lady.get("name"), "home": home.get("castle"),
        "token": bool(rec.get("token")), "office": (rec.get("office") or {}).get("label"),
        "tasks": {str(t.get("id")): [t.get("status"), _task_label(t)]
                  for t in rec.get("tasks", []) if isinstance(t, dict)},
        "gear": sorted(g for g, kept in (rec.get("gear") or {}).items() if not kept),
        "items": _names(rec.get("items"), "key"), "poison": rec.get("poison") or 0,
        "prison": bool(rec.get("prison")), "mad": bool(rec.get("mad")),
        "animal": rec.get("animal"), "lost": bool(rec.get("lost")),
        "enchantments": _names(rec.get("enchantments"), "key"),
        "enchantress": rec.get("enchantress"), "slain": bool(rec.get("slain")),
        "comrades": _names(rec.get("comrades")), "enemies": _names(rec.get("enemies")),
        "oaths": _names(rec.get("oaths")), "exiles": _names(rec.get("exiles")),
        "friendly": _names(rec.get("friendly")), "outlawed": _names(rec.get("outlawed")),
        "challenged": _names(rec.get("challenged")),
        "knave": bool(knave) and not knave.get("absolved"), "kvp": knave.get("kvp"),
        "curses": _names(knave.get("curses")),
        "grail": bool(rec.get("grail")), "carbonek": bool(quest.get("carbonek")),
        "seen": quest.get("seen"), "war": war.get("stage"), "war_lord": war.get("lord"),
    }


def snapshot(state: dict) -> dict:
    return {p: digest(rec) for p, rec in state.get("knights", {}).items()}


def _listed(before: list, after: list, gained: str, lost: str) -> list[str]:
    out = [gained.format(x) for x in after if x not in before]
    return out + [lost.format(x) for x in before if x not in after]


def entries(b: dict, a: dict) -> list[str]:
    """The journal lines for the change from digest ``b`` to digest ``a``."""
    out: list[str] = []
    if a["slain"] and not b["slain"]:
        return ["slain"]
    if a["name"] != b["name"]:
        return [f"{b['name']} fell; {a['name']} takes up the journal, CP {a['cp']}, "
                f"VP {a['vp']}"]
    for tid, (status, label) in a["tasks"].items():
        old = b["tasks"].get(tid)
        if old is None:
            out.append(f"heard of {label}" if label.startswith(("adventure", "tournament"))
                       else f"took up {label}")
            if status in ENDINGS:
                out.append(f"{label}: {ENDINGS[status]}")
        elif old[0] != status and status in ENDINGS:
            out.append(f"{label}: {ENDINGS[status]}")
    # service
    for key, title in (("lord", "Lord"), ("lady", "Lady")):
        if a[key] != b[key]:
            out.append(f"serves {a[key]} as his {title}" if a[key] else
                       f"no longer serves {b[key]}")
    if a["home"] != b["home"] and a["home"]:
        out.append(f"home castle now {a['home']}")
    if a["token"] and not b["token"]:
        out.append("received his Lady's Token")
    if a["arthurian"] and not b["arthurian"]:
        out.append("joined the Round Table")
    if a["office"] != b["office"] and a["office"]:
        out.append(f"office: {a['office']}")
    out += _listed(b["comrades"], a["comrades"], "comrade {} joined", "comrade {} left")
    out += _listed(b["oaths"], a["oaths"], "swore an oath: {}", "oath {} ended")
    out += _listed(b["enemies"], a["enemies"], "enemy: {}", "no longer an enemy: {}")
    out += _listed(b["exiles"], a["exiles"], "exiled from {}", "exile from {} lifted")
    out += _listed(b["friendly"], a["friendly"], "friendly castle: {}", "{} no longer friendly")
    out += _listed(b["outlawed"], a["outlawed"], "outlawed at {}", "no longer outlawed at {}")
    out += [f"challenge fought: {x}" for x in a["challenged"] if x not in b["challenged"]]
    # fates
    for key, on, off in (("prison", "imprisoned", "freed from prison"),
                         ("mad", "went mad", "recovered his wits"),
                         ("lost", "lost in the forest", "found his way out")):
        if a[key] != b[key]:
            out.append(on if a[key] else off)
    if a["animal"] != b["animal"]:
        out.append(f"turned into a {a['animal']}" if a["animal"] else "his own form again")
    out += _listed(b["enchantments"], a["enchantments"], "enchanted: {}", "enchantment ended: {}")
    if a["enchantress"] != b["enchantress"] and a["enchantress"]:
        out.append(f"in the service of {a['enchantress']}")
    if a["poison"] > b["poison"]:
        out.append(f"poisoned wounds: {a['poison']}")
    elif a["poison"] < b["poison"]:
        out.append("poison cured" if not a["poison"] else f"poisoned wounds: {a['poison']}")
    lost = [g for g in a["gear"] if g not in b["gear"]]
    back = [g for g in b["gear"] if g not in a["gear"]]
    out += [f"lost his {', '.join(lost)}"] if lost else []
    out += [f"has his {', '.join(back)} again"] if back else []
    out += _listed(b["items"], a["items"], "gained {}", "gave up {}")
    # Knave, Grail, Foreign War
    if a["knave"] != b["knave"]:
        out.append("turned Knave" if a["knave"] else "a Knave no longer")
    if a["knave"] and a["kvp"] != b["kvp"] and a["kvp"] is not None:
        out.append(f"KVP now {a['kvp']}")
    out += [f"cursed: {c}" for c in a["curses"] if c not in b["curses"]]
    if a["carbonek"] and not b["carbonek"]:
        out.append("came to Carbonek")
    if a["seen"] and a["seen"] != b["seen"]:
        out.append(f"saw the Grail in {a['seen']}")
    if a["grail"] != b["grail"]:
        out.append("bears the Holy Grail" if a["grail"] else "no longer bears the Grail")
    if a["war"] != b["war"]:
        out.append({"travel": f"rode to {a['war_lord']}'s foreign war",
                    "line": "fighting in the foreign war", "returning": "the war is over",
                    None: "back from the foreign war"}.get(a["war"], f"war: {a['war']}"))
    # points last: the turn's sum
    dcp = (a["cp"] or 0) - (b["cp"] or 0)
    dvp = (a["vp"] or 0) - (b["vp"] or 0)
    points = ([f"CP {dcp:+d} to {a['cp']}"] if dcp else []) + \
        ([f"VP {dvp:+d} to {a['vp']}"] if dvp else [])
    if points:
        out.append(", ".join(points))
    return out


def record(state: dict, before: dict, turn: int) -> None:
    """Append the entries of game turn ``turn`` (the change since ``before``) to the history."""
    history = state.setdefault(KEY, {})
    for player, rec in state.get("knights", {}).items():
        old = before.get(player)
        if old is None:
            continue
        try:
            lines = entries(old, digest(rec))
        except (KeyError, TypeError, AttributeError, ValueError):
            lines = []            # a record the engine is still changing: no entry, no harm
        if lines:
            history.setdefault(player, []).extend([turn, line] for line in lines)


@contextmanager
def recording(state: dict) -> Iterator[None]:
    """Around the processing of a turn: record what it changed in every knight's history."""
    turn = state.get("koc", {}).get("turn", 0)
    before = snapshot(state)
    yield
    record(state, before, turn)


def of(state: dict, player: str) -> list[list]:
    """A knight's history: ``[[game_turn, text], ...]`` in order."""
    return [list(e) for e in state.get(KEY, {}).get(player, [])]
