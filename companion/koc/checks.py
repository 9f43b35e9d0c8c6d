"""Checking Knights of Camelot orders against the position, acknowledging them, and listing the
order lines legal now."""
from __future__ import annotations

from companion.engine.orders import IllegalOrderError, Line, OrdersRejected
from companion.errors import CompanionError
from companion.engine.game import edition
from companion.koc.engine.movement import (ASHORE_IN_PORT, GO_TO_BY_SHIP, LANDING_KINDS,
                                          voyage_route)
from companion.koc.engine.questions import CATALOGUE
from companion.koc.world import SITES


def _err(line_no: int, orders_text_line: Line | None, message: str,
         suggestion: str | None = None) -> IllegalOrderError:
    """An error marking the order of its line: its words, not a '#' comment after them."""
    length = 1
    if orders_text_line is not None:
        tokens = orders_text_line.tokens
        length = tokens[-1].end - 1 if tokens else len(orders_text_line.text)
    return IllegalOrderError(message, orders_text_line, 1 if orders_text_line else None,
                             length, suggestion=suggestion)


def check_orders(world, state: dict, player: str, orders, filename: str) -> None:
    """Movement must make sense from where the knight stands now (his own turn cannot be
    changed by others before it starts, save by what he meets on the way)."""
    from companion.koc.routes import land_route

    koc = state["koc"]
    errors = []
    if koc["over"]:
        lines = getattr(orders, "lines", None) or [Line(1, "", [])]
        from companion.koc.engine.victory import winners

        won = "; ".join(f"{p} won{' as a Knave' if side == 'knave' else ''} ({why})"
                        for side, p, why in winners(state)) or "nobody won"
        raise OrdersRejected([IllegalOrderError(f"the game is over ({won}); no more orders "
                                                "are taken",
                                                lines[0], 1, len(lines[0].text))], filename)
    pk = state["knights"][player]
    if state["pending"].get(player):
        fixed = [(x["line"], x.get("src"), "a move" if x["do"] != "declare" else
                  "declaring a tournament") for x in orders.plan] + \
            [(x["line"], x.get("src"), "a request") for x in orders.requests] + \
            [(x["line"], x.get("src"), "a prayer") for x in orders.prayers]
        if orders.join:
            fixed.append((orders.join_line.number, orders.join_line, "joining a party"))
        if orders.leave:
            fixed.append((orders.leave_line.number, orders.leave_line, "leaving a party"))
        fixed += [(x["line"], x.get("src"), f"{x['do']} adventure")
                  for x in getattr(orders, "adventure_orders", [])]
        for number, src, what in fixed:
            errors.append(_err(number, src, f"{what} cannot be changed now: your turn is "
                               "waiting for an answer, and it goes on with the moves, requests "
                               "and prayers it began with",
                               "send only the answer ('answer ...') and standing answers "
                               "('on ...')"))
        from companion.koc.engine.knaves import KNAVE_ORDERS

        for a in orders.answers:    # 'turn knave', 'repent', ...: at the start of a turn
            if a["key"] in KNAVE_ORDERS and a.get("src") is not None:
                errors.append(_err(a["src"].number, a["src"],
                                   f"'{KNAVE_ORDERS[a['key']]}' is carried out at the start of "
                                   "a turn, and this turn has begun: it is waiting for an answer",
                                   "send it again with your orders for the next turn"))
        if errors:
            raise OrdersRejected(errors, filename)
        return
    if orders.join == player:
        errors.append(_err(orders.join_line.number, orders.join_line,
                           "a knight cannot join his own party",
                           "name the player whose party to join"))
    elif orders.join and orders.leave:
        errors.append(_err(orders.leave_line.number, orders.leave_line,
                           "'leave party' and 'join' in the same orders",
                           "to change parties, leave this turn and join the next"))
    if pk.get("guard") and orders.plan and not orders.leave_guard:
        step = orders.plan[0]
        errors.append(_err(step["line"], step.get("src"), f"on guard duty at "
                           f"{pk['guard']['castle']} he does not move",
                           "send 'leave guard' with the moves (breaking his word costs 12 VP)"))
    where = dict(pk["at"])
    aboard = where["where"] == "ship"
    ended = False
    put_in = False      # a sail into a port: going ashore there is part of it (edition 4)
    for step in orders.plan:
        line = step.get("src")
        do = step["do"]
        if do == "declare":
            if not pk.get("own_castle") or pk["own_castle"] not in state.get("castles", {}):
                errors.append(_err(step["line"], line, "a tournament is declared by a knight "
                                   "in his own castle, and he holds none"))
            continue              # carried out after the movement, wherever he then is
        after_port, put_in = put_in, False        # 'debark' right after 'sail PORT' only
        if ended and do not in ("seek", "confront") and not (after_port and do == "debark"):
            errors.append(_err(step["line"], line, "movement has already ended by this point "
                               "(boarding a ship or landing ends it)"))
            continue
        area = world.areas[where["area"]] if where["area"] else None
        if do == "move":
            if aboard:
                errors.append(_err(step["line"], line, f"aboard a ship in {where['area']}: "
                                   "sail or debark first"))
                continue
            if where.get("castle") and where["where"] in ("inside", "gate"):
                # a castle counter is left into the area it stands in
                if step["area"] != where["area"]:
                    errors.append(_err(step["line"], line, f"{where['castle']} is left into "
                                       f"{where['area']} first",
                                       f"move {where['area']}, {step['area']}"))
                    continue
                where = {"area": step["area"], "where": "area"}
                continue
            links = area.links()
            if step["area"] not in links["land"] and step["area"] not in links["river"]:
                near = sorted(set(links["land"]) | set(links["river"]))
                errors.append(_err(step["line"], line, f"{step['area']} is not next to "
                                   f"{where['area']}", f"next to it: {', '.join(near)}"))
                # the next step is judged from the area he meant to reach: one error a slip
                where = {"area": step["area"], "where": "area"}
                continue
            where = {"area": step["area"], "where": "area"}
        elif do == "to":
            if edition(state) >= GO_TO_BY_SHIP:     # by ship where no land route leads
                if voyage_route(world, where, step["area"]) is None:
                    errors.append(_err(step["line"], line, f"there is no way from "
                                       f"{where['area']} to {step['area']}, by land or by "
                                       "ship"))
                    continue
                ended = True
                continue
            if aboard:
                errors.append(_err(step["line"], line, "aboard a ship: debark first"))
                continue
            try:
                land_route(world, where["area"], step["area"])
            except CompanionError:
                errors.append(_err(step["line"], line, f"there is no way by land from "
                                   f"{where['area']} to {step['area']}",
                                   _by_sea_hint(world, where, step["area"])))
                continue
            ended = True
        elif do == "board":
            if aboard:
                errors.append(_err(step["line"], line, "already aboard a ship"))
            elif not area.port:
                errors.append(_err(step["line"], line, f"{where['area']} has no port"))
            aboard, ended = True, True
        elif do == "sail":
            if not aboard or where["where"] != "ship":
                errors.append(_err(step["line"], line, "not aboard a ship now (boarding ends "
                                   "the movement of the turn; sail next turn)"))
                continue
            if step["area"] not in area.links()["ship"]:
                errors.append(_err(step["line"], line, f"a ship cannot sail from "
                                   f"{where['area']} to {step['area']}",
                                   "from here: " + ", ".join(sorted(area.links()["ship"]))))
                continue
            where = {"area": step["area"], "where": "ship"}
            ended = True
            dest = world.areas[step.get("then") or step["area"]]   # (with Good Winds)
            put_in = dest.port and dest.kind in SITES and edition(state) >= ASHORE_IN_PORT
        elif do == "debark":
            if not aboard:
                errors.append(_err(step["line"], line, "not aboard a ship"))
            elif area.kind in LANDING_KINDS and edition(state) >= 1 and \
                    step.get("area") not in (None, where["area"]):
                errors.append(_err(step["line"], line, f"the ship lies off the coast of "
                                   f"{where['area']}: it lands there, not at {step['area']}",
                                   "send 'debark' alone, or sail to the sea first"))
            ended = True
        elif do == "go_inland":
            if where["where"] != "coast":
                errors.append(_err(step["line"], line, "'inland' is for a knight who landed on "
                                   "a coast"))
            where = {"area": where["area"], "where": "area"}
        elif do in ("stay", "enter"):
            ended = True
        elif do == "seek" and loose(step["target"]) is not None and not any(
                (t.get("find") or {}).get("what", "").lower().startswith(
                    step["target"].lower()) for t in pk["tasks"]):
            errors.append(_err(step["line"], line, f"'seek {step['target']}' seeks nothing "
                               "known by that name", f"write 'seek {loose(step['target'])}'"))
        elif do == "confront" and step["target"] == player:
            errors.append(_err(step["line"], line, f"a knight cannot {step['how']} himself",
                               "name another player's knight who stands where you are"))
    for item in orders.requests:
        meant = loose_whom(world, item["of"])
        if meant is not None:
            errors.append(_err(item["line"], item.get("src"),
                               f"'of {item['of']}' names nobody the request could be made of",
                               f"write 'of {meant}'"))
            continue
        hint = unknown_whom(world, state, player, item["of"])
        if hint is not None:
            errors.append(_err(item["line"], item.get("src"),
                               f"'of {item['of']}' names nobody the request could be made of",
                               hint))
            continue
        if item["request"] in ("castle",) and item["of"] not in (None, "lord"):
            errors.append(_err(item["line"], item.get("src"),
                               "a castle is requested of one's Lord only"))
        if item["request"] == "token" and item["of"] not in (None, "lady"):
            errors.append(_err(item["line"], item.get("src"),
                               "a Token is requested of one's Lady only"))
        if item["request"] == "grail":
            from companion.koc.engine import grail

            if not grail.active(state):
                errors.append(_err(item["line"], item.get("src"),
                                   "there is no Quest of the Holy Grail in this scenario"))
            elif item["of"] not in (None, "king", "arthur", "castle owner"):
                errors.append(_err(item["line"], item.get("src"),
                                   "leave to see the Holy Grail is asked of the King of its "
                                   "castle (in the Campaign, leave to seek it of King Arthur)",
                                   "request grail of king"))
    errors += unread_errors(orders)
    errors += adventure_order_errors(state, player, orders) + prayer_errors(state, player, orders)
    from companion.koc.engine import knaves

    for a in orders.answers:            # 'turn knave', 'repent', ... (engine/knaves.py)
        if a["key"] in knaves.KNAVE_ORDERS and a.get("src") is not None:
            problem = knaves.order_problem(world, state, player, a["key"])
            if problem:
                errors.append(_err(a["src"].number, a["src"], *problem))
    from companion.koc.engine import villainy

    for a in orders.answers:            # 'storm castle', 'loot shrine', ... (engine/villainy.py)
        if a["key"] in villainy.ORDER_KEYS and a.get("src") is not None:
            problem = villainy.order_problem(state, player, a["key"])
            if problem:
                errors.append(_err(a["src"].number, a["src"], *problem))
    if errors:
        raise OrdersRejected(errors, filename)


NOT_ORDERS = ("please", "pls", "plz", "thanks", "thank", "you", "thx", "ty", "cheers")
"""Words after an order that ask nothing ('pray for Bert to heal, please')."""


def unread_errors(orders) -> list:
    """Text after an order that the grammar leaves unread ('on fate: robs, avoid', 'request
    adventure, request dwarf', 'seek Merlin (in the forest)'): read as it always was, so a
    stored order replays alike, but refused when sent, as it would be lost. Punctuation and
    'please' or 'thanks' there are no order and pass."""
    from companion.engine.orders import OrderSyntaxError, next_order_hint
    from companion.koc.orders import KEYWORDS, SYNONYMS

    errors = []
    for line, token in getattr(orders, "unread", []):
        at = line.tokens.index(token)
        rest = line.tokens[at:]
        if all(t.kind == "punct" or t.key.strip(".!?,;") in NOT_ORDERS + ("",) for t in rest):
            continue
        if token.text == "(":
            hint = "a note for yourself goes after '#', which starts a comment"
        else:
            hint = next_order_hint(line.tokens, at, KEYWORDS + tuple(SYNONYMS) + ("ask",)) or (
                "one order (or answer) per line: put what follows on a line of its own")
        end = rest[-1].end
        errors.append(OrderSyntaxError(
            f"text after the order would not be read: '{line.text[token.col - 1:end - 1]}'",
            line, token.col, end - token.col, suggestion=hint))
    return errors


def loose(typed: str) -> str | None:
    """A free text of an order (whom a request is made of, whom to seek, what a prayer asks)
    as a player meant it when he ended it with a full stop or 'please', or began it with 'my'
    or 'the' ('of lord.', 'of my lord', 'seek Merlin please'); None when there is nothing to
    take off. The parser keeps such a text as written (a line accepted before keeps its
    meaning), and as written it names nobody: the check refuses it and says what to write."""
    from companion.engine.orders import END_PUNCTUATION, PLEASE

    words = typed.split()
    while words:
        last = words[-1].rstrip(END_PUNCTUATION)
        if last.lower() in PLEASE or not last:
            words.pop()
        elif last != words[-1]:
            words[-1] = last
        else:
            break
    while len(words) > 1 and words[0].lower() in ("my", "the", "your", "his", "her", "our"):
        words.pop(0)
    meant = " ".join(words)
    return meant if meant and meant != " ".join(typed.split()) else None


def loose_whom(world, whom: str | None) -> str | None:
    """What 'of <whom>' of a request meant ('lord' for 'lord.' or 'my lord'), when as written
    it names no one: no kind of person and no person of the game (a King, a knight, a Lady)
    whose name holds it."""
    from companion.engine.names import fold
    from companion.koc.orders import PERSONS

    meant = loose(whom) if whom else None
    if meant is None:
        return None
    typed = fold(whom)
    if typed in PERSONS or any(typed in fold(p.name) for group in (world.kings, world.knights,
                                                                   world.ladies)
                               for p in group):
        return None
    first = meant.split()[0].lower()
    return meant.lower() if first in PERSONS else meant


def known_names(world, state: dict, player: str) -> dict[str, str]:
    """Every name a person a request of ``player`` is made of could bear, folded, with the name
    as written: the cards' people, Merlin, Morgan and King Arthur, the kinds of person met
    without a card ('hermit', 'dwarf'), every player knight, the owners of the castles placed,
    and every name his own record holds (comrades, people met, his Lord and Lady, tasks). Only
    what he may know: a hint never names another knight's secret."""
    from companion.engine.names import fold

    names = {fold(p.name): p.name for group in (world.kings, world.knights, world.ladies)
             for p in group}
    names.update((fold(n), n) for n in ("Merlin", "Morgan Le Fay", "King Arthur", "hermit",
                                         "priest", "druid", "dwarf"))
    for rec in state["knights"].values():
        names.setdefault(fold(rec["name"]), rec["name"])
    for castle in (state.get("castles") or {}).values():
        owner = castle.get("owner") if isinstance(castle, dict) else None
        if isinstance(owner, str):
            names.setdefault(fold(owner), owner)
    todo = [state["knights"][player]]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "name" and isinstance(value, str):
                    names.setdefault(fold(value), value)
                elif isinstance(value, (dict, list)):
                    todo.append(value)
        elif isinstance(node, list):
            todo.extend(x for x in node if isinstance(x, (dict, list)))
    return names


def unknown_whom(world, state: dict, player: str, whom: str | None) -> str | None:
    """The hint for 'of <whom>' of a request that can match nobody when the turn runs (None
    when it names someone): the engine takes a kind of person ('lord', 'castle owner') as
    written, else anyone whose name holds the text, so 'of lord the' or 'of Sir Lancelott'
    would only end in 'nobody present can grant it'."""
    import difflib

    from companion.engine.names import fold
    from companion.koc.orders import PERSONS

    if not whom:
        return None
    typed = fold(whom)
    if typed in PERSONS:
        return None
    names = known_names(world, state, player)
    if any(typed in name for name in names):
        return None
    kind = next((p for p in PERSONS if typed.startswith(p + " ")), None)
    if kind is not None:
        return f"write 'of {kind}', or a name as the cards give it"
    close = difflib.get_close_matches(typed, sorted(names), n=1, cutoff=0.7)
    if close:
        return f"did you mean 'of {names[close[0]]}'?"
    return "write 'of' and a kind of person (" + ", ".join(PERSONS) + ") or a person's name"


def prayer_errors(state: dict, player: str, orders) -> list:
    """What a prayer line asks that can never be done: a second prayer in a turn, an effect no
    prayer has, praying for himself, for nobody he could know of, or for a comrade (nothing ails
    them that prayer cures). Whether the knight prayed for is there is seen when the turn runs."""
    from companion.koc.engine.requests import EFFECTS, prayer_target
    from companion.engine.names import fold

    errors = []
    if edition(state) < 1:
        return errors       # a game of edition 0 keeps the rules it began with
    for k, item in enumerate(orders.prayers):
        src = item.get("src")
        if k:
            errors.append(_err(item["line"], src, "one prayer a turn: this is the "
                               f"{'second' if k == 1 else 'next'} one",
                               "keep the prayer that matters most"))
            continue
        if item.get("to") and fold(item["to"]).strip() not in EFFECTS:
            meant = loose(item["to"])
            errors.append(_err(item["line"], src, f"a prayer cannot ask to '{item['to']}'",
                               f"write 'to {meant}'" if meant is not None and
                               fold(meant).strip() in EFFECTS else
                               "to heal, to lift (an enchantment), to cure madness; or leave "
                               "out 'to ...' and the prayer asks what is needed"))
        kind, found = prayer_target(state, player, item["for"])
        if kind == "self":
            errors.append(_err(item["line"], src, "a knight may not pray for himself",
                               "ask a Lady, a King, a Hermit or another knight: "
                               "'request heal of ...'"))
        elif kind == "comrade":
            errors.append(_err(item["line"], src, f"nothing ails {found['name']} that a "
                               "prayer could cure"))
        elif kind == "unknown":
            errors.append(_err(item["line"], src, f"no knight called '{item['for']}'",
                               f"did you mean {' or '.join(repr(n) for n in found)}?" if found
                               else "name a knight (his name or his player's), 'the relative' "
                                    "or a bound Mad Knight in your party"))
    return errors


def adventure_order_errors(state: dict, player: str, orders) -> list:
    """'share adventure' and 'abandon adventure': he must hold the adventure; it must be one
    that may be shared (or abandoned), the knights invited others of this game."""
    from companion.koc.engine import adventures

    pk = state["knights"][player]
    errors = []
    for item in getattr(orders, "adventure_orders", []):
        src = item.get("src")
        task = adventures.held(pk, item["which"])
        if task is None:
            mine = [f"{t['adventure'].get('marker')} ({t['adventure']['id']})"
                    for t in pk["tasks"] if adventures.running(t)]
            errors.append(_err(item["line"], src, f"{pk['name']} holds no adventure "
                               f"'{item['which']}'",
                               ("his adventures: " + ", ".join(mine)) if mine else
                               "he holds no adventure now"))
            continue
        if item["do"] == "abandon":
            if task.get("prophecy"):
                errors.append(_err(item["line"], src, f"adventure {task['adventure']['id']} "
                                   "is a Prophecy: it must be attempted, it cannot be "
                                   "abandoned"))
            continue
        why = adventures.unshareable(task)
        if why:
            errors.append(_err(item["line"], src, why))
        elif task["status"] != "active":
            errors.append(_err(item["line"], src, "he has reached its site already: too late "
                               "to invite anybody"))
        for other in item["with"]:
            if other == player:
                errors.append(_err(item["line"], src, "a knight does not invite himself",
                                   "name the other players to invite"))
            elif state["knights"][other]["slain"]:
                errors.append(_err(item["line"], src, f"{other}'s knight has fallen"))
    return errors


def _by_sea_hint(world, where: dict, goal: str) -> str:
    """The ship orders for a place no land route leads to (a game of rules edition 3 or
    earlier, whose 'go to' keeps to land), with the port the most direct route sails from."""
    route = voyage_route(world, where, goal)
    port = next((st.area for st in route.steps if st.how == "board"), None) if route else None
    if route is None:
        return "no route by land or by ship leads there"
    first = f"ride to the port of {port} ('go to {port}'), " if port and port != where["area"] \
        else ""
    hows = [st.how for st in route.steps]
    sails = ", ".join(f"'sail {st.area}'" for st in route.steps if st.how in ("sail", "coast"))
    return (f"{goal} lies over the sea: {first}" + ("'board', " if "board" in hows else "")
            + f"then one a turn {sails}, 'debark'"
            + (", 'inland'" if "land_from_coast" in hows else "")
            + f" and 'go to {goal}'")


def _go_to_lines(world, state: dict, pk: dict) -> list[str]:
    """'go to' each destination of his tasks that a route leads to from where he is: by land
    alone before rules edition 4, by land or ship after (movement.GO_TO_BY_SHIP)."""
    from companion.koc.routes import land_route

    at = pk["at"]
    later = edition(state) >= GO_TO_BY_SHIP
    out = []
    for name in sorted({t["dest"] for t in pk["tasks"]
                        if t["status"] == "active" and t.get("dest")}):
        if later:
            if voyage_route(world, at, name) is not None:
                out.append(f"go to {name}")
            continue
        try:
            land_route(world, at["area"], name)
        except CompanionError:
            continue                    # an island or overseas: by ship, step by step
        out.append(f"go to {name}")
    return out


def acknowledge(world, state: dict, player: str, orders) -> list[str]:
    out = []
    names = {"move": "move into {area}", "to": "go by the most direct land route to {area}",
             "stay": "stay where he is", "enter": "try the castle gate again",
             "board": "board a ship", "sail": "sail to {area}", "debark": "debark",
             "go_inland": "go inland from the coast", "seek": "seek {target}",
             "confront": "{how} {target} (if found here)",
             "declare": "declare a tournament at his castle (if he is inside it after moving)"}
    if edition(state) >= GO_TO_BY_SHIP:
        names["to"] = "go by the most direct route to {area} (by ship where no land route leads)"
    stakes = {"lady": " for the service of his Lady"}
    for n, step in enumerate(orders.plan, start=1):
        text = names[step["do"]].format(**{k: v for k, v in step.items() if k != "src"})
        if step["do"] == "sail" and step.get("then"):
            text += f" (then {step['then']} with Good Winds)"
        if step["do"] == "debark" and step.get("area"):
            text += f" on the coast of {step['area']}"
        if step.get("stake"):
            text += stakes[step["stake"]]
        out.append(f"step {n}: {text}")
    if not orders.plan:
        out.append("movement: none ordered (he follows his first obligation, if any, or stays)")
    # requests come after the movement (the turn's phases): say where they will be made
    moves = [step for step in orders.plan if step["do"] in ("move", "to")]
    ends = moves[-1]["area"] if moves else None
    for r in orders.requests:
        if r["request"] == "grail":
            out.append("request: grail (in the Campaign, of King Arthur at Camelot or met on "
                       "the road, his leave to seek the Holy Grail; elsewhere, leave of the "
                       "King of the castle where it "
                       "rests to see it, then try to see and grasp it)")
            continue
        out.append(f"request: {r['request']}" + (f" of {r['of']}" if r["of"] else
                                                  " (of whoever can grant it)")
                   + (f", made where his moves end ({ends}), of whom he meets there"
                      if ends else ""))
    for p in orders.prayers:
        from companion.koc.engine.requests import prayer_target

        kind, found = prayer_target(state, player, p["for"])
        whom = state["knights"][found]["name"] if kind == "pk" else p["for"]
        out.append(f"prayer: for {whom}" + (f" to {p['to']}" if p["to"] else ""))
    if orders.join:
        out.append(f"join the party of {orders.join} (if he agrees and you stand together)")
    if orders.leave:
        out.append("leave the party and ride alone")
    if orders.leave_guard:
        out.append("leave guard duty, breaking his word (12 VP)")
    for item in getattr(orders, "adventure_orders", []):
        if item["do"] == "share":
            out.append(f"invite {', '.join(item['with'])} to share adventure {item['which']} "
                       "(each must agree, and be with him at its site)")
        else:
            out.append(f"abandon adventure {item['which']} (no penalty)")
    from companion.koc.engine.party import leader_of

    leader = leader_of(state, player)
    if leader not in (None, player) and not orders.leave and orders.plan:
        out.append(f"note: you ride in {leader}'s party, who leads it; your moves are used only "
                   "if you leave it ('leave party')")
    for a in orders.answers:
        text = a["text"]            # an 'answer ...' line is echoed as one ('turn knave' too)
        out.append("this turn: " + ("answer " + text[3:] if text.startswith("on ") else text))
    earlier = [line["text"] for line in state["knights"][player].get("standing", [])]
    if orders.standing is None:
        out.append(f"standing answers unchanged ({len(earlier)} in force)")
        return out
    if not orders.standing:
        out.append("standing answers: none (defaults apply)")
    for n, line in enumerate(orders.standing, start=1):
        out.append(f"standing answer {n}: {line['text']}")
    dropped = [text for text in earlier if text not in {x["text"] for x in orders.standing}]
    if dropped:     # 'on ...' lines replace the whole list: say what no longer holds
        out.append("no longer in force (the 'on' lines of these orders replace all earlier "
                   "standing answers; send them again to keep them): " + "; ".join(dropped))
    return out


def legal_lines(world, state: dict, player: str) -> list[str]:
    """Order lines that are legal for the player now (movement from where he stands, the
    requests that can be made of his company, the answers to a pending question)."""
    if state["koc"]["over"]:
        return []
    pk = state["knights"][player]
    at = pk["at"]
    out: list[str] = []
    pending = state["pending"].get(player)
    if pending:
        q = pending["question"]
        return [f"answer {q['key']}: {option}" for option in q["options"]]
    if at["where"] == "prison":
        # nothing to decide in a cell (the prison phase is rolled), but with missing=wait his
        # turn still waits for orders: 'stay' lets it run (the options were empty, and a
        # prisoner's player was asked for orders no line of his report offered)
        return ["stay"]
    if pk.get("guard"):
        out.append("leave guard")
    area = world.areas[at["area"]]
    if at["where"] == "ship":
        out += [f"sail {a}" for a in sorted(area.links()["ship"])]
        if area.port or area.kind == "river" or (area.kind in LANDING_KINDS
                                                  and edition(state) >= 1):
            out.append("debark")            # in port, on the river, or on the coast it lies off
        if area.kind == "sea":
            coasts = sorted(a.name for a in world.areas.values() if at["area"] in a.coast)
            out += [f"debark {c}" for c in coasts]
        out.append("stay")
        if edition(state) >= GO_TO_BY_SHIP:
            out += _go_to_lines(world, state, pk)
        from companion.koc.engine import villainy

        return out + villainy.legal_lines(world, state, player)
    if at["where"] == "coast":
        return out + ["inland", "stay"] + (_go_to_lines(world, state, pk)
                                           if edition(state) >= GO_TO_BY_SHIP else [])
    links = area.links()
    if at.get("castle") and at["where"] in ("inside", "gate"):
        out.append(f"move {at['area']}")          # out of the castle counter first
    else:
        out += [f"move {a}" for a in sorted(set(links["land"]) | set(links["river"]))]
    if at["where"] == "gate":
        out.append("enter")
    if area.port and (area.kind != "castle" or at["where"] == "inside"):
        out.append("board")
    out.append("stay")
    out += _go_to_lines(world, state, pk)
    if pk["lord"] and pk["at"]["area"] == pk["lord"].get("castle"):
        out += ["request men at arms of lord", "request dwarf of lord", "request adventure of lord"]
    if pk["lady"] and pk["at"]["area"] == pk["lady"].get("castle"):
        out.append("request token of lady")
    from companion.koc.engine.requests import arthur_task_undone

    # not to one who serves him already, nor while a task he set is undone (w16)
    if at["area"] == "Camelot Castle" and at["where"] == "inside" and not pk["arthurian"] \
            and not arthur_task_undone(pk):
        out.append("request service of arthur")
    from companion.koc.engine import tournaments

    if tournaments.can_declare(state, player) is None:
        out.append("declare tournament")
    if any(r["kind"] == "pk" and player in r.get("invited", {}) and r["invited"][player] is None
           for r in tournaments.pending(state)):
        out += ["attend tournament", "decline tournament"]
    from companion.koc.engine import adventures

    for task in pk["tasks"]:
        if not adventures.running(task):
            continue
        marker = task["adventure"]["marker"]
        if task["status"] == "active" and adventures.unshareable(task) is None:
            for other in state["koc"]["order"]:
                if other != player and not state["knights"][other]["slain"]:
                    out.append(f"share adventure {marker} with {other}")
        if not task.get("prophecy"):
            out.append(f"abandon adventure {marker}")
    from companion.koc.engine.party import leader_of, together

    if leader_of(state, player) is not None:
        out.append("leave party")
    for other in state["koc"]["order"]:
        rec = state["knights"][other]
        if other == player or rec["slain"] or rec["at"] != at:
            continue
        if leader_of(state, player) is None and leader_of(state, other) in (None, other):
            out.append(f"join {other}")
        if not together(state, player, other):
            if rec["name"] not in pk["challenged"]:      # 'for lady' whether or not he serves
                # one: his Lady is his journal's (private); without one it is a plain challenge
                out += [f"challenge {other}", f"challenge {other} for lady"]
            # knights who parted lately must be apart a whole game turn first (rivals.py)
            parted = [pk.get("parted", {}).get(other), rec.get("parted", {}).get(player)]
            if all(t is None or state["koc"]["turn"] - t >= 2 for t in parted):
                out.append(f"attack {other}")
    from companion.koc.engine import grail

    out += [line for line in grail.legal_lines(state, player) if line not in out]
    from companion.koc.engine import knaves

    out += knaves.legal_lines(world, state, player)
    from companion.koc.engine import villainy

    out += villainy.legal_lines(world, state, player)
    return out


def question_help() -> list[str]:
    """One line per question the game may ask: its answers and default."""
    from companion.koc.engine.questions import load_all

    load_all()
    return [f"{spec.key}: {' | '.join(spec.answers)} (default {spec.default}) - {spec.meaning}"
            for spec in sorted(CATALOGUE.values(), key=lambda s: s.key)]
