"""Every place the rules name exists in the map (names extracted from the rules text)."""
from __future__ import annotations

import re

from companion.engine.names import fold

# Capitalised words the extraction patterns catch that are game terms, not places.
NOT_PLACES = {
    "adventure", "animal", "arthurian", "basic scenario", "britain", "castle", "castle encounters",
    "castle knights", "castle of the king", "castle owner", "castle reactions", "combat events chart",
    "enchantress", "forest", "forests", "friendly castle", "friendly castles", "groups", "her castle",
    "home castle", "king", "knave", "knight castles", "lady", "lord", "merlin", "morgan",
    "port town", "prayers", "request", "shrine", "shrines", "step", "that castle", "the castle",
    "tournament", "town", "wastelands", "camelot tournament", "kingdom", "road",
}


def known_places(world) -> dict[str, str]:
    out = {}
    for area in world.areas.values():
        out[fold(area.name)] = area.name
        for alias in area.aliases:
            out[fold(alias)] = area.name
    for name in (*world.kingdoms, *world.independent, *world.castellanies):
        out.setdefault(fold(name), name)
    return out


def resolve(name: str, places: dict[str, str]) -> str | None:
    key = fold(name)
    if key in places:
        return places[key]
    for affix in ("castle ", " castle", " shrine", " port", " town", " castellany"):
        stripped = key.replace(affix, "", 1).strip() if affix in f" {key} " else key
        if stripped != key and stripped in places:
            return places[stripped]
    return None


def extract_place_names(rules) -> dict[str, str]:
    """Candidate place names found in the rules text: name -> where it was found."""
    text = rules.text.replace("**", "")
    found: dict[str, str] = {}

    def add(name: str, where: str) -> None:
        name = re.sub(r"\s+", " ", name).strip(" .,;:")
        if name and fold(name) not in NOT_PLACES and not re.fullmatch(r"[A-Z]", name):
            found.setdefault(name, where)

    # both Random Deployment charts
    for roll, kingdom, king, provinces in rules.countryside_rows():
        m = re.match(r"(.+?) \((.+?) castellany\)", kingdom)
        add(m.group(1) if m else kingdom, "deployment chart, kingdom column")
        if m:
            add(m.group(2), "deployment chart, castellany")
        for p in provinces:
            add(p, "deployment chart, countryside column")
    for copy in rules.castle_chart_copies():
        for _, name in copy:
            add(name, "castle deployment chart")
    # the map overview and the castellany paragraphs
    overview = next(p for p in text.split("\n") if p.startswith("King Arthur's kingdom, Logres"))
    for chunk in re.findall(r":\s*([^.]+)\.", overview):
        for name in re.split(r",\s*|\s+and\s+", chunk):
            name = re.sub(r"^(?:the|and)\s+", "", name.strip())
            name = re.sub(r"\s*\(.*", "", name)
            if name and name[0].isupper():
                add(name, "map overview")
    for m in re.finditer(r"\b([A-Z][a-z-]+(?:-[A-Z][a-z]+)?) (?:\(#\d\) )?rules ([^;.]+)", text):
        add(m.group(1), "castellany list")
        for name in re.split(r",\s*|\s+and\s+", m.group(2)):
            add(re.sub(r"^(?:and\s+)?(?:the\s+)?", "", name.strip()), "castellany list")
    # shrines
    for m in re.finditer(r"^- (?:\d-\d|\u2014) ([A-Z][a-z]+): in ([A-Z][a-z]+)", text, re.M):
        add(m.group(1), "shrine list")
        add(m.group(2), "shrine list")
    # patterns over the whole text
    patterns = {
        r"\b(?:Isle|Forest|Mouth|Road) (?:of|to) (?:the )?[A-Z][a-z]+": "named feature",
        r"\b[A-Z][a-z]+ (?:Forest|Wood|Marsh|Heath)\b": "forest or wasteland",
        r"\bCastle [A-Z][a-z]+": "castle name",
        r"\b[A-Z][a-z]+ (?:Castle|Port|Town|Shrine)s?\b": "site name",
        r"\b[A-Z][a-z]+ Sea\b": "sea",
    }
    for pattern, where in patterns.items():
        for name in re.findall(pattern, text):
            add(name, where)
    for m in re.finditer(r"\b(?:[Gg]o|[Tt]ravel|[Ss]ail|[Ww]alk|JOURNEY|PILGRIMAGE|VOYAGE|deliver an item) "
                         r"(?:to|TO) (?:the )?((?:St\. )?[A-Z][A-Za-z]+(?: (?:of )?[A-Z][a-z]+)*)", text):
        add(m.group(1), "destination")
    for m in re.finditer(r"\bin (?:the )?([A-Z][a-z]+(?: [A-Z][a-z]+)*)", text):
        add(m.group(1), "'in' phrase")
    for m in re.finditer(r"if ([A-Z][a-z]+)(?: or ([A-Z][a-z]+))? is indicated, the destination is ([A-Z][a-z]+)"
                         r"|if ([A-Z][a-z]+), ((?:St\. )?[A-Z][a-z]+)", text):
        for name in m.groups():
            if name:
                add(name, "lady's escort destinations")
    for m in re.finditer(r"\(e\.g\. ([^)]*)\)", text):
        for name in m.group(1).split(","):
            name = name.strip()
            if re.fullmatch(r"[A-Z][a-z]+", name):
                add(name, "castle examples")
    for m in re.finditer(r"navigable river \(one that leads to a Port: ([^)]*)\)"
                         r"|\(such as (the [A-Z][a-z]+(?:, (?:or )?the [A-Z][a-z]+)+)\)", text):
        chunk = (m.group(1) or m.group(2)).replace("the Thames and its Mouth", "the Thames, the Mouth of the Thames")
        for name in re.split(r",\s*", chunk):
            add(re.sub(r"^(?:or\s+)?the\s+", "", name.strip()), "navigable rivers")
    m = re.search(r"three marshes \(([^)]*)\)", text)
    for name in re.split(r",\s*", m.group(1)):
        add(f"{name} Marsh", "wilderness adventure")
    for m in re.finditer(r"([A-Z][a-z]+(?: of [A-Z][a-z]+)?) \((?:low|high|on a [\d\u2013-]+)\)", text):
        add(m.group(1), "die-roll choices")
    for m in re.finditer(r"\d[\u2013-]\d ([A-Z][a-z]+); \d[\u2013-]\d ([A-Z][a-z]+); \d[\u2013-]\d ([A-Z][a-z]+)", text):
        for name in m.groups():
            add(name, "die-roll choices")
    return found


def test_every_place_named_in_the_rules_is_on_the_map(world, rules):
    places = known_places(world)
    found = extract_place_names(rules)
    assert len(found) > 120, "the extraction should find the map's names"
    missing = {name: where for name, where in found.items() if resolve(name, places) is None}
    assert not missing, f"places named in the rules but not on the map: {missing}"


def test_every_deployment_name_is_an_area(world, rules):
    places = known_places(world)
    for copy in rules.castle_chart_copies():
        for _, name in copy:
            target = resolve(name, places)
            assert target in world.areas, name
    for roll, kingdom, king, provinces in rules.countryside_rows():
        for p in provinces:
            assert world.areas[resolve(p, places)].kind == "countryside", p


def test_map_terrain_comes_from_the_rules(world, rules):
    """The project invents towns, castles and seas, but no countryside, forest, river or
    wasteland: those are exactly the ones the rules name (plus the three lands adventures
    name)."""
    places = known_places(world)
    named = {resolve(n, places) for n in extract_place_names(rules)}
    for area in world.areas.values():
        if area.kind in ("countryside", "forest", "river", "wasteland"):
            assert area.name in named, f"{area.name} is not named in the rules"


def test_named_sites_exist_with_the_right_features(world):
    camelot = world.area("Camelot Castle")
    assert camelot.kind == "castle" and camelot.port
    assert world.area("Camelot Town").is_town and world.area("Camelot Town").port
    assert world.area("Carbonek").is_shrine and world.area("Carbonek").kind == "castle"
    assert world.area("Rome").is_shrine and world.area("Rome").is_town
    for town in ("London", "York", "St. Andrew", "Barflete"):
        assert world.area(town).kind == "town", town
    for port in ("London", "St. Andrew", "Barflete", "Tintagel", "Howel"):
        assert world.area(port).port, port
    assert world.area("Tintagel").kind == "castle" and world.area("Howel").kind == "castle"
    assert world.area("Canterbury").kind == "shrine" and world.area("Llanthony").kind == "shrine"
    assert world.area("Faerie").otherworld
    assert world.area("Road to Rome").kind == "countryside"
    seas = [a.name for a in world.areas.values() if a.kind == "sea"]
    assert len(seas) == 6 and "North Sea" in seas


def test_places_sit_where_the_rules_put_them(world):
    assert world.area("Canterbury").provinces == ("Kent",)
    assert world.area("Canterbury").castellanies == ("Magouns",)
    assert world.area("Llanthony").kingdoms == ("Wales",)
    assert world.area("Carbonek").kingdoms == ("Listenoise",)
    assert world.area("Camelot Castle").castellanies == ("Jagent",)
    assert world.area("Isle of Wight").castellany == "Jagent"
    assert world.area("Isle of Avalon").kingdom == "North Wales"
    assert world.area("Isle of Servage").kingdoms == ("Isle of Servage",)
    assert world.area("Terrington Marsh").provinces == ("Gore", "Norfolk")
    for marsh in ("Lincoln Marsh", "Holbeach Marsh", "Terrington Marsh"):
        assert world.area(marsh).kind == "wasteland"
    assert world.area("York").kingdoms == ("Northumberland",)
    assert world.area("St. Andrew").kingdoms == ("Lothian",)
    assert world.area("Barflete").kingdoms == ("Benwick",)
    assert world.area("Tintagel").kingdoms == ("Cornwall",)
    assert world.area("London").kingdoms == ("Logres",)
