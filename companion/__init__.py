"""companion: play-by-email moderator and print-and-play companion for five tabletop games."""

__version__ = "0.1.0"
