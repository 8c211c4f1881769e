"""Cards and their text form (`10D`, `QC`, `AS`), shared by every game.

Cards are interned named tuples: hashing and comparison happen in C, which keeps the hot
loops of random play and bots fast, and `str(card)` always gives the club's card text back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules.engine.text import Said, said

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_NAMES: dict[str, str] = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS: dict[str, str] = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES: dict[str, str] = {
    "A": "ace", "J": "jack", "Q": "queen", "K": "king",
    **{r: r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")},
}

# The same words as people read them in their own language (rules.engine.text): the dicts above stay plain English
# (they are keys and data too).
SUIT_SAID: dict[str, Said] = {"C": said("clubs"), "D": said("diamonds"), "H": said("hearts"), "S": said("spades")}
SUIT_ONE: dict[str, Said] = {"C": said("club"), "D": said("diamond"), "H": said("heart"), "S": said("spade")}
RANK_SAID: dict[str, Said | str] = {
    "A": said("ace"), "J": said("jack"), "Q": said("queen"), "K": said("king"),
    **{r: r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")},
}


def card_name(text: str) -> Said:
    """A card in words, in the reader's language: "queen of clubs" (a screen reader's label, a line of text)."""
    c = card(text)
    return said("%(rank)s of %(suit)s", rank=RANK_SAID[c.rank], suit=SUIT_SAID[c.suit])


class Card(NamedTuple):
    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({self.rank + self.suit!r})"

    @property
    def name(self) -> str:
        """Words a screen reader can say: 'queen of clubs'."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


_BY_TEXT: dict[str, Card] = {r + s: Card(r, s) for s in SUITS for r in RANKS}


def card(text: str) -> Card:
    """The card for one piece of card text; raises ValueError for anything else. Exact text is looked up
    first: the bots' play-outs parse their views' card texts hundreds of thousands of times a second."""
    found = _BY_TEXT.get(text)
    if found is not None:
        return found
    try:
        return _BY_TEXT[text.strip().upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a card (write rank then suit, like 10D or QC)") from None


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from text such as "AS 2S 10H" (spaces or commas), or from an iterable of card texts."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(card(p) for p in parts)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def make_deck(ranks: Iterable[str], suits: Iterable[str] = SUITS) -> tuple[Card, ...]:
    """A deck in a fixed order (suit by suit), ready for a seeded shuffle."""
    rank_list = tuple(ranks)
    return tuple(_BY_TEXT[r + s] for s in suits for r in rank_list)


FULL_DECK: tuple[Card, ...] = make_deck(RANKS)
