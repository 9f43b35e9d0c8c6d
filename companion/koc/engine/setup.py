"""Starting a knight: homeland and Lord from the Random Deployment chart, the royal castle, the
Lord's castle as his first friendly castle; and a new knight for a player whose knight died."""
from __future__ import annotations


def deploy_home(world, state: dict, record: dict, roll, draw_knight) -> None:
    """Roll the homeland (``roll(sides)`` gives dice) and place the knight in its royal castle.

    In a castellany of Logres the Lord is a knight drawn from the deck (``draw_knight()``) and
    the castellany's castle is home, not Camelot. The grail scenario starts everybody at Camelot
    in King Arthur's service."""
    from companion.koc import scenarios

    if scenarios.terms_of(state)["homeland"] == "camelot":
        kingdom, castellany = "Logres", "Jagent"
        castle = "Camelot Castle"
        lord = {"kind": "king", "name": "King Arthur", "castle": castle}
    else:
        result = world.charts["random_kingdom"].roll(roll)
        kingdom = result.entry.get("kingdom")
        castellany = result.entry.get("castellany")
        castle = world.royal_castle(kingdom, castellany).name
        if castellany:
            card = draw_knight()
            lord = {"kind": "knight", "name": card["name"], "castle": castle, "vl": card["vl"]}
        else:
            king = next(k for k in world.kings if k.kingdom == kingdom)
            lord = {"kind": "king", "name": king.name, "castle": castle, "vl": king.virtue_level}
    home = {"kingdom": kingdom, "castellany": castellany, "castle": castle}
    record["home"] = dict(home)
    record["original_home"] = dict(home)
    record["lord"] = lord
    record["friendly"] = [castle]
    record["at"] = {"area": castle, "where": "inside"}


def setup_all(world, state: dict, chance) -> None:
    """Homelands for every knight (in seat order), then the Merlin/Morgan counter's first place
    (the rules move it after each game turn; the project places it before the first as well)."""
    for player in state["koc"]["order"]:
        record = state["knights"][player]
        deploy_home(world, state, record,
                    lambda sides, p=player: chance.roll(sides, f"homeland of {p}"),
                    lambda: _castellan(world, state))
    merlin = world.charts["deploy_countryside"].roll(
        lambda sides: chance.roll(sides, "Merlin/Morgan placed"))
    state["merlin"] = {"area": world.area(merlin.entry.get("area") or merlin.entry.label).name,
                       "who": None}


def _castellan(world, state: dict) -> dict:
    """The top Knight card becomes the Lord of a castellany (the card stays in play)."""
    name = state["decks"]["knights"]["draw"].pop(0)
    card = next(c for c in world.knights if c.name == name)
    return {"kind": "knight", "name": card.name, "vl": card.virtue_level,
            "cp": card.chivalry_points, "arthurian": card.arthurian}


def replace_slain(s) -> None:
    """The player starts a new knight with the scenario's starting values and equipment, and a
    new homeland (and so a new Lord)."""
    from companion.koc import scenarios
    from companion.koc.engine.game import starting_knight

    from companion.koc.engine import party

    state = s.game.state
    old = s.pk
    from companion.koc.engine import grail

    grail.lose(s, "he has fallen")        # a fallen bearer's Grail takes itself away
    party.drop(s.game, s.player, f"{old['name']} is slain")
    give_back_cards(s, old)
    history = state.setdefault("fallen", [])
    history.append({"player": s.player, "name": old["name"], "cp": old["cp"], "vp": old["vp"],
                    "turn": state["koc"]["turn"]})
    number = sum(1 for f in history if f["player"] == s.player) + 1
    record = starting_knight(s.player, f"{s.player} ({number})", scenarios.terms_of(state))
    deploy_home(s.world, state, record,
                lambda sides: s.chance.roll(sides, f"homeland of {s.player}'s new knight"),
                lambda: s.game.draw("knights", "castellan of the new knight's homeland"))
    record["standing"] = old.get("standing", [])
    if s.player in s.game.options.get("knaves", ()):     # KNAVES: he starts as a Knave again
        from companion.koc.engine.knaves import new_record

        record["knave"] = new_record(state["koc"]["turn"])
    record["slain"] = False
    record["just_replaced"] = True
    state["knights"][s.player] = record
    s.pk = record
    s.announce(f"{old['name']} has fallen. {s.player}'s new knight, {record['name']}, starts at "
               f"{record['at']['area']} in the service of {record['lord']['name']}.")


def give_back_cards(s, old: dict) -> None:
    """A fallen knight's followers and the persons his adventures held go back to their decks
    (his Lord and Lady are cards of the world, never held out of the decks by him)."""
    from companion.koc.engine import adventures

    for task in old["tasks"]:
        if adventures.is_adventure(task) and not task["adventure"].get("closed"):
            if task["status"] not in adventures.ENDED:
                task["status"] = "cancelled"
            adventures.close(s, task)
    for follower in old["men_at_arms"] + old["comrades"]:
        s.game.discard_card(follower)
    old["men_at_arms"], old["comrades"] = [], []
