"""The Knights of Camelot print-and-play kit, through the print suite (docs/print-suite.md).

``kit(world)`` builds it from the world data (``companion/koc/data``):

* three decks with their own backs: 75 Knights, 15 Kings, 30 Ladies;
* chit sheets for every counter of ``chits.toml`` with its count: the encounter counters (drawn
  blind, so they have a back showing only their group), the companions, markers and special
  counters (Merlin on one side, Morgan Le Fay on the other), and the player sets (the box's
  six colours and two more, G and H, for a seventh and eighth knight);
* the map poster (``companion.koc.poster``), 56 x 74 cm, tiled over pages;
* the reference charts: every chart of the data, the Foreign War steps and the requests table.

All card and chit texts are the project's own words. Nothing here depends on the clock or on
randomness, so the same data gives the same PDF.
"""
from __future__ import annotations

from typing import Any, Callable

from companion.koc.world import ALWAYS_PRAY, LOGRES, World

CHIT_MM = 16.0

KNIGHT_COLOURS = {"Arthurian Knight": "#1f4f9a", "Knight": "#5b6b7f"}
KING_COLOUR = "#8e1b2c"
LADY_COLOURS = {"Lady": "#b8507a", "Enchantress": "#5e2d7a"}

# ---------------------------------------------------------------------------------------------
# Cards


VL_WL_NOTE = ("Knights and Kings: VL is virtue (the lower, the nobler; a VL check passes when "
              "two dice roll his VL or more); CP are chivalry points; WL is the wounds he can "
              "take in a fight (CP / 10). The cards show the numbers; this note says it once.")


def knight_cards(world: World) -> list:
    from companion.render.printkit import CardFace, Stat

    cards = []
    for k in world.knights:
        kind = "Arthurian Knight" if k.arthurian else "Knight"
        lines = []
        if k.arthurian:
            lines.append("Of the Round Table: when knights are drawn for an encounter, say how "
                         "many of them are Arthurian.")
        if k.name in ALWAYS_PRAY:
            lines.append("**His prayers never fail.**")
        text = "\n".join(lines)
        cards.append(CardFace(
            k.name, kind=kind, corner=Stat("cup", f"VL {k.virtue_level}", "Virtue Level"),
            stats=[Stat("star", f"{k.chivalry_points} CP", "Chivalry Points"),
                   Stat("heart", f"WL {k.wound_level}", "Wound Level")],
            icon="crown" if k.arthurian else "shield", text=text))
    return cards


def king_cards(world: World) -> list:
    from companion.koc.world import _kingdom_rolls
    from companion.render.printkit import CardFace, Stat

    rolls = _kingdom_rolls(world)
    cards = []
    for k in world.kings:
        kingdom = world.kingdoms.get(k.kingdom)
        castle = kingdom.royal_castle if kingdom else None
        roll = "7 (then the odd die for a castellany)" if k.kingdom == LOGRES else rolls.get(k.kingdom)
        lines = [f"Rules **{k.kingdom}**" + (f" from **{castle}**." if castle else ".")]
        if roll:
            lines.append(f"Random kingdom roll: {roll}.")
        if k.name in ALWAYS_PRAY:
            lines.append("**His prayers never fail.**")
        cards.append(CardFace(
            k.name, kind="King", subtitle=f"King of {k.kingdom}",
            corner=Stat("cup", f"VL {k.virtue_level}", "Virtue Level"),
            stats=[Stat("star", f"{k.chivalry_points} CP", "Chivalry Points"),
                   Stat("heart", f"WL {k.wound_level}", "Wound Level")],
            icon="crown", text="\n".join(lines)))
    return cards


def lady_cards(world: World) -> list:
    from companion.render.printkit import CardFace, Stat

    cards = []
    for lady in world.ladies:
        kind = "Enchantress" if lady.enchantress else "Lady"
        adj = f"+{lady.seduction_adjustment}" if lady.seduction_adjustment >= 0 else str(lady.seduction_adjustment)
        lines = [f"Home: **{lady.home_castle}** (her castle counter).",
                 f"**Service award** {lady.service_award} CP: gained by the knight who enters "
                 "her service, lost again if he loses her.",
                 f"**Seduction** {adj}: added to a knight's VL when he tries to resist her."]
        if lady.enchantress:
            lines.append("**Enchantress:** she always tries to enchant a knight she meets, with "
                         "no reaction roll.")
        if lady.name in ALWAYS_PRAY:
            lines.append("**Her prayers never fail.**")
        cards.append(CardFace(
            lady.name, kind=kind, corner=Stat("cup", f"VL {lady.virtue_level}", "Virtue Level"),
            stats=[Stat("star", f"{lady.service_award} CP", "Service Award"),
                   Stat("heart", adj, "Seduction Adjustment")],
            icon="moon" if lady.enchantress else "heart", text="\n".join(lines)))
    return cards


def decks(world: World) -> list:
    from companion.render.printkit import CardBack, Deck

    return [
        Deck(title="Knight cards", cards=knight_cards(world), colours=KNIGHT_COLOURS,
             back=CardBack(title="Knight", subtitle="Knights of Camelot", colour="#1e2f5c",
                           accent="#c9a227", icon="shield", pattern="diamonds")),
        Deck(title="King cards", cards=king_cards(world), colours={"King": KING_COLOUR},
             back=CardBack(title="King", subtitle="Knights of Camelot", colour="#5c1420",
                           accent="#e0b53a", icon="crown", pattern="stripes")),
        Deck(title="Lady cards", cards=lady_cards(world), colours=LADY_COLOURS,
             back=CardBack(title="Lady", subtitle="Knights of Camelot", colour="#4a2347",
                           accent="#e6b8d0", icon="heart", pattern="dots")),
    ]


# ---------------------------------------------------------------------------------------------
# Chits

GROUP_STYLE: dict[str, tuple[str, str]] = {
    # chit kind: (background, icon)
    "animal": ("#cfe3b5", "rabbit"),
    "monster": ("#eab3a6", "skull"),
    "brigand": ("#d8c6a5", "axe"),
    "ship": ("#bcd3ea", "anchor"),
    "dwarf": ("#e8d3a2", "axe"),
    "lady": ("#f2c7d8", "heart"),
    "pilgrim": ("#e3dcf2", "boot"),
    "knight": ("#cfd6e2", "shield"),
    "castle": ("#ddd7c9", "tower"),
    "special": ("#f1e0a0", "star"),
    "player_knight": ("#ffffff", "shield"),
    "arthurian_player_knight": ("#ffffff", "crown"),
    "adventure_marker": ("#ffffff", "flag"),
}
SPECIAL_ICONS = {"Merlin": "star", "Morgan Le Fay": "moon", "Questing Beast": "eye",
                 "Holy Grail": "cup", "First Player": "flag", "Stone Ring": "circle"}


def _fit_pt(text: str, font: str, width_mm: float, max_pt: float, min_pt: float) -> float | None:
    from companion.render.fonts import register_fonts
    from companion.render.printkit.fit import text_width

    register_fonts()
    size = max_pt
    while size >= min_pt - 1e-9:
        if text_width(text, font, size) * 25.4 / 72 <= width_mm:
            return size
        size -= 0.25
    return None


MIN_PT = 5.5
"""The smallest text on a chit (docs/print-suite.md): a label or name that does not fit at it
in the bold face is set in the condensed bold face, then on two lines."""


def _fit_font(text: str, width_mm: float, max_pt: float, min_pt: float = MIN_PT
              ) -> tuple[str, float] | None:
    """(font, size): bold from ``max_pt`` down to ``min_pt``, else condensed bold."""
    from companion.render import fonts

    for font in (fonts.SANS_BOLD, fonts.CONDENSED_BOLD):
        size = _fit_pt(text, font, width_mm, max_pt, min_pt)
        if size is not None:
            return font, size
    return None


def _name_lines(name: str, width_mm: float) -> tuple[list[str], str, float]:
    """The name on one line (6.5 down to 5.5 pt, bold or condensed) or on two (5.5 pt)."""
    one = _fit_font(name, width_mm, 6.5)
    if one is not None:
        return [name], one[0], one[1]
    words = name.split()
    best: tuple[float, list[str], str] | None = None
    for k in range(1, len(words)):
        lines = [" ".join(words[:k]), " ".join(words[k:])]
        fits = [_fit_font(line, width_mm, MIN_PT) for line in lines]
        if all(f is not None for f in fits):
            from companion.render import fonts

            font = (fonts.SANS_BOLD if all(f[0] == fonts.SANS_BOLD for f in fits)  # type: ignore
                    else fonts.CONDENSED_BOLD)
            size = min(f[1] for f in fits)  # type: ignore[index]
            if best is None or size > best[0] + 1e-9:
                best = (size, lines, font)
    if best is None:
        from companion.render.printkit import TextFitError

        raise TextFitError(f"chit '{name}': the name does not fit a {CHIT_MM:g} mm chit",
                           hint="shorten the name in chits.toml")
    return best[1], best[2], best[0]


def _chit_drawer(group: str, name: str, icon: str | None, wl: int | None, dice: int,
                 corner: str = "", big: str = "", ink: str = "#1d1d1f",
                 disc: bool = False) -> Callable:
    """A chit face: group label on top, the name, an icon, and WL in a circle with the attack
    dice as pips (or a value such as the crew) along the bottom.  ``disc``: the icon sits on a
    white disc (a player's counters, whose seat colour may be as yellow as the gold crown)."""
    from companion.render import fonts

    lines, name_font, size = (_name_lines(name, CHIT_MM - 2.0) if name
                              else ([], fonts.SANS_BOLD, 0.0))
    group_fit = _fit_font(group, CHIT_MM - 1.6, MIN_PT) if group else None
    big_pt = _fit_pt(big, fonts.SANS_BOLD, CHIT_MM - 3.0, 13.0, 6.0) if big else None
    corner_pt = _fit_pt(corner, fonts.SANS_BOLD, CHIT_MM - 3.0, 6.0, MIN_PT) if corner else None

    def draw(pen, w: float, h: float) -> None:
        if group and group_fit:
            pen.text(w / 2, h - 2.6, group, size_pt=group_fit[1], font=group_fit[0], colour=ink,
                     align="centre")
        y = h - 2.8 - size * 0.36
        for line in lines:
            y -= size * 0.36
            pen.text(w / 2, y, line, size_pt=size, font=name_font, colour=ink, align="centre")
            y -= 0.35
        bottom = 4.2 if (wl is not None or dice or corner) else 1.2
        if big and big_pt:
            pen.text(w / 2, bottom + 0.8, big, size_pt=big_pt, bold=True, colour=ink, align="centre")
        elif icon:
            room = y - bottom - 0.6
            s = max(3.0, min(room, 6.5))
            if room < 3.0 and bottom > 1.2:
                # a name on two lines: the icon goes lower, between the WL circle and the dice
                bottom = 1.2
                room = y - bottom - 0.6
                s = min(room, 3.2)
            if icon == "anchor":
                pen.text(w / 2, bottom + (room - s) / 2 + 0.9, "\u2693", size_pt=s * 72 / 25.4 * 1.05,
                         colour="#1e2f5c", align="centre", font=fonts.SANS_BOLD)
            else:
                if disc:
                    # the disc (0.6 of the icon's size from its centre) keeps clear of the name
                    s = min(s, room * 0.78)
                iy = bottom + (room - s) / 2 + 0.3
                if disc:
                    pen.circle(w / 2, iy + s / 2, s * 0.6, fill="#ffffff", stroke=ink,
                               line_pt=0.4)
                pen.icon(icon, w / 2 - s / 2, iy, s, line_pt=0.5)
        if wl is not None:
            pen.circle(3.1, 2.5, 1.95, fill="#ffffff", stroke=ink, line_pt=0.6)
            pen.text(3.1, 1.85, str(wl), size_pt=5.6 if wl < 10 else MIN_PT,
                     font=fonts.SANS_BOLD if wl < 10 else fonts.CONDENSED_BOLD,
                     colour="#1d1d1f", align="centre")
        if dice:
            for i in range(dice):
                pen.rect(w - 2.3 - i * 2.0, 1.55, 1.55, 1.55, fill="#ffffff", stroke=ink,
                         line_pt=0.5, radius=0.3)
                pen.circle(w - 2.3 - i * 2.0 + 0.775, 2.325, 0.26, fill=ink, stroke=None)
        if corner and corner_pt:
            pen.text(w - 1.2, 1.7, corner, size_pt=corner_pt, bold=True, colour=ink, align="right")
    return draw


def _back_drawer(group: str, icon: str, ink: str) -> Callable:
    from companion.render import fonts

    group_fit = _fit_font(group, CHIT_MM - 1.6, 6.0) or (fonts.CONDENSED_BOLD, MIN_PT)

    def draw(pen, w: float, h: float) -> None:
        pen.circle(w / 2, h / 2 + 1.2, 5.0, fill="#ffffff", stroke=ink, line_pt=0.6)
        if icon == "anchor":
            pen.text(w / 2, h / 2 - 0.8, "\u2693", size_pt=15, colour="#1e2f5c", align="centre",
                     font=fonts.SANS_BOLD)
        else:
            pen.icon(icon, w / 2 - 3.4, h / 2 - 2.2, 6.8, line_pt=0.5)
        pen.text(w / 2, 1.6, group, size_pt=group_fit[1], font=group_fit[0], colour=ink,
                 align="centre")
    return draw


def _ink_for(colour: str) -> str:
    from companion.render.printkit.colours import rgb, text_on

    return "#ffffff" if text_on(rgb(colour)) == (1.0, 1.0, 1.0) else "#1d1d1f"


def _chit(world: World, chit, same_name: bool = False) -> Any:
    """One counter; ``same_name``: other counters share its name (three Giants), so its label
    (what `--reprint` names it by) adds the Wound Level printed on it: 'Giant WL 20'."""
    from companion.render.printkit import Chit, ChitFace

    kind = world.chit_kinds[chit.kind]
    colour, icon = GROUP_STYLE.get(chit.kind, ("#eeeeee", "circle"))
    if chit.colour:
        colour = chit.colour
    ink = _ink_for(colour)
    group = GROUP_LABELS.get(chit.kind, kind.label.upper())
    if chit.kind == "adventure_marker":
        front = ChitFace(label=chit.name, colour=colour,
                         draw=_chit_drawer(group, "", None, None, 0, big=chit.name, ink=ink))
        return Chit(front, count=chit.count)
    if chit.kind in ("player_knight", "arthurian_player_knight"):
        letter = next((pc.letter for pc in world.player_colours if pc.colour == chit.colour), "")
        front = ChitFace(label=f"{kind.label} {letter}", colour=colour,
                         draw=_chit_drawer(group, f"Player {letter}", icon, None, 0, ink=ink,
                                           disc=True))
        return Chit(front, count=chit.count)
    sides = [part.strip() for part in chit.name.split("/")] if "/" in chit.name else [chit.name]
    if chit.kind == "special":
        icon = SPECIAL_ICONS.get(sides[0], icon)
    elif chit.name in SPECIAL_ICONS:
        icon = SPECIAL_ICONS[chit.name]
    # the circle: the Wound Level (a ship's crew value is its Wound Level)
    wl = chit.crew if chit.crew is not None else chit.wound_level
    corner = ""
    label = f"{chit.name} WL {wl}" if same_name and wl is not None else chit.name
    front = ChitFace(label=label, colour=colour,
                     draw=_chit_drawer(group, sides[0], icon, wl, kind.attack_dice,
                                       corner=corner, ink=ink))
    back = None
    if len(sides) > 1:
        # one counter for two persons: the second on the back
        back = ChitFace(colour=colour, draw=_chit_drawer(group, sides[1],
                                                         SPECIAL_ICONS.get(sides[1], icon),
                                                         wl, kind.attack_dice,
                                                         corner=corner, ink=ink))
    elif kind.drawn:
        # drawn blind from a cup or a face-down pile: the back shows only the group
        back = ChitFace(colour=_darken(colour), draw=_back_drawer(group, icon, "#1d1d1f"))
    return Chit(front, back, count=chit.count)


def _darken(colour: str) -> str:
    from companion.render.printkit.colours import darker, rgb

    r, g, b = darker(rgb(colour), 0.12)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


CHIT_SHEETS = (
    # two-sided: drawn blind, and Merlin with Morgan on the back
    ("Encounter and special counters", ("animal", "monster", "brigand", "ship", "special")),
    # one-sided
    ("Companions, markers and player counters", ("dwarf", "lady", "pilgrim", "knight", "castle",
                                                 "player_knight", "arthurian_player_knight",
                                                 "adventure_marker")),
)
GROUP_LABELS = {"knight": "NON-PLAYER", "arthurian_player_knight": "ARTHURIAN",
                "player_knight": "KNIGHT", "adventure_marker": "ADVENTURE"}


def chit_groups(world: World) -> list[tuple[str, list]]:
    """(sheet title, the world's chits on it) for every chit sheet; every chit is on one."""
    out: list[tuple[str, list]] = []
    placed: set[str] = set()
    for title, kinds in CHIT_SHEETS:
        chits = [c for c in world.chits if c.kind in kinds]
        placed.update(kinds)
        if chits:
            out.append((title, chits))
    rest = [c for c in world.chits if c.kind not in placed]
    if rest:
        out.append(("Other counters", rest))
    return out


def chit_sheets(world: World) -> list:
    from companion.render.printkit import ChitSheet

    names = [c.name for c in world.chits]
    return [ChitSheet(title=title, chits=[_chit(world, c, names.count(c.name) > 1)
                                          for c in chits], size=(CHIT_MM, CHIT_MM))
            for title, chits in chit_groups(world)]


# ---------------------------------------------------------------------------------------------
# Reference charts

CHART_SHEETS = (
    ("Encounter charts", ("encounters",),
     "Roll when an encounter roll calls for one, on the chart of the area the knight is in."),
    ("Reaction charts", ("reactions",),
     "How the person or creature met reacts; roll after revealing the encounter."),
    ("Aid, magic, prison and court", ("resolution", "imprisonment", "court"), ""),
    ("Combat and tournaments", ("combat", "tournaments"), ""),
    ("Adventures, errands and knaves", ("adventures", "errands", "knaves", "optional"), ""),
    ("Random deployment", ("deployment",),
     "Pair of dice first, then the odd die (and another die) where a line shows more numbers."),
    ("The Foreign War", ("war",), ""),
)

ONLY_TEXT = {"castellan": "castellans only", "lord": "his lord only", "own_lady": "his own lady only",
             "not_at_castle": "not at a castle", "not_at_shrine": "not at a shrine"}
WAR_END_TEXT = {"home": "war over: home", "coast": "war over: put ashore on a coast",
                "king_castle": "war over: to the king's castle",
                "lady_castle": "war over: to her castle", "slain": "slain"}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _chart_intro(chart) -> str:
    parts = [f"Roll {chart.describe_dice()}."]
    if chart.optional_dice:
        parts.append(f"With the optional adventures: {chart.describe_dice(optional=True)}.")
    if chart.modifiers:
        mods = "; ".join(f"{_signed(m.value)} {m.label}" if m.value else m.label
                         for m in chart.modifiers)
        parts.append(f"Modifiers: {mods}.")
    if chart.note:
        parts.append(chart.note)
    return " ".join(parts)


def _award(entry) -> str:
    out = []
    vp, cp = entry.get("vp"), entry.get("cp")
    names = {"wl": "his WL", "wls": "their WLs"}
    if vp is not None:
        out.append(f"{vp} VP" if isinstance(vp, int) else f"VP = {names.get(vp, vp)}")
    if cp is not None:
        out.append(f"{cp} CP" if isinstance(cp, int) else f"CP = {names.get(cp, cp)}")
    return ", ".join(out)


def chart_blocks(chart) -> list:
    from companion.render.printkit import Heading, Paragraph, Table

    blocks: list = [Heading(chart.title, level=2), Paragraph(_chart_intro(chart))]
    optional = bool(chart.optional_dice)
    entries = chart.usable_entries(optional)
    awards = chart.name == "adventures"
    rows = []
    for e in entries:
        label = e.label + (" (optional)" if e.optional and optional else "")
        marks = [text for flag, text in ENTRY_MARKS if e.get(flag)]
        if marks:       # the entry's flags in the words the chart's note explains them in
            label += " (" + "; ".join(marks) + ")"
        if e.note:
            label += "\n" + e.note
        row = [chart.shown_roll(e), label]
        if awards:
            row.append(_award(e))
        rows.append(row)
    columns = ["Roll", "Result"] + (["Award"] if awards else [])
    align = ["centre", "left"] + (["left"] if awards else [])
    # the roll column as wide as its longest roll; the rest to the result (and the award)
    roll_w = max(_pt_width(r[0], bold=True) for r in rows + [columns]) + 8.0
    widths = [roll_w, COLUMN_PT - roll_w] if not awards else \
        [roll_w, (COLUMN_PT - roll_w) * 0.66, (COLUMN_PT - roll_w) * 0.34]
    blocks.append(Table(columns, rows, align=align, bold_first_column=True, widths=widths))
    return blocks


ENTRY_MARKS = (("refusable", "may be refused"), ("npk_choice", "fit for a non-player Knight"))
"""Flags of a chart entry (charts.toml) printed after its result, as its chart's note names
them."""

COLUMN_PT = 262.0
"""About the width of one column of a two-column reference sheet (A4 or Letter), in points;
tables give their columns widths relative to it."""


def _pt_width(text: str, bold: bool = False, size: float = 8.5) -> float:
    from companion.render import fonts
    from companion.render.printkit.fit import text_width

    fonts.register_fonts()
    return text_width(text, fonts.SANS_BOLD if bold else fonts.SANS, size)


def war_blocks(world: World) -> list:
    from companion.render.printkit import Heading, Paragraph, Table

    if not world.war_steps:
        return []

    def exit_text(x) -> str:
        cond = []
        if x.on and x.on != "always":
            cond.append(x.on.replace("_", " "))
        if x.roll is not None:
            cond.append(str(x.roll))
        head = (", ".join(cond) + ": ") if cond else ""
        if x.end:
            return head + WAR_END_TEXT.get(x.end, x.end)
        when = "at once" if x.when == "now" else "next turn"
        return f"{head}**{x.next}** {when}"

    rows = []
    for step in world.war_steps.values():
        what = step.label
        extra = []
        v = step.values
        if "count" in v:
            extra.append(f"{v['count']} foes")
        if "vp_loss" in v:
            extra.append(f"-{v['vp_loss']} VP")
        if "cp_loss" in v:
            extra.append(f"-{v['cp_loss']} CP")
        if "chart" in v and v["chart"] in world.charts:
            extra.append(f"roll on {world.charts[v['chart']].title}")
        if step.effects:
            extra.append("first a die: " + "; ".join(f"{e.roll_text} {e.label}" for e in step.effects))
        if extra:
            what += " (" + "; ".join(extra) + ")"
        if step.note:
            what += "\n" + step.note
        rows.append([step.letter, what, "\n".join(exit_text(x) for x in step.exits)])
    return [Heading("Steps of a foreign war", level=2),
            Paragraph("Start at step A. Each step says where the knight goes next: at once, or "
                      "on his next turn. Where a step rolls a die, the die picks the line."),
            # each way on ("serve and lose: R next turn") on a line of its own: shared by
            # width, the long labels took the room and every way on wrapped
            Table(["Step", "What happens", "Next"], rows, align=["centre", "left", "left"],
                  bold_first_column=True, widths=[1.1, 4.3, 4.6])]


def request_blocks(world: World) -> list:
    from companion.render.printkit import Heading, Paragraph, Table

    if not world.requests:
        return []
    granted: dict[str, list[str]] = {k: [] for k in world.requests}
    for person in world.persons.values():
        for key, only in person.requests:
            if key in granted:
                granted[key].append(person.label + (f" ({ONLY_TEXT.get(only, only)})" if only else ""))
    rows = [[r.label, ", ".join(granted[r.key]) or "-", r.note or ""] for r in world.requests.values()]
    return [Heading("Requests", level=1),
            Paragraph("What a knight may ask of a friendly person in the Prayers and Requests "
                      "phase, and who can grant it. Unless noted, a Luck Test decides; King "
                      "Arthur answers on his own chart."),
            Table(["Request", "Who may grant it", "What it gives"], rows,
                  align=["left", "left", "left"], bold_first_column=True, widths=[2.2, 3.2, 5.6])]


def reference_sheets(world: World) -> list:
    from companion.render.printkit import Paragraph, ReferenceSheet

    sheets = []
    used: set[str] = set()
    for title, groups, intro in CHART_SHEETS:
        charts = [c for c in world.charts.values() if c.group in groups]
        used.update(c.name for c in charts)
        blocks: list = [Paragraph(intro)] if intro else []
        for chart in charts:
            blocks += chart_blocks(chart)
        if "war" in groups:
            blocks += war_blocks(world)
        if charts or len(blocks) > 1:
            sheets.append(ReferenceSheet(title=title, blocks=blocks))
    rest = [c for c in world.charts.values() if c.name not in used]
    if rest:
        blocks = []
        for chart in rest:
            blocks += chart_blocks(chart)
        sheets.append(ReferenceSheet(title="Other charts", blocks=blocks))
    req = request_blocks(world)
    if req:
        sheets.append(ReferenceSheet(title="Requests", blocks=req[1:], columns=1))
    return sheets


# ---------------------------------------------------------------------------------------------
# The map poster and the kit


def map_board(world: World):
    from companion.koc.poster import POSTER_H, POSTER_W, draw_poster, poster_layout
    from companion.render.printkit import Board

    layout = poster_layout(world)

    def draw(pen) -> None:
        draw_poster(pen, layout, world)

    return Board(title="Map poster", width_mm=POSTER_W, height_mm=POSTER_H, draw=draw)


# each cover note with the parts it explains (a PDF of some parts only leaves the others out)
CARDS_NOTE = ("Cards: {knights} Knights, {kings} Kings and {ladies} Ladies, each deck with its own "
              "back. VL, CP and WL (or a lady's service award and seduction) are the icons' "
              "numbers.")
"""The first cover note, with the numbers of the world printed (an edited data folder may have
more or fewer cards)."""

NOTES = (
    (CARDS_NOTE, ("cards",)),
    (VL_WL_NOTE, ("knight-cards", "king-cards")),
    ("Chits: the number in the circle is the Wound Level (for a ship, its crew), the small dice "
     "are its attack dice. Animals, monsters, brigands and ships have a plain back so they can "
     "be drawn face down; Merlin has Morgan Le Fay on his back. The Arthurian Flagship, the "
     "Stone Ring and the First Player marker are for optional rules.", ("chits",)),
    ("Map poster: 56 x 74 cm, tiled over pages after an assembly overview; trim, glue the "
     "shaded strips under their neighbours, starting from A1. Chits sit on or beside the area "
     "they are in.", ("board",)),
    ("Reference charts: every table of the rules, with the project's own short labels.",
     ("charts",)),
    ("Adventure Journals: one record sheet and one log of turns, blank, to copy for each "
     "player (the log as often as needed); the Quest of the Holy Grail has its own.",
     ("journals",)),
)


def kit(world: World | None = None):
    """The whole kit."""
    from companion.koc.world import default_world
    from companion.render.printkit import Kit, Note

    world = world or default_world()
    parts: list = []
    parts += decks(world)
    parts += chit_sheets(world)
    parts.append(map_board(world))
    parts += reference_sheets(world)
    from companion.koc.journal_pdf import journal_parts

    parts += journal_parts()            # blank Adventure Journals (--only journals)
    return Kit(game="koc", title="Knights of Camelot", parts=parts,
               subject=f"{len(world.knights)} Knight, {len(world.kings)} King and "
                       f"{len(world.ladies)} Lady cards, counters, map poster, reference "
                       "charts, Adventure Journals",
               notes=[Note(text.format(knights=len(world.knights), kings=len(world.kings),
                                       ladies=len(world.ladies)) if text == CARDS_NOTE
                           else text, parts) for text, parts in NOTES])

