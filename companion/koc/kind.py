"""Knights of Camelot as a game kind: world data, chart rolls, routes, printables, and the
rules engine for play by email (docs/koc-engine.md)."""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Sequence

from companion.engine.game import COMMON_OPTIONS, GameKind, OptionSpec, TurnContext

if TYPE_CHECKING:
    from companion.engine.chance import Chance


RULES = ("optional_adventures", "stamina", "superior_knights", "short_tournaments",
         "delaying_pursuit", "signal_honour", "steadfast_companions", "robbing_costs_vp",
         "shipwreck_saves", "camelot_tournament_once", "special_tournament_once",
         "limited_luck", "tricking_pks", "seeking_encounters", "devils", "foreign_war")
# names an earlier version accepted: still read, as the rule they always meant
RULE_ALIASES = {"stamina_unhorse": "superior_knights",
                "shipwreck_saving_throws": "shipwreck_saves"}


def _rules(value: str, players: Sequence[str]) -> tuple[str, ...]:
    if not value.strip():
        return ()
    chosen: list[str] = []
    for raw in value.split(","):
        rule = raw.strip().lower().replace("-", "_").replace(" ", "_")
        rule = RULE_ALIASES.get(rule, rule)
        if rule not in RULES:
            import difflib

            close = difflib.get_close_matches(rule, RULES, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"'{raw.strip()}' is not an optional rule{hint} "
                             f"(rules: {', '.join(RULES)})")
        if rule not in chosen:
            chosen.append(rule)
    return tuple(chosen)


def _scenario(value: str, players: Sequence[str]):
    """A rulebook scenario's name (kept as the name) or a scenario file (kept as its terms,
    so the game never reads the file again)."""
    from companion.koc import scenarios

    folded = value.strip().lower()
    if folded in scenarios.BUILTIN:
        return folded
    return scenarios.resolve(value)


def _knaves(value: str, players: Sequence[str]) -> tuple[str, ...]:
    """Players whose knights start the game as Knaves (KNAVES), comma-separated."""
    if not value.strip():
        return ()
    chosen: list[str] = []
    folded = {p.casefold(): p for p in players}
    for raw in value.split(","):
        name = raw.strip()
        if name.casefold() not in folded:
            import difflib

            close = difflib.get_close_matches(name, list(players), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise ValueError(f"'{name}' is not a player of this game{hint}: the value names "
                             f"the players whose knights start as Knaves, e.g. "
                             f"knaves={players[0] if players else 'Anna'} (players: "
                             f"{', '.join(players)})")
        if folded[name.casefold()] not in chosen:
            chosen.append(folded[name.casefold()])
    return tuple(chosen)


class KocKind(GameKind):
    edition = 7     # 1: prayers need something to cure; a victor's CP from the loser's WL in
    # the fight; landing from a ship off a coast; the report's words for moves not made.
    # 2: witnesses of an award no longer see the knight's new totals (his journal's, private)
    # 2: proper plurals in event texts ("1 guard", "2 guards"; engine/words.py)
    # 3: a lone knight who rides off is named, not "the knights" (encounters.ONE_KNIGHT_FLEES);
    # an award or penalty at the limit of the points says so, not "gains 0 VP"
    # (session.AT_THE_LIMIT); the way out of a land of exile is no return to it, and a knight
    # without 12 VP to lose stays exiled (movement.EXILE_KEPT); "equipment vanishes"; Knight's
    # Fate 6 assigned at the castle it sends him to is an oath (fate.LORD_HERE_IS_OATH); a
    # player knight without a castle cannot imprison one he beat (fate.JAILOR_OWNS_A_CASTLE);
    # Fate 6 from a player knight sends to his own Lord (fate.PK_LORD_KNOWN); going ashore in a
    # land of exile is a return (movement.EXILE_BY_SEA); an exile's lands listed with "and"
    # (fate.LANDS_JOINED); a Knave's stamina from CP + SP (combat.KNAVE_STAMINA); wounds
    # tended before King Arthur's joust (tournaments.JOUST_TENDED); a request nobody can
    # grant names where the knight is (requests.NOBODY_WHERE); "pirate 1" without its WL
    # (encounters.PIRATES_NAMED); a foe still standing robs a beaten knight (combat.VICTOR_STANDS);
    # "a knight", "He is" for one knight met (encounters.ONE_KNIGHT_SEEN); "he left the most
    # direct route" (tasks.HE_STRAYED); "Sir Epinogrus robs" (combat.ROBBER_AGREES); "The castle
    # in Usk is placed on the map" (tasks.CASTLE_PLACED); "has lost: he stays in prison"
    # (resolutions.LOST_FOR_FREEDOM); "stays on the coast of", "at the gate of"
    # (movement.STAY_WORDED); no method chosen anew once the fight is over
    # (combat.NO_CHOICE_AT_THE_END); a task taken on before his movement this game turn is not
    # judged by its moves (tasks.ORDERS_BEFORE_TASK); a party member entering a land of his
    # exile with his leader breaks it too (movement.PARTY_EXILED); knights whose player turn
    # it is not are tended before any tournament (tournaments.LISTS_TENDED); "Luck test
    # (recover from madness, the first of two): rolled 3, needing 4 or more"
    # (session.LUCK_WORDED)
    # 4: 'go to' takes ship where no land route leads, and rides out of a castle counter
    # first (movement.GO_TO_BY_SHIP); going ashore is no delay and going inland no straying
    # on a task's route (movement.LANDING_ON_ROUTE); no encounter roll for a knight who stays
    # on a coast (movement.COAST_STAY_QUIET)
    # 4: a foe the followers strike down after every knight fell pays half its award
    # (combat.FOLLOWERS_WIN_HALF); before a tournament the knight whose player turn it is is
    # tended of the wounds dealt before his turn and keeps his own turn's
    # (tournaments.OTHER_TURNS_TENDED)
    # 4: going ashore in a port is part of the sea move that put in there, in the move and
    # the orders check (movement.ASHORE_IN_PORT); a ship that stays at sea meets the sea
    # (movement.SEA_STAY_MET); a knight felled by a knightly foe has the lesson of defeat
    # though his side won (combat.LESSON_SIDE_WON); a foe nobody wounded, struck down by the
    # followers, is not credited to a knight who fled (combat.FLED_NOT_CREDITED)
    # 5: a Lady without a castle (Morgan Le Fay) won from another knight has no "castle (None)"
    # (rivals.LADY_WITHOUT_CASTLE); an adventure whose site is not fixed is shared without
    # "(its site: None)" and "at None" (adventures.SHARED_SITE_UNFIXED)
    # 6: a knight's Adventure markers bear his seat's letter (counted from the first player,
    # so a rotating first player changes nothing; G and H for a seventh and eighth knight), and
    # no marker another knight's running adventure bears (resolutions.MARKERS_BY_SEAT)
    # 6: a lone knight with a rotating or random first player is not told after every game
    # turn that he plays first next, and no lot is drawn for it (turn.LONE_KNIGHT_FIRST)
    # 7: an escort home asked as aid by a King or Lady of a knight without a horse cannot be
    # given (no penalty) (resolutions.ESCORT_NEEDS_HORSE); an outlawing castle is neutral, not
    # barred: a friendly reaction there lifts the outlawry, and a visit the rules make friendly
    # (a dying kinsman's castle) is friendly (encounters.OUTLAWRY_LAPSES); a knight in animal
    # form gives his foes no +2 for want of a shield, and beaten in a fight is slain (never
    # yields) (combat.ANIMAL_FORM_FIGHTS); the oath to travel alone stands against Aid 2's
    # rescued comrade as against an escort (resolutions.ALONE_NO_RESCUED_COMPANY), and Merlin
    # gives a knight so sworn no Dwarf (encounters.MERLIN_HEEDS_ALONE)
    # 7: a King or Lady is escorted on request only by a knight with a horse, Lord or no
    # (requests.ESCORT_ON_HORSEBACK); every castle owner grants an Appeal to Jailor without a
    # Luck Test (requests.JAILOR_HEARS_APPEALS); King Arthur in his castle is not asked for an
    # escort (requests.ARTHUR_AT_HOME); no retention test inside any friendly castle
    # (turn.RETAINED_IN_ANY_FRIENDLY_CASTLE); an adventure attempted to its end sends the
    # Men-at-Arms away and the comrades unless persuaded (turn.COMPANY_ENDS_WITH_ADVENTURE);
    # only the oaths bearing on the person asking pull against travelling alone
    # (resolutions.ONLY_OATHS_AT_ISSUE); no company from a Knight's Fate for a knight sworn to
    # travel alone (fate.FATE_HEEDS_ALONE); a declared enemy spared for the oath to spare
    # knights (combat.ENEMY_SPARED_BY_OATH); an enchanted sleep sends the escorted persons
    # away (resolutions.SLEEPER_LEFT_ALONE); "no longer travels" (encounters.ONE_NO_LONGER_TRAVELS)
    # 7: an announcement names a knight who bears his player's name once, "Anna becomes a
    # Knave", not "Anna (Anna) ..." (words.NAME_ONCE)
    # 7: a full turn spent at a shrine earns 1 VP (encounters.SHRINE_TURN_VP); "watchman 1",
    # not "watchman 1 (WL 4)" (encounters.WATCHMEN_NAMED); another knight's castle, its lord
    # away, may be stormed to free the player knights held there (encounters.PK_CASTLE_STORMED);
    # Camelot friendly to a knight re-equips no fellow it is not friendly to
    # (encounters.CAMELOT_NOT_SHARED); guard duty in a wasteland rolls less 1
    # (service.GUARD_WASTELAND_MODIFIED); the Good Winds' extra move meets no sea
    # (movement.GOOD_WINDS_QUIET)
    # 7: a fight stopped on Combat Event 7 pays as a challenge, the other knights stop only on
    # a VL check each (else fight on), and nobody gives a Knight's Fate in it
    # (combat.FIGHT_STOPPED_AS_CHALLENGE); an even challenge goes on with its weapons (swords
    # once a lance broke), and felling a foe while behind on the count pays the loser's 6 CP
    # too (combat.CHALLENGE_COUNTED); a weapon broken (events 4, 10) breaks nothing of a knight
    # fighting unarmed (combat.UNARMED_NOTHING_BREAKS); before his next foe, or while his
    # Mascot fights, a knight takes his Dwarf's spares and remounts (combat.REFIT_BETWEEN_FOES);
    # a foe's shield broken (event 11), keeping one's own is an advantage: laid aside, or
    # unchivalrous (combat.SHIELD_ASIDE); a knight who flees a fight keeps his Arthurian Dwarf
    # (combat.FLEEING_DWARF_FOLLOWS); a friendly castle replaces what a challenge fought in it
    # broke (combat.CHALLENGE_MENDED)
    # 7: a knight changed into an animal parts from the persons in his company as a sleeper
    # does, their tasks ended without penalty (resolutions.ANIMAL_SHEDS_COMPANY)
    # 7: a Lady or Knight slain takes the castle she or he owned off every player knight's
    # friendly list (service.CASTLE_DIES_WITH_OWNER); only the challenger of a challenge must
    # fight fairly, not the knight challenged (combat.CHALLENGED_NOT_BOUND)
    # 7: a failed 6:2 Slay Monster pays half the monster's WL in VP, rounded up, its award
    # being that WL (adventures.FAILED_WL_HALF); the escort adventures 1:2 and 1:3 earn the
    # escort's 1 VP a turn on the road (adventures.ESCORT_TURN_VP); an adventure's turn of
    # grace (1:2 excepted) only where he heard of it, a stop on the way loses it
    # (adventures.GRACE_AT_THE_START)
    # 7: Merlin turns no Grail bearer into a beast (encounters.MERLIN_SPARES_BEARER); a King
    # or Lady asked for service judges a Knave only after his first act (knaves.JUDGED_FOR_ACTS)
    # 7: the +1 a turn for seeking somebody counts turns of seeking there in a row only
    # (tasks.SEEKING_IN_A_ROW)
    # 7: a knight whose Lord, a Knight, is slain has no Lord from then on
    # (service.LORD_SLAIN_LEAVES_NO_LORD); a knight of the Round Table loses 6 VP for each
    # knightly foe fought unchivalrously in a fight (combat.UNCHIVALROUS_EACH_FOE)
    # 7: asking a King for service under one's Lord's Summons costs the 6 VP, granted or not,
    # and a grant no more (requests.SUMMONS_COSTS_THE_TRY)
    option_specs = COMMON_OPTIONS + (
        OptionSpec("scenario", "the scenario: basic (50 CP, 5 VP; join the Round Table), "
                   "advanced (40, 4), grail (100, 25, Arthurian knights at Camelot seek the Holy "
                   "Grail) or campaign (30, 3; Round Table, then the Grail), or the path of a "
                   "scenario file of your own (docs/koc-scenarios.md)", "basic",
                   parse=_scenario),
        OptionSpec("first-player", "who plays first each game turn: 'fixed' (the starting "
                   "player), 'rotate' (the marker passes left) or 'random'", "fixed",
                   ("fixed", "rotate", "random")),
        OptionSpec("rules", "optional rules in force, comma-separated: " + ", ".join(RULES),
                   "", parse=_rules),
        OptionSpec("knaves", "players whose knights start as Knaves (the Knave variant), "
                   "comma-separated; any knight may also turn Knave by order later", "",
                   parse=_knaves),
    )

    @cached_property
    def world(self):
        from companion.koc.world import default_world

        return default_world()

    # -- data, charts, routes, printables ---------------------------------------------------
    def data_export(self) -> dict:
        return self.world.to_json()

    def data_check(self, folder) -> list:
        from companion.koc.world import check_data_dir

        return check_data_dir(folder)

    def roll(self, chart: str, dice: list[int] | None, chance: Chance) -> str:
        from companion.koc.rolls import roll_chart

        found = self.world.chart(chart)
        if dice:
            result = roll_chart(self.world, found.name, dice=dice)
        else:
            result = roll_chart(self.world, found.name,
                                roll=lambda sides: chance.roll(sides, found.name))
        return result.text()

    def route(self, start: str, goal: str, by: str) -> str:
        from companion.koc.routes import find_route

        return find_route(self.world, start, goal, by=by).text()

    def print_kit(self):
        """The print-and-play kit: the three decks, the chit sheets, the map poster and the
        reference charts (``companion print koc``)."""
        from companion.koc.printables import kit

        return kit(self.world)

    # -- creation and positions ---------------------------------------------------------------
    def create(self, players: list[str], options: dict[str, Any], chance: Chance) -> dict:
        from companion.koc.engine.game import new_state
        from companion.koc.engine.setup import setup_all

        state = new_state(self.world, players, options, chance)
        setup_all(self.world, state, chance)
        return state

    def read_position(self, text: str, filename: str, options: dict[str, Any]) -> dict:
        from companion.koc.position import read_position

        return read_position(self.world, text, filename)

    def write_position(self, state: dict, viewer: str = "moderator") -> str:
        from companion.koc.position import write_position

        return write_position(self.world, state, viewer)

    def setup_players(self, text: str) -> list[str]:
        """A position names its players in seat order (``order = [...]``); none when it does
        not read (the shared code then has ``read_position`` say where it is broken)."""
        import tomllib

        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            return []
        order = data.get("order")
        if order is None and isinstance(data.get("knight"), dict):
            order = list(data["knight"])        # without 'order', the knights' tables in turn
        if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
            return []
        return list(order)

    def players(self, state: dict) -> list[str]:
        return list(state["koc"]["order"])

    # -- orders --------------------------------------------------------------------------------
    def parse_orders(self, state: dict, player: str, text: str, filename: str):
        from companion.koc.orders import parse_orders

        return parse_orders(self.world, list(state["koc"]["order"]), text, filename)

    def check_orders(self, state: dict, player: str, orders, filename: str) -> None:
        from companion.koc.checks import check_orders

        check_orders(self.world, state, player, orders, filename)

    def acknowledge(self, state: dict, player: str, orders) -> list[str]:
        from companion.koc.checks import acknowledge

        return acknowledge(self.world, state, player, orders)

    def options_for(self, state: dict, player: str) -> list[str]:
        from companion.koc.checks import legal_lines

        return legal_lines(self.world, state, player)

    # -- turns ---------------------------------------------------------------------------------
    def process(self, state: dict, ctx: TurnContext) -> None:
        from companion.koc.engine.game import process
        from companion.koc.engine.history import recording

        with recording(state):          # the knights' journal logs (engine/history.py)
            process(self.world, state, ctx)

    def finish_turn(self, state: dict, ctx: TurnContext) -> None:
        state["events"] = ctx.events

    def is_over(self, state: dict) -> bool:
        return state["koc"]["over"]

    def result_lines(self, state: dict) -> list[str]:
        from companion.koc.views import result, result_text

        return result_text(result(state), state["koc"]["over"])

    def progress(self, state: dict) -> str | None:
        """The game turn (every knight's turn, then Merlin): under way while a knight's turn
        waits for an answer."""
        koc = state["koc"]
        if koc["over"]:
            return None
        return f"game turn {koc['turn']} " + ("under way" if state["pending"] else "next")

    def awaited(self, state: dict) -> list[str]:
        if state["koc"]["over"]:
            return []
        koc = state["koc"]
        order = koc["order"]
        return order[koc["current"]:] + order[:koc["current"]]

    # -- views ---------------------------------------------------------------------------------
    def view(self, state: dict, viewer: str) -> dict:
        from companion.koc.views import view

        return view(self, state, viewer)

    def report(self, view: dict) -> dict:
        from companion.koc.views import report

        return report(self, view)

    def player_files(self, view: dict) -> dict[str, bytes]:
        """His Adventure Journal beside his report, as PDF and as text (docs/koc-journal.md)."""
        from companion.koc.journal import journal_files

        return journal_files(view)


KIND = KocKind()
