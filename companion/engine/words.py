"""Words that agree with a number: "1 card", "3 cards" (a text a player or moderator reads)."""
from __future__ import annotations


def word_for(n: int, word: str, words: str | None = None) -> str:
    """``word`` for one, ``words`` (by default ``word + "s"``) for any other number, none too."""
    return word if n == 1 else (words or word + "s")


def counted(n: int, word: str, words: str | None = None) -> str:
    """The number and its word: '1 card', '3 cards', '0 cards', '2 men-at-arms'."""
    return f"{n} {word_for(n, word, words)}"


def numbered(word: str, numbers) -> str:
    """The word and the numbers it names: 'turn 3', 'turns 3, 4'."""
    numbers = list(numbers)
    return f"{word_for(len(numbers), word)} {', '.join(map(str, numbers))}"


def joined(items, last: str = "and") -> str:
    """A list in words: 'Gore', 'Gore and Vagon', 'Gore, Vagon and Jagent' (no serial comma)."""
    items = [str(x) for x in items]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
