"""What each viewer may see of a Knights of Camelot game, and the report built from it.

A player sees his own knight's whole record (the Adventure Journal), the events his knight
witnessed, where every knight's counter stands on the map and where the Merlin/Morgan counter
is (counters on the table are public), and the questions and options before him. Nobody sees
another knight's journal.
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import MODERATOR, PUBLIC, visible
from companion.koc.engine import knight as kn
from companion.koc.engine.words import knight_and_player, plural
from companion.koc.journal import arthur_task_text, game_turn_text, sheet_record
from companion.render import document as d

PLACES = {"inside": "inside", "gate": "outside the gate of", "ship": "aboard a ship at",
          "coast": "on the coast of", "prison": "in prison at", "area": "in",
          "war": "away at a foreign war (off the map), having left from"}


def place(at: dict) -> str:
    where = at.get("castle") and f"{at['castle']} ({at['area']})" or at["area"]
    return f"{PLACES.get(at['where'], 'in')} {where}"


def party_text(state: dict, player: str) -> str:
    """Whom a knight travels with (the stacked counters on the map: public)."""
    from companion.koc.engine.party import fellows_of, leader_of

    leader = leader_of(state, player)
    if leader is None:
        return ""
    names = [state["knights"][p]["name"] for p in fellows_of(state, player)]
    if leader == player:
        return "leads a party with " + ", ".join(names)
    return f"rides in {state['knights'][leader]['name']}'s party"


def journal(rec: dict) -> dict[str, Any]:
    return {
        "name": rec["name"], "cp": rec["cp"], "vp": rec["vp"], "vl": kn.vl(rec),
        "wl": kn.wl(rec), "poison": rec["poison"], "held_wl": rec["held_wl"],
        "arthurian": rec["arthurian"], "place": place(rec["at"]),
        "gear": [g for g in kn.GEAR if rec["gear"][g]],
        "items": [i["key"].replace("_", " ") for i in rec["items"]],
        "dwarf": None if not rec["dwarf"] else (
            ("an Arthurian Dwarf" if rec["dwarf"]["arthurian"] else "a Dwarf")
            + (f" carrying a spare {', '.join(rec['dwarf']['spares'])}" if rec["dwarf"]["spares"]
               else "")),
        "mascot": rec["mascot"]["name"] if rec["mascot"] else None,
        "men_at_arms": [m["name"] for m in rec["men_at_arms"]],
        "comrades": [c["name"] for c in rec["comrades"]],
        "others": [e.get("name", e.get("kind", "")) for e in rec["party_extra"]],
        "lord": rec["lord"]["name"] if rec["lord"] else None,
        "lady": rec["lady"]["name"] if rec["lady"] else None,
        "summonses": {"lord": rec["lord_summons"], "lady": rec["lady_summons"]},
        "token": rec["token"],
        "home": rec["home"]["castle"] if rec["home"] else None,
        "friendly": list(rec["friendly"]), "exiles": list(rec["exiles"]),
        "enemies": list(rec["enemies"]), "oaths": [o.replace("_", " ") for o in rec["oaths"]],
        "enchantments": [e["key"].replace("_", " ") for e in rec["enchantments"]],
        "enchantress": rec["enchantress"], "mad": bool(rec["mad"]), "animal": rec["animal"],
        "immobile": [f"{h['why']} ({h['turns']} {plural(None, h['turns'], 'turn')})"
                     for h in rec["immobile"]],
        "lost": rec["lost"], "prison": rec["prison"],
        "guard": rec.get("guard", {}).get("castle") if rec.get("guard") else None,
        "tasks": [{"kind": t["kind"].replace("_", " "), "dest": t.get("dest"), "why": t["why"],
                   "status": t["status"], "progress": adventure_progress(t)}
                  for t in rec["tasks"]],
        "arthur": dict(rec["arthur"]), "challenged": list(rec["challenged"]),
        "standing": [line["text"] for line in rec.get("standing", [])],
        "fasting": rec["fasting"],
        "office": (rec.get("office") or {}).get("label"),
        "war": war_text(rec),
        "knave": _knave_lines(rec),
        "quest": quest_text(rec),
        "sheet": sheet_record(rec),      # the rest of his Adventure Journal (koc/journal.py)
    }


def quest_text(rec: dict) -> str | None:
    """His own progress on the Quest of the Holy Grail (engine/grail.py): private."""
    if rec.get("grail"):
        return "he bears the Holy Grail"
    q = rec.get("quest") or {}
    parts = (["has been to Carbonek"] if q.get("carbonek") else []) + \
        ([f"has leave to see it in {q['permission']}"] if q.get("permission") else []) + \
        ([f"has seen it in {q['seen']}"] if q.get("seen") else [])
    return "; ".join(parts) or None


def war_text(rec: dict) -> str | None:
    """Where a knight stands in a Foreign War (engine/foreign_war.py), if he is at one."""
    war = rec.get("war")
    if not war:
        return None
    stage = war.get("stage")
    if stage == "travel":
        return f"riding to {war.get('lord')}'s foreign war"
    if stage == "returning":
        return "travelling back from the foreign war"
    return f"at {war.get('lord')}'s foreign war, line {war.get('line')}"


def _knave_lines(rec: dict) -> list[str]:
    """A Knave's own record (KVP, SP, acts, curses, prisoners): his journal only."""
    from companion.koc.engine import knaves, villainy

    return knaves.journal_lines(rec) + villainy.journal_lines(rec)   # castles, brigands, ships


def adventure_progress(task: dict) -> str:
    """How far an adventure (or a share of one) has come: its marker, the site reached,
    sharers, prayers said, turns waited (engine/adventures.py). The knight's own record."""
    from companion.koc.engine.adventures import progress

    return progress(task)


def view(kind, state: dict, viewer: str) -> dict:
    koc = state["koc"]
    players = list(koc["order"])
    v: dict[str, Any] = {
        "viewer": viewer, "players": players, "turn": koc["turn"],
        "next": players[koc["current"]] if koc["current"] < len(players) else players[0],
        "scenario": scenario_name(state), "over": koc["over"], "winner": koc.get("winner"),
        "knave_winner": koc.get("knave_winner"), "result": result(state),
        "merlin": state["merlin"]["area"],
        "counters": [{"player": p, "knight": state["knights"][p]["name"],
                      "place": place(state["knights"][p]["at"]),
                      "arthurian": state["knights"][p]["arthurian"],
                      "knave": _is_knave(state["knights"][p]),
                      "party": party_text(state, p)} for p in players],
        "castles": {name: c["area"] for name, c in state.get("castles", {}).items()},
        "events": [e["text"] for e in state["events"] if visible(e, viewer)],
        "waiting": [p for p in players if p in state["pending"]],
        "tournaments": tournament_news(state),
        "grail": grail_news(state),
    }
    if viewer in players:
        rec = state["knights"][viewer]
        v["journal"] = journal(rec)
        v["history"] = [list(e) for e in state.get("history", {}).get(viewer, [])]  # his own log
        v["terms"] = _terms(state)      # the scenario's terms (public): his journal's goal box
        area = kind.world.areas[rec["at"]["area"]]
        links = area.links()
        v["neighbours"] = {"land": sorted(links["land"]), "river": sorted(links["river"]),
                           "ship": sorted(links["ship"])}
        pending = state["pending"].get(viewer)
        v["question"] = dict(pending["question"]) if pending else None
        v["so_far"] = list(pending["events"]) if pending else []
        v["options"] = kind.options_for(state, viewer)
        if rec["at"]["where"] == "prison" and not rec["slain"]:
            v["prison"] = rec["at"].get("castle") or rec["at"]["area"]
    if viewer == MODERATOR:
        v["journals"] = {p: journal(state["knights"][p]) for p in players}
    return v


def _terms(state: dict) -> dict:
    from companion.koc.scenarios import terms_of

    return dict(terms_of(state))


def scenario_name(state: dict) -> str:
    """The scenario's name as its file gives it ('Quest of the Holy Grail', a designed one's)."""
    from companion.koc.scenarios import terms_of

    return terms_of(state)["name"]


def result(state: dict) -> dict | None:
    """The winners so far (public news the moment they win) and, once the game is over, the
    final standings of every knight (the game is done: nothing in them is a secret any more)."""
    from companion.koc.engine import victory

    won = [{"side": side, "player": p, "knight": state["knights"][p]["name"], "why": why}
           for side, p, why in victory.winners(state)]
    if not won and not state["koc"]["over"]:
        return None
    return {"winners": won,
            "standings": victory.standings(state) if state["koc"]["over"] else []}


def _is_knave(rec: dict) -> bool:
    """Whether a knight is a Knave: public (his deeds are witnessed; see docs/koc-engine.md,
    "Knaves: records and decisions")."""
    from companion.koc.engine.victory import is_knave

    return is_knave(rec)


def grail_news(state: dict) -> list[str]:
    """The Holy Grail's whereabouts and bearer (engine/grail.py): known to every player."""
    from companion.koc.engine import grail

    return grail.public_lines(state)


def tournament_news(state: dict) -> list[str]:
    """The tournaments proclaimed and not yet held (public news)."""
    from companion.koc.engine.tournaments import summary

    return summary(state)


ORDER_HELP = [
    "move <area>[, <area>...]",
    "go to <area>",
    "stay",
    "enter",
    "board",
    "sail <area> [then <area>]",
    "debark [<coast>]",
    "inland",
    "seek <someone>",
    "join <player>",
    "leave party",
    "challenge <player>",
    "attack <player>",
    "declare tournament",
    "    (inside your own castle: every knight may come)",
    "attend tournament",
    "decline tournament",
    "    (to a knight's tournament: answer tournament yes / no)",
    "request <request> [of <person>]",
    "pray for <someone> [to <effect>]",
    "share adventure <marker> with <player>[, <player>...]",
    "abandon adventure <marker>",
    "turn knave",
    "repent",
    "backslide",
    "free prisoners",
    "    (the Knave variant: at the start of the turn)",
    "storm castle",
    "loot shrine",
    "lead brigands",
    "lead pirates",
    "attack merchant ship",
    "    (a Knave's acts, when the moment comes)",
    "request grail [of king|arthur]",
    "    (the Quest of the Holy Grail)",
    "on <question> [<situation>...] [<number><op><n>]: <answer>",
    "    (a standing answer: kept until replaced)",
    "answer <question> [<situation>...]: <answer>",
    "    (this turn only)",
]


RESULT_HEAD = ["#", "Knight", "Standing", "CP", "VP", "VL", "KVP"]


def _winner_lines(r: dict) -> list[str]:
    return [f"{knight_and_player(None, w['knight'], w['player'])} wins"
            f"{' as a Knave' if w['side'] == 'knave' else ''}: {w['why']}."
            for w in r["winners"]] or ["Nobody won."]


def _standing_rows(r: dict) -> list[list[str]]:
    return [[str(i), knight_and_player(None, row["name"], row["player"]),
             ", ".join(("winner as a Knave" if side == "knave" else "winner")
                       for side in row["won"])
             or ("slain" if row["slain"] else "Knave" if row["knave"] else
                 "Arthurian" if row["arthurian"] else "-"),
             str(row["cp"]), str(row["vp"]), str(row["vl"]),
             str(row["kvp"]) if row["knave"] else "-"]
            for i, row in enumerate(r["standings"], 1)]


def result_section(r: dict, over: bool) -> dict:
    """Who has won (and, at the end, every knight's final standing)."""
    blocks = [d.bullet_list(_winner_lines(r))]
    if over:
        blocks.append(d.table(RESULT_HEAD, _standing_rows(r),
                              [0.4, 2.4, 1.6, 0.6, 0.6, 0.6, 0.6]))
        blocks.append(d.para("The game is over: no more orders are taken."))
    return d.section("The game is over" if over else "A winner", *blocks)


def result_text(r: dict | None, over: bool) -> list[str]:
    """The same as plain lines (``companion show``)."""
    if r is None:
        return []
    lines = (["The game is over."] if over else []) + _winner_lines(r)
    if over:
        lines.append("Final standings: " + " | ".join(RESULT_HEAD))
        lines += ["  " + " | ".join(row) for row in _standing_rows(r)]
    return lines


def report(kind, v: dict) -> dict:
    from companion.koc.checks import question_help

    env = v["envelope"]
    viewer = v["viewer"]
    mine = "journal" in v
    header = [["Game", env["game_id"]],
              ["Game turn", game_turn_text(v)],
              ["Report for", viewer if mine else "everybody (public report)"],
              ["Processed", env["date"]], ["Scenario", v["scenario"]],
              ["Seat order", ", ".join(v["players"])
               + ("" if v.get("over") else f" (next: {v['next']})")]]
    if v.get("result"):
        won = "; ".join(f"{w['player']} won{' as a Knave' if w['side'] == 'knave' else ''}"
                        for w in v["result"]["winners"]) or "nobody won"
        header.append(["Result", won + (" (the game is over)" if v["over"] else "")])
    from companion.koc.mapfigure import closeup_data, closeup_text, map_data, map_text

    figure = map_data(kind.world, v)        # built from this view only (koc/mapfigure.py)
    sections = []
    if v.get("result"):
        sections.append(result_section(v["result"], v["over"]))
    # a knight's turn opens with '— Anna's turn ...': a bullet needs no dash of its own
    events = [e.removeprefix("— ") for e in v["events"]] or [
        "Nothing your knight witnessed." if mine else "Nothing happened that everybody saw."]
    sections.append(d.section("What happened", d.bullet_list(events)))
    if mine and v["question"]:
        q = v["question"]
        blocks = [d.para(f"Your turn waits for your answer: {q['prompt']}"),
                  d.para("Answers: " + ", ".join(q["options"]) + f" (default {q['default']})."),
                  d.para("Send for example: 'answer " + q["key"] + ": " + q["options"][0]
                         + "'. Your turn is then played again from its start with the same "
                           "dice and the answers already given, and goes on.")]
        if v["so_far"]:
            blocks.append(d.para("So far this turn (it will happen the same way again):"))
            blocks.append(d.bullet_list(v["so_far"]))
        sections.append(d.section("Your turn is waiting", *blocks))
    if mine:
        j = v["journal"]
        rows = [["Chivalry Points", str(j["cp"])], ["Virtue Points", str(j["vp"])],
                ["Virtue Level", str(j["vl"])],
                ["Wound Level", str(j["wl"]) + (
                    f" ({j['poison']} {plural(None, j['poison'], 'poisoned wound')}; WL held at "
                    f"{j['held_wl']})" if j["poison"] else "")],
                ["Where", j["place"]],
                ["Equipment", ", ".join(j["gear"]) or "none"],
                ["Magic", ", ".join(j["items"]) or "-"],
                ["Lord", (j["lord"] or "none") + (
                    f" (summoned {j['summonses']['lord']}x)" if j["summonses"]["lord"] else "")],
                ["Lady", (j["lady"] or "none") + (" (her Token)" if j["token"] else "") + (
                    f" (summoned {j['summonses']['lady']}x)" if j["summonses"]["lady"] else "")],
                ["Arthurian knight", "yes" if j["arthurian"] else "no"],
                ["Home castle", j["home"] or "-"],
                ["Friendly castles", ", ".join(j["friendly"]) or "-"],
                ["Dwarf", j["dwarf"] or "-"], ["Mascot", j["mascot"] or "-"],
                ["Men-at-Arms", ", ".join(j["men_at_arms"]) or "-"],
                ["Comrades", ", ".join(j["comrades"]) or "-"],
                ["Travelling with", ", ".join(j["others"]) or "-"],
                ["Party of knights", next((c["party"] for c in v["counters"]
                                           if c["player"] == viewer), "") or "-"],
                ["Exiled from", ", ".join(j["exiles"]) or "-"],
                ["Enemies", ", ".join(j["enemies"]) or "-"],
                ["Oaths", ", ".join(j["oaths"]) or "-"],
                ["Enchantments", "; ".join(filter(None, [
                    ", ".join(j["enchantments"]),
                    f"in the service of {j['enchantress']}" if j["enchantress"] else ""]))
                 or "-"],
                ["State", ", ".join(filter(None, [
                    "mad" if j["mad"] else "", f"in the form of a {j['animal']}" if j["animal"]
                    else "", "lost in the forest" if j["lost"] else "",
                    f"on guard duty at {j['guard']}" if j["guard"] else "",
                    j.get("war") or "", *j["immobile"]])) or "well"],
                ["King Arthur", ("favour of a friend; " if j["arthur"]["favour"] else "")
                 + f"bonus +{j['arthur']['bonus']}"
                 + (f"; task: {arthur_task_text(j['arthur']['task'])}"
                    if j["arthur"]["task"] else "")],
                ["Challenges fought", ", ".join(j["challenged"]) or "-"],
                ["Office", j.get("office") or "-"]]
        if j.get("knave"):
            rows.append(["Knave", "; ".join(j["knave"])])
        if j.get("quest"):
            rows.append(["Quest of the Grail", j["quest"]])
        sections.append(d.section("Your Adventure Journal",
                                  d.table(["Entry", "Now"], rows, [1.3, 4])))
        tasks = [[t["kind"], t["dest"] or "-", t["why"],
                  t["status"].replace("_", " ") + (f" ({t['progress']})" if t.get("progress")
                                                   else "")] for t in j["tasks"]]
        if tasks:
            sections.append(d.section("Tasks and obligations",
                                      d.table(["Task", "To", "Why", "State"], tasks,
                                              [1.1, 1.3, 2.6, 1.6])))
        n = v["neighbours"]
        near = d.table(["Way", "Areas"], [["on land", ", ".join(n["land"]) or "-"],
                                          ["across rivers", ", ".join(n["river"]) or "-"],
                                          ["by ship", ", ".join(n["ship"]) or "-"]], [1, 5])
        # the close-up of the map around his knight, before the whole map (for a phone)
        closeup = closeup_data(figure)
        sections.append(d.section("Around you", near, closeup and d.figure(
            "companion.koc.mapfigure:closeup_flowable", closeup, closeup_text(closeup))))
    counters = [[c["knight"] + (" (Arthurian)" if c["arthurian"] else "")
                 + (" (a Knave)" if c.get("knave") else ""),
                 c["place"] + (f"; {c['party']}" if c["party"] else "")]
                for c in v["counters"]]
    blocks = [d.table(["Knight", "Where"], counters, [2, 4]),
              d.para(f"The Merlin/Morgan counter stands in {v['merlin']}."
                     if v["merlin"] else "The Merlin/Morgan counter is not on the map.")]
    if v["castles"]:
        blocks.append(d.para("Castles placed on the map: " + ", ".join(
            f"{name} ({area})" for name, area in v["castles"].items()) + "."))
    blocks.append(d.figure("companion.koc.mapfigure:map_flowable", figure, map_text(figure)))
    sections.append(d.section("The map", *blocks))
    if v.get("tournaments"):
        sections.append(d.section("Tournaments proclaimed", d.bullet_list(v["tournaments"])))
    if v.get("grail"):
        sections.append(d.section("The Holy Grail", d.bullet_list(v["grail"])))
    if mine:
        blocks = []
        if v.get("prison") and not v.get("question"):
            # a prisoner's only line is 'stay' (checks.legal_lines): it lets a turn that waits
            # for his orders (missing=wait) run
            blocks.append(d.para(
                f"Your knight is in prison at {v['prison']}: he does not move and makes no "
                "requests. Each turn he makes one appeal for his freedom, as your standing "
                "answer 'on prison_appeal: jailor | passerby | none' says (by default to the "
                "jailor where a direct appeal is allowed, else to a passer-by). When the game "
                "waits for your orders, 'stay' is all there is to send."))
        if v["options"]:
            blocks.append(d.options(
                [("Legal order lines now (movement, requests, answers)", v["options"])]))
        if blocks:
            sections.append(d.section("What you can order now", *blocks))
        standing = v["journal"]["standing"]
        if not v.get("over"):       # a finished game takes no orders (its result says so)
            sections.append(d.section(
                "Order form", d.code(ORDER_HELP),
                d.para("Your standing answers: " + ("; ".join(standing) if standing else
                                                    "none, so the defaults apply.")),
                d.para("The questions the game may ask, their answers and defaults:"),
                d.code(question_help()),
                d.form(8, "Write one order per line and send it to the moderator. Area names "
                          "may be shortened to any unambiguous beginning; case and accents do "
                          "not matter. '#' starts a comment.")))
    elif v["waiting"]:
        sections.append(d.section("Waiting", d.para(
            "The game waits for answers from: " + ", ".join(v["waiting"]) + ".")))
    footer = (f"Knights of Camelot - game {env['game_id']} - game turn {v['turn']} - "
              + (f"private report for {viewer}" if mine else "public report"))
    return {"title": "Knights of Camelot", "pdf_title": f"{env['game_id']} turn {env['turn']}",
            "subject": "turn report", "header": header, "qr": env["link"],
            "qr_label": env["link_label"], "footer": footer, "sections": sections}
