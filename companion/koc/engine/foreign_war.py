"""Foreign War (optional rule ``foreign_war``): answering his Lord's summons, a knight may be
called to a war abroad, played as the lettered lines A-Z of ``data/war.toml``.

The war is an explicit state machine kept on the knight's record as ``war``::

    {"lord": name, "stage": "travel" | "line" | "returning", "line": "A".."Z",
     "since": turn, "dest": end kind while returning, "king": card record (lines E, L, U),
     "lady": card record (lines I, M, N), "held_gear": gear kept by his captors,
     "left_behind": {"dwarf": ..., "mascot": ...}}

* stage ``travel``: the turn of preparation and travel; at its end he is re-equipped and healed,
  and the next turn starts at line A;
* stage ``line``: each of his turns resolves ``line``; an exit "now" goes on at once in the same
  turn, an exit "next_turn" stores the next line for his next turn;
* stage ``returning``: the war is over; he spends this turn travelling and is put back on the
  map at its end (his Lord's castle, a coast, a King's castle).

While at war the knight's marker is off the map: ``at.where`` is ``"war"`` (nobody meets him),
he is alone, and his turn is only the Luck-of-the-Day, the war, and healing (turn.py). The
choices are questions (``war_*``) with documented defaults (docs/koc-engine.md).
"""
from __future__ import annotations

from companion.koc.engine import knight as kn
from companion.koc.engine.combat import Combat, knight_slain, npk
from companion.koc.engine.questions import Spec, register
from companion.koc.engine.session import Question, Session

register(
    Spec("war_path", "Foreign War line A: seek glory in battle (line B) or keep out of "
         "danger (line C)", ("seek glory", "avoid danger"), "seek glory", tags=("war",)),
    Spec("war_flee", "Foreign War line E: fight beside the beleaguered King or flee",
         ("fight", "flee"), "fight", tags=("war", "arthurian")),
    Spec("war_coward", "Foreign War line F: fight the knight who calls you a coward, or let "
         "it pass (12 VP)", ("fight", "let it pass"), "fight", tags=("war",)),
    Spec("war_princess", "Foreign War line I: seek out the visiting princess",
         ("meet", "ignore"), "meet", tags=("war", "enchantress")),
    Spec("war_lady", "Foreign War line N: enter the service of the princess in love with you "
         "(default: yes when he serves no Lady)", ("serve", "decline"), "serve",
         tags=("war", "lady")),
    Spec("war_treason", "Foreign War line S: freedom for betraying your Lord",
         ("refuse", "agree", "pretend"), "refuse", tags=("war",)),
    Spec("war_gratitude", "Foreign War line U: a roll on the Prize table or the King's "
         "service", ("prize", "serve"), "prize", tags=("war",)),
    Spec("war_daughter", "Foreign War line W: enter the service of your captor's daughter "
         "(default: yes when he serves no Lady)", ("serve", "decline"), "serve",
         tags=("war", "lady")),
    Spec("war_coast", "Foreign War line V: the coast he is put ashore on (a land area with a "
         "coast), or random", ("random",), "random", tags=("war",), places="coast"),
)

PRIZE_ITEMS = {"magic_shield": {"absorbs": 2}, "magic_sword": {"bonus": 4},
               "magic_talisman": {"bonus": 2}}


def turn_no(s: Session) -> int:
    return s.game.state["koc"]["turn"]


# ============================================================================== the start
def summons_answered(s: Session) -> None:
    """The knight has answered his Lord's summons: under the rule, a die of 1-3 means war."""
    pk = s.pk
    if not s.options_rule("foreign_war") or not pk["lord"] or pk.get("war"):
        return
    result = s.chart("war_muster", purpose="is his Lord mustering for war")
    if result.entry.key != "war":
        return
    begin(s)


def begin(s: Session) -> None:
    """The war begins: next turn he prepares and travels, alone, off the map."""
    from companion.koc.engine import party

    pk = s.pk
    party.drop(s.game, s.player, "riding to war")
    left = {"dwarf": pk["dwarf"], "mascot": pk["mascot"]}
    gone = [c["name"] for c in pk["comrades"]] + [m["name"] for m in pk["men_at_arms"]]
    for c in pk["comrades"]:
        s.game.discard_card(c)
    for m in pk["men_at_arms"]:
        s.game.discard("knights", m["name"])
    pk["comrades"], pk["men_at_arms"] = [], []
    pk["dwarf"], pk["mascot"] = None, None
    pk["war"] = {"lord": pk["lord"]["name"], "stage": "travel", "line": "A",
                 "since": turn_no(s), "left_behind": left}
    pk["at"] = {"area": pk["at"]["area"], "where": "war"}
    s.note(f"{pk['lord']['name']} musters his knights for a war abroad: {pk['name']} rides "
           "with him, alone" + (f" ({', '.join(gone)} part from him)" if gone else "")
           + (" and leaves " + " and ".join(w for w, k in (("his Dwarf", "dwarf"),
                                                           ("his Mascot", "mascot")) if left[k])
              + " at his Lord's castle" if left["dwarf"] or left["mascot"] else "") + ".")


# ============================================================================== a turn at war
def war_turn(s: Session) -> None:
    """The knight's turn while at war (instead of movement, retention and requests)."""
    pk = s.pk
    war = pk["war"]
    stage = war["stage"]
    if stage == "travel":
        s.note(f"{pk['name']} prepares and travels to the war.")
        pk["gear"] = {g: True for g in kn.GEAR}
        pk["on_foot"] = False
        pk["wounds"] = 0
        if pk["poison"]:
            kn.cure_poison(pk)
        s.note(f"{pk['name']} reaches the war, re-equipped and healed.")
        war["stage"], war["line"] = "line", "A"
        return
    if stage == "returning":
        come_back(s)
        return
    line = war["line"]
    for _ in range(40):         # the lines chained "immediately" in one turn
        nxt = resolve(s, line)
        if pk["slain"] or "war" not in pk or pk["war"]["stage"] != "line":
            return
        if nxt is None:
            return
        line = nxt


def step(s: Session, letter: str):
    return s.world.war_steps[letter]


def go(s: Session, letter: str, *, die: int | None = None, on: str | None = None) -> str | None:
    """Follow the exit of a line; returns the line to resolve now, or None (stored for next
    turn, or the war is over)."""
    pk = s.pk
    ex = step(s, letter).exit_for(die, on)
    if ex.end:
        end(s, ex.end)
        return None
    if ex.when == "now":
        s.note(f"War: {pk['name']} goes on at once to line {ex.next}.")
        pk["war"]["line"] = ex.next
        return ex.next
    pk["war"]["line"] = ex.next
    s.note(f"War: next turn {pk['name']} is at line {ex.next}.")
    return None


def resolve(s: Session, letter: str) -> str | None:
    pk = s.pk
    war = pk["war"]
    st = step(s, letter)
    s.note(f"War, line {letter}: {st.label}.")
    handler = LINES[letter]
    return handler(s, war)


def d6(s: Session, letter: str) -> int:
    return s.d6(f"war line {letter}")


def count(s: Session, top: int, letter: str) -> int:
    return s.dice(1, f"war line {letter}: how many", sides=top)[0]


# -- drawing -------------------------------------------------------------------------------
def draw_knights(s: Session, n: int, why: str, *, not_arthurian: bool = False) -> list[dict]:
    accept = (lambda c: not c.arthurian) if not_arthurian else None
    return [s.game.draw("knights", why, accept=accept) for _ in range(n)]


def draw_lady(s: Session, why: str) -> dict:
    return s.game.draw("ladies", why, accept=lambda c: not c.enchantress)


# -- fights --------------------------------------------------------------------------------
def war_fight(s: Session, foes: list[dict], *, allies: list[dict] = (), why: str) -> bool:
    """A fight of the war: the knight (with ``allies`` fighting for him as comrades do) against
    ``foes`` (card records). No Knight's Fate either way: the foes he strikes down give their
    usual CP (their WL) and 6 VP (unless he fought unchivalrously) and leave play; his defeat
    is his capture (the caller's next line). Returns whether his side won."""
    pk = s.pk
    fighters = [npk(f) for f in foes]
    saved = pk["comrades"]
    pk["comrades"] = [dict(a, joined=turn_no(s)) for a in allies]
    try:
        c = Combat(s, fighters, attacker="foe", alone=not allies, tags=("war",))
        result = c.run()
    finally:
        pk["comrades"] = saved
    for f in result.defeated:
        if f.get("defeated_by") == "party" or c.unchivalrous:
            continue
        s.gain_cp(f["wl"], f"defeating {f['name']} in the war")
        s.gain_vp(6, f"defeating {f['name']} in the war")
    for rec in list(foes) + list(allies):
        s.game.discard_card(rec)
    if c.unchivalrous and pk["arthurian"]:
        s.gain_vp(-6, "an Arthurian knight fighting unchivalrously")
    if not result.won:
        s.gain_cp(6, "the lesson of defeat")
        s.note(f"{pk['name']} is beaten ({why}).")
    else:
        s.note(f"{pk['name']} wins ({why}).")
    return result.won


# -- prizes and captivity ------------------------------------------------------------------
def prize(s: Session) -> str:
    """One roll on the Prize table: an item that works in combat (combat.py, knight.py)."""
    pk = s.pk
    result = s.chart("war_prizes", purpose="a prize of war")
    key = result.entry.key
    item = {"key": key, **PRIZE_ITEMS.get(key, {}), "prize": "war"}
    if key == "valiant_charger":
        item["wl"] = 3 + s.dice(1, "the Valiant Charger's wound level", sides=3)[0]
        pk["gear"]["horse"] = True
        pk["on_foot"] = False
    pk["items"].append(item)
    s.note(f"{pk['name']} wins a prize of war: {result.entry.label}"
           + (f" (WL {item['wl']})" if "wl" in item else "") + ".")
    return key


def captured(s: Session) -> None:
    """Taken prisoner: his captors keep his equipment (line Z gives it back)."""
    pk, war = s.pk, s.pk["war"]
    if "held_gear" not in war:
        war["held_gear"] = dict(pk["gear"])
        pk["gear"] = {g: False for g in kn.GEAR}
        s.note(f"{pk['name']}'s captors take his equipment.")


def freed(s: Session) -> None:
    pk, war = s.pk, s.pk["war"]
    held = war.pop("held_gear", None)
    if held is not None:
        pk["gear"] = held
        pk["on_foot"] = False


# ============================================================================== the lines
def line_a(s, war):
    q = Question("war_path", "The war rages: seek glory in battle, or keep out of danger as "
                 "long as you can?", ["seek glory", "avoid danger"], "seek glory", tags=("war",))
    return go(s, "A", on="seek_glory" if s.ask(q) == "seek glory" else "avoid_danger")


def line_b(s, war):
    return go(s, "B", die=d6(s, "B"))


def line_c(s, war):
    return go(s, "C", die=d6(s, "C"))


def _enemy_knights(s, letter: str, purpose: str, intro: str, why: str):
    """Lines D and G: 1-3 enemy knights drawn and fought; beaten, he is taken (line K)."""
    foes = draw_knights(s, count(s, 3, letter), purpose)
    s.note(f"{intro}: " + ", ".join(f["name"] for f in foes) + ".")
    won = war_fight(s, foes, why=why)
    if not won:
        captured(s)
    return go(s, letter, on="win" if won else "lose")


def line_d(s, war):
    return _enemy_knights(s, "D", "enemy knights in battle", "Enemy knights",
                          "the enemy knights")


def line_e(s, war):
    king = s.game.draw("kings", "a friendly King beleaguered")
    arthur = king["name"] == "King Arthur"
    foes = draw_knights(s, count(s, 6, "E"), "enemy knights round the King",
                        not_arthurian=arthur)
    war["king"] = king
    s.note(f"{king['name']} is beset by " + ", ".join(f["name"] for f in foes) + ".")
    q = Question("war_flee", f"Fight beside {king['name']}, or flee?", ["fight", "flee"],
                 "fight", tags=("war",) + (("arthurian",) if arthur else ()))
    if s.ask(q) == "flee":
        s.note(f"{s.pk['name']} flees.")
        for f in foes:
            s.game.discard_card(f)
        return go(s, "E", on="flee")
    ally = dict(king)
    won = war_fight(s, foes, allies=[ally], why=f"beside {king['name']}")
    if not won:
        captured(s)
    return go(s, "E", on="win" if won else "lose")


def line_f(s, war):
    pk = s.pk
    accuser = draw_knights(s, 1, "a knight calls him a coward")[0]
    s.note(f"{accuser['name']} calls {pk['name']} a coward.")
    q = Question("war_coward", f"Fight {accuser['name']} to clear your name, or let it pass "
                 "(12 VP)?", ["fight", "let it pass"], "fight", tags=("war",))
    if s.ask(q) == "fight":
        if war_fight(s, [accuser], why=f"against {accuser['name']}, his accuser"):
            return go(s, "F")
    else:
        s.game.discard_card(accuser)
    s.gain_vp(-12, "branded a coward in the war")
    return go(s, "F")


def line_g(s, war):
    return _enemy_knights(s, "G", "enemy knights in ambush", "Ambush", "the ambush")


def line_h(s, war):
    s.note(f"{s.pk['name']} keeps out of the fighting until his Lord leads him home.")
    return go(s, "H")


def line_i(s, war):
    lady = draw_lady(s, "a princess visits her father")
    war["lady"] = lady
    s.note(f"{s.pk['name']} notices {lady['name']}, a princess visiting her father.")
    q = Question("war_princess", f"Seek out {lady['name']}?", ["meet", "ignore"], "meet",
                 tags=("war",))
    if s.ask(q) == "ignore":
        return go(s, "I", on="ignore")
    return go(s, "I", on="meet", die=d6(s, "I"))


def line_j(s, war):
    return go(s, "J", die=d6(s, "J"))


def line_k(s, war):
    captured(s)
    s.note(f"{s.pk['name']} is a prisoner of the enemy.")
    return go(s, "K", die=d6(s, "K"))


def line_l(s, war):
    pk = s.pk
    king = war.get("king") or {"name": "the King"}
    names = pk.setdefault("friendly_persons", [])
    if king["name"] not in names:
        names.append(king["name"])
    s.note(f"{king['name']} is {pk['name']}'s friend for ever.")
    return go(s, "L", die=d6(s, "L"))


def line_m(s, war):
    lady = war.get("lady") or {"name": "The princess"}
    s.note(f"{lady['name']} scorns {s.pk['name']} for his unmarked armour; her father wonders "
           "too.")
    return go(s, "M")


def line_n(s, war):
    from companion.koc.engine import service

    pk = s.pk
    lady = war.get("lady") or draw_lady(s, "a princess")
    s.note(f"{lady['name']} falls in love with {pk['name']}.")
    q = Question("war_lady", f"Enter the service of {lady['name']}?", ["serve", "decline"],
                 "decline" if pk["lady"] or pk["enchantress"] else "serve", tags=("war", "lady"))
    if s.ask(q) == "serve" and not pk["enchantress"]:
        die = d6(s, "N")
        service.enter_lady_service(s, lady)
        return go(s, "N", on="serve", die=die)
    s.note(f"{lady['name']} is angry.")
    return go(s, "N", on="decline", die=d6(s, "N"))


def line_o(s, war):
    s.note(f"{s.pk['name']} does his duty, no more.")
    return go(s, "O")


def line_p(s, war):
    prize(s)
    return go(s, "P")


def line_q(s, war):
    s.note(f"The enemy is put to flight; {war['lord']} rewards {s.pk['name']}.")
    prize(s)
    return go(s, "Q")


def line_r(s, war):
    pk = s.pk
    a, b = s.dice(2, "war line R: the prison's toll")
    loss = a + b
    s.note(f"Bad food and worse treatment in the enemy's prison: {pk['name']} loses {loss} CP.")
    if pk["cp"] - loss < kn.CP_MIN:
        s.note(f"{pk['name']} dies in prison.")
        knight_slain(s)
        return None
    s.gain_cp(-loss, "the enemy's prison")
    return go(s, "R")


def line_s(s, war):
    q = Question("war_treason", f"The enemy offers freedom if you betray {war['lord']}: refuse, "
                 "agree, or pretend to agree and watch for a chance to escape?",
                 ["refuse", "agree", "pretend"], "refuse", tags=("war",))
    return go(s, "S", on=s.ask(q))


def line_t(s, war):
    s.note(f"{war['lord']} pays {s.pk['name']}'s ransom.")
    freed(s)
    return go(s, "T", die=d6(s, "T"))


def line_u(s, war):
    pk = s.pk
    king = war.get("king") or {"name": "the King"}
    if king["name"] == "King Arthur":
        pk["arthur"]["favour"] = True
        pk["arthur"]["permanent"] = True
        s.note(f"King Arthur gives {pk['name']} his Favour for ever.")
        prize(s)
        end(s, "home")
        return None
    q = Question("war_gratitude", f"{king['name']} is grateful: a roll on the Prize table, or "
                 "his service (and passage to his castle)?", ["prize", "serve"], "prize",
                 tags=("war",))
    if s.ask(q) == "serve":
        from companion.koc.engine import service

        if service.change_lord(s, king):
            war["lord"] = king["name"]
            return go(s, "U", on="serve")
    prize(s)
    return go(s, "U", on="prize")


def line_v(s, war):
    from companion.koc.engine import service

    pk = s.pk
    lord = pk["lord"]
    s.note(f"{pk['name']} buys his freedom with his honour.")
    if lord:
        kingdom = None
        castle = service.lord_castle(s)
        if castle and castle in s.world.areas:
            kingdom = s.world.areas[castle].kingdom
        if lord.get("kind") == "king":
            kingdom = next((k.kingdom for k in s.world.kings if k.name == lord["name"]),
                           kingdom)
        service.abandon_lord(s, "cast out for treason", vp=0, summons_vp=0)
        if kingdom and kingdom not in pk["exiles"]:
            pk["exiles"].append(kingdom)
        if lord["name"] not in pk["enemies"]:
            pk["enemies"].append(lord["name"])
        s.note(f"{lord['name']} casts {pk['name']} out of his service, exiles him"
               + (f" from {kingdom}" if kingdom else "") + " and declares him his enemy.")
    freed(s)
    pk["gear"] = {g: True for g in kn.GEAR}
    return go(s, "V")


def line_w(s, war):
    from companion.koc.engine import service

    pk = s.pk
    lady = draw_lady(s, "the captor's daughter")
    s.note(f"{lady['name']}, daughter of {pk['name']}'s captor, has lost her heart to him.")
    can = not pk["enchantress"]
    q = Question("war_daughter", f"Enter the service of {lady['name']} (she brings the key, "
                 "a shield and a sword)?", ["serve", "decline"],
                 "serve" if can and not pk["lady"] else "decline", tags=("war", "lady"))
    if not can or s.ask(q) == "decline":
        s.game.discard_card(lady)
        return go(s, "W", on="decline")
    lady = dict(lady, castle=f"{lady['name']}'s castle")
    service.enter_lady_service(s, lady)
    tasks_place(s, lady["castle"], lady["name"])
    war["lady"] = lady
    pk["gear"] = {"horse": False, "shield": True, "lance": False, "sword": True}
    pk["on_foot"] = True
    war.pop("held_gear", None)          # the rest stays with his captors
    guard = draw_knights(s, 1, "the guard down the hall")[0]
    guard = dict(guard, gear={"horse": False, "shield": True, "lance": False, "sword": True},
                 mounted=False)
    s.note(f"The guard down the hall is {guard['name']}.")
    if war_fight(s, [guard], why="the guard"):
        return go(s, "W", on="serve_and_win")
    captured(s)
    return go(s, "W", on="serve_and_lose")


def tasks_place(s: Session, castle: str, owner: str) -> None:
    from companion.koc.engine import tasks

    placed = s.game.state.setdefault("castles", {})
    if castle in placed:
        placed[castle]["area"] = "Road to Rome"
    else:
        tasks.place_castle(s, castle, owner, "lady", area="Road to Rome")


def line_x(s, war):
    pk = s.pk
    first = d6(s, "X")
    if first <= 3:
        s.note(f"A poisoned arrow strikes {pk['name']}: he loses 20 CP.")
        if pk["cp"] - 20 < kn.CP_MIN:
            s.note(f"{pk['name']} dies of the poisoned arrow.")
            knight_slain(s)
            return None
        s.gain_cp(-20, "a poisoned arrow")
    else:
        s.gain_cp(20, "brave deeds in the war")
        s.gain_vp(10, "brave deeds in the war")
    return go(s, "X", die=d6(s, "X"))


def line_y(s, war):
    friends = draw_knights(s, count(s, 6, "Y"), "the knights he leads")
    king = s.game.draw("kings", "the enemy commander")
    foes = draw_knights(s, count(s, 6, "Y"), "enemy knights in their camp")
    s.note(f"{s.pk['name']} bursts into the enemy camp leading "
           + ", ".join(f["name"] for f in friends) + f"; they meet {king['name']} and "
           + ", ".join(f["name"] for f in foes) + ".")
    won = war_fight(s, [king, *foes], allies=friends, why="the raid on the enemy camp")
    if not won:
        captured(s)
    return go(s, "Y", on="win" if won else "lose")


def line_z(s, war):
    pk = s.pk
    freed(s)
    s.note(f"{pk['name']} recovers his equipment and bolts from the camp.")
    die = d6(s, "Z")
    if die >= 5:
        s.note("He wins free.")
        return go(s, "Z", die=die)
    foes = draw_knights(s, die, "riders in pursuit")
    s.note("Pursuers: " + ", ".join(f["name"] for f in foes) + ".")
    if war_fight(s, foes, why="the pursuit"):
        return go(s, "Z", die=die, on="win")
    s.note(f"The pursuers cut {pk['name']} down.")
    knight_slain(s)
    return None


LINES = {"A": line_a, "B": line_b, "C": line_c, "D": line_d, "E": line_e, "F": line_f,
         "G": line_g, "H": line_h, "I": line_i, "J": line_j, "K": line_k, "L": line_l,
         "M": line_m, "N": line_n, "O": line_o, "P": line_p, "Q": line_q, "R": line_r,
         "S": line_s, "T": line_t, "U": line_u, "V": line_v, "W": line_w, "X": line_x,
         "Y": line_y, "Z": line_z}


# ============================================================================== the end
def end(s: Session, how: str) -> None:
    """The war is over for him: ``home`` (his Lord's castle), ``coast`` (line V),
    ``king_castle`` (line U) after a turn of travel; ``lady_castle`` (line W) at once, so he
    is back on the map next turn; ``slain``."""
    pk = s.pk
    war = pk["war"]
    if how == "slain":
        knight_slain(s)
        return
    freed(s)
    if how == "lady_castle":
        war["dest"] = how
        come_back(s)
        return
    war["stage"], war["dest"] = "returning", how
    s.note(f"The war is over for {pk['name']}: he spends next turn travelling back.")


def come_back(s: Session) -> None:
    """Back on the map (the turn of travel is spent)."""
    from companion.koc.engine import service, tasks

    pk = s.pk
    war = pk.pop("war")
    dest = war.get("dest", "home")
    left = war.get("left_behind") or {}
    if dest == "lady_castle":
        castle = (war.get("lady") or {}).get("castle")
        area = tasks.castle_area(s, castle) if castle else "Road to Rome"
        pk["at"] = {"area": area, "where": "inside"}
        if castle:
            pk["at"]["castle"] = castle
    elif dest == "coast":
        area = choose_coast(s)
        pk["at"] = {"area": area, "where": "coast"}
    else:
        castle = service.lord_castle(s) if pk["lord"] else None
        area = tasks.castle_area(s, castle) if castle else None
        if area is None:
            area = pk["at"]["area"]
        pk["at"] = {"area": area, "where": "inside"}
        if castle and castle != area:
            pk["at"]["castle"] = castle
        if dest == "home" and war.get("lord") == (pk["lord"] or {}).get("name"):
            if left.get("dwarf") and not pk["dwarf"]:
                pk["dwarf"] = left["dwarf"]
            if left.get("mascot") and not pk["mascot"]:
                pk["mascot"] = left["mascot"]
            left = {}
    if left.get("dwarf") or left.get("mascot"):
        s.note(f"The Dwarf and Mascot {pk['name']} left behind are lost to him.")
    where = {"inside": "inside", "coast": "on the coast of"}[pk["at"]["where"]]
    place = pk["at"].get("castle") or pk["at"]["area"]
    s.note(f"{pk['name']} is back from the war, {where} {place}.")


def coasts(world) -> list[str]:
    """The land areas with a coast, where a ship may put a knight ashore."""
    return sorted(a.name for a in world.areas.values()
                  if a.coast and a.kind != "sea" and not a.otherworld)


def choose_coast(s: Session) -> str:
    coasts = globals()["coasts"](s.world)
    q = Question("war_coast", "Which coast shall the ship put you ashore on?",
                 ["random", *coasts], "random", tags=("war",))
    answer = s.ask(q)
    if answer == "random":
        answer = coasts[s.chance.choice(len(coasts), "the coast he is put ashore on")]
    return answer
