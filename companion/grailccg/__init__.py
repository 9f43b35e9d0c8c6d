"""Monty Python and the Holy Grail CCG: the card set and deck lists (cards.py, data/), the
rules with the house rules for the missing sections 1-6, the game kind, orders, views and the
print kit. See docs/grailccg.md and docs/grailccg-cards.md."""
