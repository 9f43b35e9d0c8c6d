"""The catalogue of questions the engine asks: what each means, its answers, its default, the
tags that describe its situations, and the numbers a condition may test.

Order lines ``on <key> [<tag>...] [<name><op><number>...]: <answer>`` are checked against this
catalogue when they are submitted. Every engine module that asks questions lists them here (in
``CATALOGUE``), so reports and the order checker know them all.
"""
from __future__ import annotations

from dataclasses import field

from companion.engine.record import record


@record(frozen=True)
class Spec:
    """A question of the catalogue: its meaning, answers and default, the tags of its
    situations and the numbers a condition may test."""

    key: str
    meaning: str
    answers: tuple[str, ...]
    default: str
    tags: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    places: str = ""      # the answer may also name an area of this sort (see answers_for)


FOES = ("monster", "animal", "brigands", "knights", "knight", "king", "lady", "dwarf",
        "hermit", "mad_knight", "peasants", "beggars", "children", "priest", "watchmen",
        "wood_nymph", "troll", "highwayman", "merlin", "morgan", "enchantress", "pk",
        "sea_monster", "pirates")
PLACES = ("countryside", "forest", "river", "wasteland", "sea", "town", "castle", "shrine")
OATH_KEYS = ("never_yield", "use_no_weapons", "always_help_ladies", "always_grant_requests",
             "fight_without_advantage", "spare_knights", "serve_only_present_lord",
             "never_break_oaths", "always_travel_alone", "do_not_eat", "never_avoid_encounters")
SITE_TAGS = ("area", "castle", "royal_castle", "shrine", "wasteland", "other")

CATALOGUE: dict[str, Spec] = {}


def register(*specs: Spec) -> None:
    for spec in specs:
        CATALOGUE[spec.key] = spec


register(
    Spec("encounter", "what to do when an encounter is met, before its reaction is known",
         ("avoid", "attack", "await"), "await",
         tags=FOES + PLACES + ("arthurian", "group", "alone", "escorted"),
         values=("count", "arthurian_count")),
    Spec("appeal", "appeal to a comrade who means to leave", ("yes", "no"), "yes",
         tags=("comrade",)),
    Spec("opponent", "try (by a Luck Test) to choose whom to fight first among several foes",
         ("in order", "weakest", "strongest"), "in order", tags=FOES),
    Spec("method", "the method of combat against a knightly foe",
         ("lance", "mounted sword", "sword", "unarmed"), "lance", tags=FOES + ("knightly",)),
    Spec("appeal_chivalry", "ask a better-armed knightly foe to fight with your weapons",
         ("yes", "no"), "yes", tags=FOES),
    Spec("flee", "flee an unknightly foe after a combat event (Luck Test)", ("yes", "no"), "no",
         tags=FOES, values=("wl_left", "foe_left")),
    Spec("break_off", "offer to stop a fight on combat event 7", ("yes", "no"), "no",
         tags=FOES, values=("wl_left", "foe_left")),
    Spec("mascot", "send the Mascot to fight the next foe", ("yes", "no"), "no", tags=FOES),
    Spec("yield", "yield to a knightly foe (a Knight's Fate follows); at defeat, refusing to "
         "yield means death", ("yes", "no"), "no",
         tags=FOES + ("defeated",), values=("wl_left", "foe_left", "foe_vl")),
    Spec("yield_oath", "sworn never to yield: yield anyway (breaking the oath) or die",
         ("yield", "die"), "yield"),
    Spec("refuse_fate", "refuse a refusable Knight's Fate (12 VP)", ("accept", "refuse"),
         "accept", tags=("fate", "sends_to_shrine", "exact_oath", "sends_to_lord",
                         "demands_company", "charges_with_adventure", "exiles",
                         "sends_as_guard")),
    Spec("fate_request", "the request a generous victor grants",
         ("join", "equipment", "heal", "lift enchantment", "arthur's favour", "none"), "join",
         tags=("fate",)),
    Spec("slay_unyielding", "a defeated knight will not yield: slay him or let him go",
         ("let go", "slay"), "let go", tags=("fate", "knight")),
    Spec("fate", "the fate of a knight you defeated",
         ("free release", "grants request", "will join", "demands company", "robs",
          "declared enemy", "imprisons", "sends as guard", "slay"), "free release",
         tags=("fate", "knight", "arthurian")),
    Spec("fate_pk", "the fate of a player knight you defeated",
         ("free release", "commends skill", "sends to shrine", "exact oath", "sends to lord",
          "charges with adventure", "robs", "exiles", "imprisons", "sends as guard"),
         "free release",
         tags=("fate", "pk")),
    Spec("fate_shrine", "as victor, the shrine you send a defeated player knight to (Knight's "
         "Fate 2): a shrine's name (never Rome), or random to roll it", ("random",), "random",
         tags=("fate",), places="shrine"),
    Spec("fate_oath", "as victor, the oath a defeated player knight must swear (Knight's Fate "
         "5), one he has not sworn yet; random rolls it",
         ("random", *(k.replace("_", " ") for k in OATH_KEYS)), "random", tags=("fate",)),
    Spec("fate_site", "as victor, where the adventure you charged a defeated player knight with "
         "takes place when its site is random (Knight's Fate 9): a place of the kind it needs "
         "(tag), never in Faerie nor on the Road to Rome; random places it as usual",
         ("random",), "random", tags=("fate", *SITE_TAGS), places="site"),
)


def answers_for(spec: Spec, world) -> tuple[str, ...]:
    """Every answer an order line may give to a question: its fixed answers, then for a question
    that names places, the areas it may name in this world ('shrine': the shrines a victor may
    choose; 'site': every place a victor may choose for some adventure)."""
    if not spec.places:
        return spec.answers
    from companion.koc.engine import tasks

    if spec.places == "coast":      # a land area with a coast (Foreign War, line V)
        from companion.koc.engine.foreign_war import coasts

        return (*spec.answers, *coasts(world))
    names = tasks.shrines_to_choose(world) if spec.places == "shrine" \
        else tasks.every_site_to_choose(world)
    return (*spec.answers, *names)


def load_all() -> dict[str, Spec]:
    """Import every engine module so that all of them have registered their questions (once:
    every order text parsed asks)."""
    if _LOADED:
        return CATALOGUE
    import importlib

    for name in ("combat", "fate", "movement", "turn", "tasks", "encounters", "resolutions",
                 "service", "requests", "faerie", "party", "rivals", "tournaments",
                 "adventures", "foreign_war", "villainy", "optional", "knaves"):
        importlib.import_module(f"companion.koc.engine.{name}")
    _LOADED.append(True)
    return CATALOGUE


_LOADED: list[bool] = []
