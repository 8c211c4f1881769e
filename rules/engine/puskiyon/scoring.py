"""Card values and the table of which card may follow which, kept apart from the turn logic.

Both are asked on every move of every round (and by the bot), so they are computed once per card
here and looked up afterwards; the public helper `hand_points` is the club's stable name for the
points a hand still held at the end of a round costs its holder.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.engine.cards import FULL_DECK, RANK_SAID, RANKS, SUIT_ONE, SUITS, Card
from rules.engine.text import Said, said

RANK_POINTS: dict[str, int] = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 10, "Q": 10, "K": 10}

CARD_POINTS: dict[Card, int] = {c: RANK_POINTS[c.rank] for c in FULL_DECK}

# Cards that may be played on each top card: same rank or same suit.
MATCHES: dict[Card, frozenset[Card]] = {
    top: frozenset(c for c in FULL_DECK if c != top and (c.rank == top.rank or c.suit == top.suit)) for top in FULL_DECK
}

# Display and hand order: by suit, then rank (clubs first, ace low).
SORT_KEY: dict[Card, int] = {c: SUITS.index(c.suit) * 13 + RANKS.index(c.rank) for c in FULL_DECK}


def hand_points(cards: Iterable[Card]) -> int:
    """What a hand left at the end of a round adds to its holder's total: A 1, 2-10 face, J Q K 10."""
    return sum(CARD_POINTS[c] for c in cards)


def matches(top: Card, card: Card) -> bool:
    """True when `card` may be played on `top` (same rank or same suit)."""
    return card in MATCHES[top]


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def what_follows(top: Card) -> Said:
    """Words for the cards that may be played on `top`: 'any 10 or any spade'."""
    return said("any %(rank)s or any %(suit)s", rank=RANK_SAID[top.rank], suit=SUIT_ONE[top.suit])
