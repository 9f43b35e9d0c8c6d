"""Positions for the resolutions, service and requests casebooks."""
from __future__ import annotations


def pos(cp=100, vp=20, at="Hampshire", lord="King Arthur", anna="", extra="", others=None,
        where=None, turn=1):
    """A one-knight position (Anna), or more with ``others`` = {name: fields text}."""
    others = others or {}
    order = ["Anna", *others]
    text = [
        'game = "koc"',
        f"turn = {turn}",
        "order = [" + ", ".join(f'"{p}"' for p in order) + "]",
        "[merlin]",
        'area = "Argyll"',
        "[knight.Anna]",
        f"cp = {cp}",
        f"vp = {vp}",
        f'at = "{at}"',
    ]
    if where:
        text.append(f'where = "{where}"')
    if where == "ship" and "ship =" not in anna:
        # aboard at sea a knight needs a ship (a position without one is refused)
        text.append('ship = {kind = "ship", name = "Cog", wl = 10, dice = 2}')
    if lord:
        text.append(f'lord = "{lord}"')
    text.append(anna)
    for name, fields in others.items():
        text += [f"[knight.{name}]", fields]
    text.append(extra)
    return "\n".join(text) + "\n"


def card(name: str, kind: str = "knight", **more) -> dict:
    """A card record as the decks give it."""
    from companion.koc.kind import KIND

    world = KIND.world
    deck = {"knight": world.knights, "king": world.kings, "lady": world.ladies}[kind]
    found = next(c for c in deck if c.name == name)
    from companion.koc.engine.game import Game

    rec = Game.card_record(None, {"knight": "knights", "king": "kings", "lady": "ladies"}[kind],
                           found)
    rec.update(more)
    return rec
