"""What each viewer may see of a Medieval Mayhem game, and the report built from that view alone.

``view(kind, state, viewer)`` is a pure function of the state and the viewer. Open to everybody:
the Barracks, the discard pile, the number of cards in the deck, every play zone and Castle,
how many cards each player holds, the face-up side of each character card (the character and
its action), the points in play and in sets. Private: a player's own hand, both sides of their
own character card, their standing orders, their planned actions and the questions the game
asks them; with Team Tactics also the hands of their teammates. When the game is over every hand
and every concealed side is shown.
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import MODERATOR, visible
from companion.engine.words import counted
from companion.mayhem.effects import shared_aspects
from companion.mayhem.orders import defend_text, hand_text
from companion.mayhem.rules import LIMITS, bonus_points, listed, team_of, zone_points
from companion.mayhem.table import table_data, table_text
from companion.render import document as d


def card_view(cat, cid: str) -> dict[str, Any]:
    c = cat.card[cid]
    return {"name": c.name, "label": c.label, "colour": c.colour, "type": c.type,
            "kind": c.kind, "number": c.number,
            "points": {"play": c.points[0], "set": c.points[1], "hand": c.points[2]},
            "text": c.text, "no": c.no}


def character_face(cat, cid: str | None) -> dict[str, Any] | None:
    if not cid:
        return None
    ch = cat.character[cid]
    return {"face": ch.face, "action": ch.action_text}


def character_full(cat, cid: str | None) -> dict[str, Any] | None:
    if not cid:
        return None
    ch = cat.character[cid]
    return {"name": ch.name, "face": ch.face, "version": ch.version, "action": ch.action_text,
            "bonus": ch.bonus_text}


def _sorted(cat, cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: cat.order[c])


def view(kind, state: dict, viewer: str) -> dict[str, Any]:
    cat = kind.catalogue
    players = state["players"]
    over = state["phase"] == "over"
    is_player = viewer in players
    rules = state["rules"]
    table = []
    for p in players:
        z = zone_points(cat, state, p)
        table.append({
            "player": p,
            "team": team_of(state, p) if rules.get("teams") else None,
            "character": character_face(cat, state["characters"].get(p)),
            "hand_count": len(state["hands"][p]),
            "play": [card_view(cat, c) for c in state["play"][p]],
            "sets": [{"cards": [card_view(cat, c) for c in st],
                      "aspects": shared_aspects([cat.card[c] for c in st])}
                     for st in state["sets"][p]],
            "visible": {"play": z["play"], "set": z["set"]},
            "turns": state["turns"].get(p, 0),
        })
    v: dict[str, Any] = {
        "viewer": viewer,
        "players": list(players),
        "rules": {k: val for k, val in rules.items()},
        "first": state["first"],
        "phase": state["phase"],
        "current": state["current"] if state["phase"] == "play" else None,
        "round": state["round"],
        "end": dict(state["end"]) if state["end"] else None,
        "deck_count": len(state["deck"]),
        "barracks": [card_view(cat, c) for c in state["barracks"]],
        "discard": [card_view(cat, c) for c in reversed(state["discard"])],
        "table": table,
        "events": [e["text"] for e in state["events"] if visible(e, viewer)],
        "awaited": kind.awaited(state),
        "result": state["result"],
        "limits": dict(LIMITS),
    }
    if is_player:
        hand = _sorted(cat, state["hands"][viewer])
        v["hand"] = [card_view(cat, c) for c in hand]
        v["character"] = character_full(cat, state["characters"].get(viewer))
        v["my_points"] = dict(zone_points(cat, state, viewer),
                              bonus=bonus_points(cat, state, viewer)
                              if state["characters"].get(viewer) else 0)
        standing = state["standing"][viewer]
        v["standing"] = ([defend_text(cat, r) for r in standing["defend"]]
                         + hand_text(cat, standing["hand"]))
        v["plan"] = [a["text"] for a in state["plans"].get(viewer, [])]
        v["asks"] = asks(kind, state, viewer)
        if state["phase"] == "draft" and state["draft"]:
            v["dealt"] = [character_full(cat, c) for c in state["draft"]["dealt"][viewer]]
            picked = state["draft"]["picked"].get(viewer)
            v["picked"] = cat.character[picked].name if picked else None
        if rules.get("teams"):
            v["team_hands"] = {m: [card_view(cat, c) for c in _sorted(cat, state["hands"][m])]
                               for m in team_of(state, viewer) if m != viewer}
    if over or viewer == MODERATOR:
        v["hands"] = {p: [card_view(cat, c) for c in _sorted(cat, state["hands"][p])]
                      for p in players}
        v["characters"] = {p: character_full(cat, state["characters"].get(p)) for p in players}
    if viewer == MODERATOR:
        v["deck"] = [cat.card[c].name for c in state["deck"]]
        v["pending"] = state["pending"]
        v["plans"] = {p: [a["text"] for a in state["plans"].get(p, [])] for p in players}
        v["standing_all"] = {p: [defend_text(cat, r) for r in state["standing"][p]["defend"]]
                             + hand_text(cat, state["standing"][p]["hand"]) for p in players}
        v["position"] = kind.write_position(state)
    return v


def _give_cause(cat, state: dict, player: str, what: str) -> str:
    """What makes ``player`` give up cards from the hand, from the player's side: 'Plunder
    (Gilded Attack 3), played by Cora, makes you give Cora 2 cards from your hand', not the
    text's own 'capture 2 cards' (which Cora does). ``what`` is the question's 'capture 2 cards
    from your hand'; the card or character action is the effect task under way."""
    stack = state.get("stack") or []
    task = stack[-1] if stack and stack[-1].get("t") == "effect" else None
    op, _, rest = what.partition(" ")
    if task is None or op not in ("capture", "lure", "destroy"):
        return f"A card makes you {what}"
    actor = task["p"]
    if task.get("card"):
        card = cat.card[task["card"]]
        cause = (f"{card.name} ({card.label}), which you played," if actor == player else
                 f"{card.name} ({card.label}), played by {actor},")
    else:
        face = cat.character[state["characters"][actor]].face
        cause = ("your character action" if actor == player else
                 f"{actor}'s character action") + f" ({face})"
    cause = cause[0].upper() + cause[1:]
    if actor == player or op == "destroy":
        return f"{cause} makes you discard {rest}"
    if op == "capture":
        return f"{cause} makes you give {actor} {rest}"
    return f"{cause} makes you put {rest.replace(' from your hand', '')} from your hand into " \
           f"{actor}'s play zone"


def asks(kind, state: dict, player: str) -> dict[str, Any]:
    cat = kind.catalogue
    asked = kind.asked(state, player)
    groups = kind.option_groups(state, player)
    pending = state.get("pending") or {}
    if asked == "nothing":
        if state["phase"] == "over":
            prompt = "Nothing: the game is over."
        elif state["phase"] == "draft":
            prompt = "Nothing: your pick is in; the others are still choosing."
        else:
            waiting = kind.awaited(state)
            prompt = (f"Nothing for now: the game waits for {', '.join(waiting)}. You may send "
                      "standing orders at any time, and your next turn's orders ahead (they are "
                      "held until your turn begins, so they are written before you see your "
                      "start-of-turn draw).")
    elif asked == "pick":
        prompt = ("Character draft (optional rule A): keep one of the character cards dealt to "
                  "you with 'pick <character>'; the others go to the box. Nobody else learns "
                  "which you keep until the end.")
    elif asked == "turn":
        done = state["turn"]["actions"]
        prompt = (f"It is your turn: {'two non-free actions' if done == 0 else 'one more non-free action'}"
                  ". Write one action per line; extra lines are alternatives, tried in order when "
                  "an earlier one cannot be carried out. Cards that target a player need "
                  "'at <player>'; cards that offer a choice need 'choose A' or 'choose B'.")
        if state["rules"].get("free_sets"):
            prompt += " Forming a set costs no action (optional rule G)."
    elif asked == "defense":
        card = cat.card[pending["card"]]
        prompt = (f"{pending['actor']} plays {card.name} ({card.label}): \"{card.effect_text}\" "
                  "It would affect you. Discard a Defense card to be left alone by it?")
    elif asked == "give":
        prompt = (f"{_give_cause(cat, state, player, pending['what'])}. You choose which "
                  f"({pending['count']} of "
                  + ", ".join(cat.card[c].name for c in pending["pool"]) + ").")
    elif asked == "limit":
        o = pending["over"]
        parts = [f"{n} from {z}" for z, n in (("hand", o["hand"]), ("play", o["play"])) if n]
        if o["sets"]:
            parts.append(f"{counted(o['sets'], 'set')} (name one card of each)")
        prompt = ("Your turn ends over the zone limits (6 in play, 6 in hand, 3 sets): discard "
                  + ", ".join(parts) + ".")
    else:
        prompt = ""
    return {"asked": asked, "prompt": prompt,
            "groups": [{"title": t, "lines": lines} for t, lines in groups]}


# ------------------------------------------------------------------------------------- report
ORDER_HELP = [
    "play <card> [at <player>] [choose A|B] [up to N] [taking <card>, ...]",
    "draw",
    "recruit <card>",
    "character [at <player>] [...]",
    "set <card>, <card>, <card> [from hand|play] [then <trigger> <choice>] ...",
    "discard <card>, ... then draw",
    "discard none",
    "recycle <card>, <card> [for <card>]        (optional rule E)",
    "answer defend [with <card>]",
    "answer no defense",
    "answer give <card>, ...",
    "answer discard <card>, ...",
    "pick <character>                           (optional rule A)",
    "standing orders (kept until replaced):",
    "defend [by <player>] [against <type>] [from hand|play|set] [with <card>]",
    "no defense [...]",
    "defend none",
    "give <card>, ...",
    "give any",
    "give none",
    "keep <card>, ...",
]

TRIGGER_HELP = ("Triggers: crimson <card>|none; gilded <card>|none; sapphire; numbers "
                "<card>, ...|none; dragon princess|scales [<card>]; princess knight|guardians "
                "[<card>]; knight dragon|shield [<card>]; attack destroy | attack draw <0-3>; "
                "defense <card>|none.")


def short(card: dict[str, Any]) -> str:
    return f"{card['name']} ({card['label']})"


def points_text(card: dict[str, Any]) -> str:
    p = card["points"]
    return f"{p['play']}/{p['set']}/{p['hand']}"


def card_line(c: dict[str, Any]) -> str:
    p = c["points"]
    text = c["text"].replace("**", "").replace("\n", " ")
    return (f"{c['name']} ({c['label']}; points in play/set/hand {p['play']}/{p['set']}/"
            f"{p['hand']}): {text}")


def card_list(cards: list[dict[str, Any]]) -> dict[str, Any]:
    return d.bullet_list([card_line(c) for c in cards])


def report(kind, v: dict[str, Any]) -> dict[str, Any]:
    env = v["envelope"]
    viewer = v["viewer"]
    is_player = viewer in v["players"]
    header = [["Game", env["game_id"]], ["Turn", str(env["turn"])],
              ["Report for", viewer if is_player else "everybody (public report)"],
              ["Processed", env["date"]],
              ["Players", ", ".join(v["players"]) + f" (clockwise; {v['first']} started)"]]
    rules = v["rules"]
    optional = []
    titles = {"draft": "A draft", "charm": "C Three's a Charm", "right_hand": "D Right Hand Man",
              "best_defense": "E The Best Defense", "free_sets": "G Free Stuff",
              "chaos": "H Chaos Theory"}
    for key in ("draft", "rounds", "charm", "right_hand", "best_defense", "teams",
                "free_sets", "chaos"):
        if not rules.get(key):
            continue
        if key == "rounds":
            optional.append(f"B Round Time Limit ({counted(rules['rounds'], 'round')})")
        elif key == "teams":
            optional.append("F Team Tactics (" + "; ".join(" + ".join(t) for t in
                                                          rules["teams"]) + ")")
        else:
            optional.append(titles[key])
    header.append(["Options", ", ".join(optional) or "none (the standard rules)"])
    stage = {"draft": "character draft", "play": f"{v['current']}'s turn",
             "over": "the game is over"}[v["phase"]]
    if v["phase"] == "play":
        stage += f" (round {v['round'] + 1})"
    header.append(["Stage", stage])
    if v["end"] and v["phase"] == "play":
        header.append(["End of game", f"triggered ({'deck empty' if v['end']['reason'] == 'deck' else 'sets'}"
                       f", in {v['end']['player']}'s turn): the game ends when the turn would "
                       f"pass to {v['first']}"])

    sections = []
    sections.append(d.section("What happened", d.bullet_list(v["events"] or
                                                             ["Nothing has happened yet."])))
    if v["result"]:
        r = v["result"]
        # the total next to the name: on a phone the columns after the first few scroll
        rows = [[p, str(s["total"]), str(s["play"]), str(s["set"]), str(s["hand"]),
                 str(s["bonus"]), str(s["sets"]), str(s["in_play"]), str(s["in_hand"])]
                for p, s in r["scores"].items()]
        blocks = [d.para(f"{'Winner' if len(r['winners']) == 1 else 'Winners'}: "
                         f"{listed(r['winners'])} ({r['reason']})."),
                  d.table(["Player", "Total", "Points in play", "Points in sets",
                           "Points in hand", "Bonus", "Sets", "Cards in play", "Cards in hand"],
                          rows, [1.4, 0.8, 0.7, 0.7, 0.7, 0.7, 0.9, 0.9, 0.9])]
        if r.get("charm"):
            blocks.append(d.para("Three's a Charm decided the game; the scores are shown for "
                                 "interest only."))
        if r.get("team_totals"):
            blocks.append(d.table(["Team", "Total"], [[t, str(n)] for t, n in
                                                      r["team_totals"].items()], [3, 1]))
        sections.append(d.section("Result", *blocks))

    if is_player:
        blocks = []
        ch = v.get("character")
        if ch:
            blocks.append(d.bullet_list([
                f"Your character card: {ch['name']}.",
                f"Face up (everybody sees it): {ch['face']}. Character action: {ch['action']}",
                f"Concealed side (only you): version {ch['version']}. Bonus: {ch['bonus']}"]))
        elif v.get("dealt"):
            blocks.append(d.para("Character cards dealt to you (keep one):"))
            blocks.append(d.bullet_list([f"{c['name']}: action: {c['action']} Bonus: "
                                         f"{c['bonus']}" for c in v["dealt"]]))
            if v.get("picked"):
                blocks.append(d.para(f"You keep {v['picked']}."))
        hand = v["hand"]
        blocks.append(d.para(f"Your hand ({len(hand)} card{'s' if len(hand) != 1 else ''}, "
                             "private):" if hand else "Your hand is empty."))
        if hand:
            blocks.append(card_list(hand))
        mp = v["my_points"]
        blocks.append(d.para(f"Your points so far: play {mp['play']}, sets {mp['set']}, hand "
                             f"{mp['hand']}, character bonus {mp['bonus']}: "
                             f"{mp['play'] + mp['set'] + mp['hand'] + mp['bonus']} (the others "
                             f"see only play and sets)."))
        sections.append(d.section("Your hand and character", *blocks))
        for mate, cards in (v.get("team_hands") or {}).items():
            sections.append(d.section(
                f"Your teammate {mate}'s hand (Team Tactics)",
                card_list(cards) if cards
                else d.para(f"{mate}'s hand is empty.")))

    figure = table_data(v)
    sections.append(d.section("The table", d.figure("companion.mayhem.table:table_flowable",
                                                    figure, table_text(figure))))
    table_blocks = [d.para(f"Draw deck: {v['deck_count']} card{'s' if v['deck_count'] != 1 else ''}."
                           + ("" if v["deck_count"] else " The deck is empty."))]
    table_blocks.append(d.para("The Barracks (recruit zone):" if v["barracks"] else
                               "The Barracks are empty."))
    if v["barracks"]:
        table_blocks.append(card_list(v["barracks"]))
    if v["discard"]:
        table_blocks.append(d.para(f"Discard pile ({len(v['discard'])}, newest first): "
                                   + "; ".join(short(c) for c in v["discard"]) + "."))
    else:
        table_blocks.append(d.para("The discard pile is empty."))
    sections.append(d.section("The Kingdom: deck, Barracks, discard pile", *table_blocks))

    items = []
    for t in v["table"]:
        char = t["character"]["face"] if t["character"] else "character not chosen yet"
        head = t["player"] + (" (to act)" if t["player"] == v.get("current") else "")
        if t["team"]:
            head += " [team " + " + ".join(t["team"]) + "]"
        play = "; ".join(short(c) for c in t["play"]) or "empty"
        sets = " | ".join(", ".join(short(c) for c in st["cards"]) + " (same "
                          + "/".join(st["aspects"]) + ")" for st in t["sets"]) or "none"
        items.append(f"{head}: {char}; {t['hand_count']} card{'s' if t['hand_count'] != 1 else ''}"
                     f" in hand; play zone ({len(t['play'])}/6): {play}; Castle "
                     f"({len(t['sets'])}/3 sets): {sets}; points in play {t['visible']['play']}, "
                     f"in sets {t['visible']['set']}.")
    blocks = [d.bullet_list(items)]
    faces = {}
    for t in v["table"]:
        if t["character"]:
            faces[t["character"]["face"]] = t["character"]["action"]
    if faces:
        blocks.append(d.para("Character actions (face-up sides): " + " ".join(
            f"{face}: {action}" for face, action in faces.items())))
    if v.get("hands") and not is_player or (v["phase"] == "over" and v.get("hands")):
        for p in v["players"]:
            ch = v["characters"].get(p)
            cards = v["hands"][p]
            blocks.append(d.para(f"{p}'s hand: " + ("; ".join(short(c) for c in cards) or
                                                    "empty") + "."
                                 + (f" Character: {ch['name']} ({ch['bonus']})" if ch else "")))
    sections.append(d.section("The players' zones", *blocks))

    if is_player:
        a = v["asks"]
        blocks = [d.para(a["prompt"])]
        if a["groups"]:
            blocks.append(d.options([(g["title"], g["lines"]) for g in a["groups"]]))
        if v["plan"]:
            blocks.append(d.para("Your planned actions still waiting: " + "; ".join(v["plan"])
                                 + "."))
        if v["standing"]:
            standing = "; ".join(v["standing"])
        elif v["rules"].get("wait"):
            standing = ("none, so the game asks you whenever a Defense card or a choice from "
                        "your hand is needed ('defend ...', 'no defense', 'give ...', 'keep "
                        "...' or 'give any' let it go on without asking)")
        else:
            standing = ("none (the defaults apply: you defend when a card would take or "
                        "destroy a card of yours, and you give up the cards worth least in your "
                        "hand)")
        if v["phase"] != "over":            # a finished game: nothing stands any more
            blocks.append(d.para(f"Your standing orders: {standing}."))
        sections.append(d.section("What is asked of you", *blocks))
        if v["phase"] != "over":
            sections.append(d.section(
                "Order form",
                d.code(ORDER_HELP),
                d.para(TRIGGER_HELP),
                d.form(8, "Write one order per line and send it to the moderator. Names may be "
                          "shortened to any unambiguous beginning (e.g. 'hoard', 'sun q'); case "
                          "and accents do not matter; '#' starts a comment. Standing order "
                          "lines replace your earlier lines of the same kind."),
            ))
    elif v["awaited"]:
        sections.append(d.section("Orders awaited", d.para(
            "Orders are now needed from: " + ", ".join(v["awaited"]) + ".")))

    footer = (f"Medieval Mayhem - game {env['game_id']} - turn {env['turn']} - "
              + (f"private report for {viewer}" if is_player else "public report"))
    return {"title": "Medieval Mayhem",
            "pdf_title": f"{env['game_id']} turn {env['turn']} - "
                         f"{viewer if is_player else 'public'}",
            "subject": "turn report", "header": header, "qr": env["link"],
            "qr_label": env["link_label"], "footer": footer, "sections": sections}
