"""What each viewer may see of a Fluxx game, the legal order lines, and the report built from a
view alone.

``view(state, viewer)`` is a pure function. Every hand is secret: a player's view holds their
own hand (and the cards they have drawn apart from it in the middle of a play), their standing
orders and the question put to them; other hands appear only as counts. The public view holds no
hand at all. The draw pile's order is nobody's to see; the discard pile is face up.
"""
from __future__ import annotations

from typing import Any

from companion.engine.game import MODERATOR, edition, visible
from companion.fluxx.cards import PLACEHOLDER, TYPE_TITLE
from companion.fluxx.rules import Run, card_list, end_stop
from companion.fluxx.table import table_data, table_text
from companion.render import document as d

ORDER_HELP = [
    "play <card> [choices]     a card from your hand (in the order to play)",
    "use <card> [choices]      a free action (your Keepers, some New Rules)",
    "choices, after play or use, as many as the card needs:",
    "    taking <keeper>",
    "    on <card in play>",
    "    moving <creeper> to <player>",
    "    with <player>",
    "    giving <your keeper> for <their keeper>",
    "    choosing <card>",
    "    replacing <goal>",
    "    keeping <goal>",
    "    quoting \"<line>\"",
    "<choice>                  alone on a line: the answer if a card asks",
    "sing \"<line>\"             (bonus rule)",
    "accent \"<line>\"           (bonus rule)",
    "quote \"<line>\"            kept ready for a card that asks for a quote",
    "keep <card>; <card> ...   what you hold on to when you must discard",
    "keep none",
    "ask                       pause and ask me instead of using a default",
]


def _run(kind, state: dict) -> Run:
    """A read-only Run over the position, for the rule numbers and the legal targets."""
    return Run(kind.deck, state["game"], state["players"], state["standing"], {}, None)


def _card(kind, cid: str) -> dict[str, Any]:
    c = kind.deck[cid]
    kind_line = TYPE_TITLE[c.type]
    if c.tags:
        kind_line += ", " + ", ".join(kind.deck.tags[t].name for t in c.tags)
    return {"name": c.name, "type": kind_line, "text": c.text}


def _card_line(c: dict[str, Any]) -> str:
    return f"{c['name']} ({c['type']})" + (f": {c['text']}" if c["text"] else "")


def view(kind, state: dict, viewer: str) -> dict[str, Any]:
    deck = kind.deck
    g = state["game"]
    run = _run(kind, state)
    players = state["players"]
    pending = state.get("pending")
    play = run.play_count()
    v: dict[str, Any] = {
        "viewer": viewer,
        "players": list(players),
        "seated": list(g["seated"]),
        "waiting": list(g["waiting"]),
        "active": g["active"],
        "stage": g["stage"],
        "turn": g["turn"],
        "direction": "reversed (Ministry of Silly Walks)" if run.reverse() else "in seat order",
        "numbers": {
            "draw": run.draw_count(), "play": play, "hand_limit": run.hand_limit(),
            "keeper_limit": run.keeper_limit(), "goals": run.goal_slots(),
            "three": run.num(3),
        },
        "drawn": g["drawn"], "played": g["played"], "extra_play": g["extra_play"],
        "basic": {"name": deck.basic.name, "text": deck.basic.text},
        "rules": [_card(kind, c) for c in g["rules"]],
        "goals": [_card(kind, c) for c in g["goals"]],
        "table": [{"player": p, "keepers": [deck.name(c) for c in run.keepers(p)],
                   "creepers": [deck.name(c) for c in run.creepers(p)],
                   "hand": len(g["hands"][p]), "seated": p in g["seated"]} for p in players],
        "piles": {"deck": len(g["deck"]), "discard": len(g["discard"]),
                  "discard_top": [deck.name(c) for c in reversed(g["discard"])]},
        "aside": sum(len(f) for f in g["using"]),
        "events": [e["text"] for e in state["events"] if visible(e, viewer)],
        "result": dict(g["result"]) if g["result"] else None,
        "awaited": kind.awaited(state),
        "paused_for": pending["question"]["player"] if pending else None,
        "tied": list(g["tied"]),
    }
    if edition(state) >= 4:
        v["edition"] = edition(state)
    if v["result"] and v["result"].get("goals"):
        v["result"]["goals"] = [deck.name(c) for c in v["result"]["goals"]]
    if viewer in players:
        v["hand"] = [_card(kind, c) for c in g["hands"][viewer]]
        if viewer == g["active"] and g["using"]:
            v["using"] = [_card(kind, c) for frame in g["using"] for c in frame]
        mine = state["standing"][viewer]
        v["standing"] = {"keep": None if mine.get("keep") is None else
                         [deck.name(c) for c in mine["keep"]],
                         "quote": dict(mine["quote"]) if mine.get("quote") else None}
        v["asks"] = _asks(kind, state, viewer, run)
    if viewer == MODERATOR:
        v["hands"] = {p: [deck.name(c) for c in g["hands"][p]] for p in players}
        v["deck_top"] = [deck.name(c) for c in g["deck"][:5]]
        v["question"] = dict(pending["question"]) if pending else None
    return v


# -------------------------------------------------------------------------------- order options
def option_groups(kind, state: dict, player: str) -> list[tuple[str, list[str]]]:
    g = state["game"]
    if g["stage"] == "over" or player not in state["players"]:
        return []
    if player in g["waiting"]:
        return [("Join the game (you are dealt 3 cards when the current turn ends)", ["join"])]
    pending = state.get("pending")
    if pending:
        question = pending["question"]
        if question["player"] != player:
            return []
        if question["kind"] != "turn":
            return [("Answer with one of these lines", list(question["options"]))]
    elif player != g["active"]:
        return []
    return turn_groups(kind, state, player)


def turn_groups(kind, state: dict, p: str) -> list[tuple[str, list[str]]]:
    deck = kind.deck
    g = state["game"]
    run = _run(kind, state)
    social = state.get("social", "trust")
    plays: list[str] = []
    for cid in g["hands"][p]:
        plays += play_variants(kind, run, p, cid, social)
    uses: list[str] = []
    for cid in g["table"][p] + g["rules"]:
        card = deck[cid]
        if not card.free or (card.type == "keeper" and cid not in g["table"][p]):
            continue
        limit = card.free.get("per_turn")
        if limit and g["used"].count(cid) >= limit:
            continue
        uses += use_variants(kind, run, p, cid)
    groups = [("Plays, in the order you want them (a card you do not hold yet is played if it "
               "reaches your hand in time)", plays)]
    if uses:
        groups.append(("Free actions (they are not plays; each runs where you list it)", uses))
    bonus = []
    verdict = " judged ok" if social == "judge" else ""
    if social != "off":
        for cid in g["start_rules"]:
            b = deck[cid].bonus
            if b and b["when"] in ("sing", "accent"):
                bonus.append(f'{b["when"]} "{PLACEHOLDER}"{verdict}')
    if bonus:
        groups.append(("Bonus claims (paid before your first play)", bonus))
    keep = [f"keep {deck.name(c)}" for c in g["hands"][p] + run.keepers(p)]
    groups.append(("Other lines", ["ask"] + keep + ["keep none"]))
    return groups


def play_variants(kind, run: Run, p: str, cid: str, social: str) -> list[str]:
    deck = kind.deck
    g = run.g
    card = deck[cid]
    name = card.name
    base = f"play {name}"
    if card.type == "goal":
        if len(g["goals"]) >= 2 and run.goal_slots() >= 2:
            return [f"{base} replacing {deck.name(x)}" for x in g["goals"]]
        return [base]
    if card.type != "action":
        return [base]
    out: list[str] = []
    for op in card.do:
        kind_ = op["op"]
        if kind_ == "steal_keeper":
            out += [f"{base} taking {deck.name(c)}" for q in run.after(p) for c in run.keepers(q)]
        elif kind_ == "trash":
            out += [f"{base} on {deck.name(c)}"
                    for c in run.trash_targets(p, op["what"], own_first=op["what"] == "creeper")]
        elif kind_ == "move_creeper":
            out += [f"{base} moving {deck.name(o['moving'])} to {o['to']}"
                    for o in run.creeper_moves(p, op["from"])]
        elif kind_ == "trade_hands":
            out += [f"{base} with {q}" for q in run.after(p)]
        elif kind_ == "exchange_keepers":
            out += [f"{base} giving {deck.name(a)} for {deck.name(b)}"
                    for q in run.after(p) for b in run.keepers(q) for a in run.keepers(p)]
        elif kind_ == "reveal_goal" and len(g["goals"]) >= 2:
            out += [f"{base} replacing {deck.name(x)}" for x in g["goals"]]
        elif kind_ == "discard_rules" and len(g["goals"]) >= 2:
            out += [f"{base} keeping {deck.name(x)}" for x in g["goals"]]
        elif kind_ == "replay":
            seen = []
            for c in reversed(g["discard"]):
                if deck[c].type in op["types"] and c not in seen:
                    seen.append(c)
            out += [f"{base} choosing {deck.name(c)}" for c in seen]
        elif kind_ == "rescue":
            out += [f"{base} choosing {deck.name(c)}" for c in reversed(g["discard"])
                    if deck[c].type == "keeper"]
        elif kind_ == "quote_round" and social == "trust":
            out += [f'{base} quoting "{PLACEHOLDER}"']
    if not out:
        return [base]
    if any(op["op"] == "quote_round" for op in card.do):
        return [base] + out
    return out


def use_variants(kind, run: Run, p: str, cid: str) -> list[str]:
    deck = kind.deck
    card = deck[cid]
    free = card.free
    base = f"use {card.name}"
    if free["op"] == "trash":
        targets = [t for t in run.trash_targets(p, free["what"], own_first=True) if t != cid]
        return [f"{base} on {deck.name(t)}" for t in targets]
    if free["op"] == "move_creeper":
        return [f"{base} moving {deck.name(o['moving'])} to {o['to']}"
                for o in run.creeper_moves(p, free["from"])]
    if free["op"] == "redraw_hand":
        return [base] if run.plays_left(p) > 0 and run.g["hands"][p] else []
    if free["op"] == "swap_plays":
        return [base] if run.plays_left(p) > 0 else []
    return [base]


def _asks(kind, state: dict, player: str, run: Run) -> dict[str, Any]:
    g = state["game"]
    groups = option_groups(kind, state, player)
    pending = state.get("pending")
    numbers = _numbers_text(run)
    if g["stage"] == "over":
        prompt = "Nothing: the game is over."
        expects = "nothing"
    elif player in g["waiting"]:
        prompt = ("You have not joined the game yet. Send 'join' and you are dealt 3 cards when "
                  "the current turn ends; you then play when your seat comes round.")
        expects = "join"
    elif pending and pending["question"]["player"] == player:
        q = pending["question"]
        if q["kind"] == "turn":
            prompt = (f"It is your turn and the game waits for your orders. {numbers} You have "
                      f"played {g['played']} so far.")
        elif player == g["active"]:
            prompt = ("The game is paused for your answer: " + q["prompt"] + " Send one of the "
                      "lines below (you may add further plays for the rest of your turn; new "
                      "orders replace your unused ones).")
        else:           # asked in another player's turn: only the answer is his to give
            prompt = ("The game is paused for your answer: " + q["prompt"] + " Send one of the "
                      f"lines below; it is {g['active']}'s turn, so the answer is all that is "
                      "asked of you now (keep and quote lines may come with it).")
        expects = "answer"
    elif pending:
        prompt = (f"Nothing now: the game waits for {pending['question']['player']}. You may "
                  "update your standing orders (keep, quote).")
        expects = "nothing"
    elif player == g["active"] and g["stage"] == "start":
        prompt = (f"It is your turn, but its start is still to come: your start-of-turn draw "
                  f"is made first when the turn is processed. {numbers} List your plays in "
                  "order; a play of a card you do not hold yet is used if the card arrives.")
        expects = "turn"
    elif player == g["active"]:
        prompt = (f"It is your turn: you hold {_cards(len(g['hands'][player]))}. {numbers} "
                  f"You have played {g['played']} so far. List your plays in order; a card "
                  "drawn during your turn can be listed too ('play Jackpot!' after 'play Draw 2 "
                  "and Use 'em' plays it if it turns up).")
        expects = "turn"
    else:
        order = [g["active"]] + run.after(g["active"])
        prompt = (f"Nothing now: it is {g['active']}'s turn (turn order from now: "
                  f"{', '.join(order)}). You may send standing orders: 'keep' (what you hold on "
                  "to when you must discard) and 'quote'; orders for your own turn may be sent "
                  "early and are held until it comes.")
        expects = "nothing"
    return {"expects": expects, "prompt": prompt,
            "groups": [{"title": t, "lines": lines} for t, lines in groups]}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _numbers_text(run: Run) -> str:
    play = run.play_count()
    parts = [f"Draw {run.draw_count()}",
             "play all your cards" if play == "all" else f"play {play}"]
    if run.hand_limit() is not None:
        parts.append(f"hand limit {run.hand_limit()}")
    if run.keeper_limit() is not None:
        parts.append(f"keeper limit {run.keeper_limit()}")
    return "The rules now: " + ", ".join(parts) + "."


# ------------------------------------------------------------------------------------- report
def report(kind, v: dict[str, Any]) -> dict[str, Any]:
    env = v["envelope"]
    viewer = v["viewer"]
    is_player = viewer in v["players"]
    fourth = v.get("edition", 0) >= 4      # rules edition 4 (see kind.py)
    n = v["numbers"]
    header = [["Game", env["game_id"]], ["Turn", str(env["turn"])],
              ["Report for", viewer if is_player else "everybody (public report)"],
              ["Processed", env["date"]],
              ["Players", ", ".join(v["seated"]) + " (seat order)" +
               (f"; not joined yet: {', '.join(v['waiting'])}" if v["waiting"] else "")]]
    if v["stage"] == "over":
        stage = "the game is over"
    elif v["paused_for"]:
        stage = f"{v['active']}'s turn {v['turn']}, paused: waiting for {v['paused_for']}"
    else:
        # "; turns go ...": the direction may carry brackets of its own (Ministry of Silly Walks)
        stage = f"{v['active']}'s turn {v['turn']}; turns go {v['direction']}"
    header.append(["Stage", stage])

    sections = []
    sections.append(d.section("What happened", d.bullet_list(v["events"] or
                                                             ["Nothing has happened yet."])))
    if v["result"]:
        r = v["result"]
        text = (f"{r['winner']} wins: {r['reason']}." if r["winner"] else
                f"The game ended without a winner: {r['reason']}.")
        sections.append(d.section("Result", d.para(text)))

    if is_player and "hand" in v:
        rows = [_card_line(c) for c in v["hand"]]
        if not fourth:
            blocks = [d.para(f"Private: only you see your hand ({len(rows)} cards, in the order "
                             "you received them).")]
        elif rows:
            blocks = [d.para(f"Private: only you see your hand ({_cards(len(rows))}"
                             + (", in the order you received them)." if len(rows) > 1 else ")."))]
        else:
            blocks = [d.para("Private: only you see your hand. It is empty.")]
        if rows:
            blocks.append(d.bullet_list(rows))
        if v.get("using"):
            aside = [c["name"] for c in v["using"]]
            blocks.append(d.para(
                end_stop(f"Drawn apart from your hand, waiting to be played: {card_list(aside)}.")
                if fourth else
                "Drawn apart from your hand, waiting to be played: " + ", ".join(aside) + "."))
        sections.append(d.section("Your hand", *blocks))

    play = "all cards in hand" if n["play"] == "all" else str(n["play"])
    summary = [f"Draw {n['draw']}, play {play}",
               f"hand limit {n['hand_limit']}" if n["hand_limit"] is not None else "no hand limit",
               f"keeper limit {n['keeper_limit']}" if n["keeper_limit"] is not None
               else "no keeper limit"]
    if n["goals"] > 1:
        summary.append(f"up to {n['goals']} Goals")
    if n["three"] != 3:
        summary.append(f"every printed 3 counts as {n['three']}")
    rule_rows = [f"{v['basic']['name']}: {v['basic']['text']}"] + [
        f"{r['name']}: {r['text']}" for r in v["rules"]]
    goal_rows = [f"{gl['name']}: {gl['text']}" for gl in v["goals"]]
    blocks = [d.para("The rules now: " + "; ".join(summary) + "."),
              d.para("On the table: the Basic Rules, then the New Rules in the order they "
                     "were played."),
              d.bullet_list(rule_rows)]
    if goal_rows:
        blocks.append(d.para("Goal" + ("s" if len(goal_rows) > 1 else "") + " in play:"))
        blocks.append(d.bullet_list(goal_rows))
    else:
        blocks.append(d.para("There is no Goal in play yet: nobody can win until one is played."))
    if v["tied"]:
        blocks.append(d.para(f"{', '.join(v['tied'])} meet a Goal at the same time: no winner "
                             "until only one does."))
    sections.append(d.section("Rules and Goal", *blocks))

    rows = []
    for row in v["table"]:
        who = row["player"] + ("" if row["seated"] else " (not joined)")
        rows.append([who, str(row["hand"]), ", ".join(row["keepers"]) or "-",
                     ", ".join(row["creepers"]) or "-"])
    piles = v["piles"]
    top = ("; " if fourth else ", ").join(piles["discard_top"][:8]) + (
        " ..." if len(piles["discard_top"]) > 8 else "")
    figure = table_data(v)
    sections.append(d.section(
        "On the table",
        d.figure("companion.fluxx.table:table_flowable", figure, table_text(figure)),
        d.table(["Player", "Hand", "Keepers", "Creepers"], rows, [1.5, 0.7, 3.5, 2.5]),
        d.para(f"Draw pile: {_cards(piles['deck'])}. Discard pile: {_cards(piles['discard'])}"
               + (f" (from the top: {top})." if top else ".")
               + (f" Cards drawn apart from the hand in the middle of a play: {v['aside']}."
                  if v["aside"] else "")),
    ))

    if is_player and v["stage"] == "over":
        sections.append(d.section("What is asked of you",
                                  d.para("Nothing: the game is over; thank you for playing.")))
    elif is_player:
        asks = v["asks"]
        blocks = [d.para(asks["prompt"])]
        if asks["groups"]:
            blocks.append(d.options([(g["title"], g["lines"]) for g in asks["groups"]]))
        st = v["standing"]
        keep = ("; ".join(st["keep"]) or "none (defaults apply)") if st["keep"] is not None \
            else "not set (defaults apply: you keep the cards you have had longest)"
        quote = f'"{st["quote"]["words"]}"' if st["quote"] else "none"
        blocks.append(d.para(f"Your standing orders: keep {keep}; quote ready: {quote}."))
        sections.append(d.section("What is asked of you", *blocks))
        sections.append(d.section(
            "Order form",
            d.code(ORDER_HELP),
            d.form(8, "Write one order per line and send it to the moderator. Card and "
                      "player names may be shortened to any unambiguous beginning; case, "
                      "accents and punctuation do not matter. '#' starts a comment."),
        ))
    else:
        if v["awaited"]:
            sections.append(d.section("Orders awaited", d.para(
                "Orders are now needed from: " + ", ".join(v["awaited"]) + ".")))
        if viewer == MODERATOR:
            rows = [[p, "; ".join(h) or "-"] for p, h in v["hands"].items()]
            sections.append(d.section("Hands (moderator only)",
                                      d.table(["Player", "Hand"], rows, [1, 5])))

    footer = (f"Monty Python Fluxx - game {env['game_id']} - turn {env['turn']} - "
              + (f"private report for {viewer}" if is_player else "public report"))
    return {"title": "Monty Python Fluxx",
            "pdf_title": f"{env['game_id']} turn {env['turn']} - "
                         f"{viewer if is_player else 'public'}",
            "subject": "turn report", "header": header, "qr": env["link"],
            "qr_label": env["link_label"], "footer": footer, "sections": sections}
