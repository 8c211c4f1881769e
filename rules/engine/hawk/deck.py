"""Hawk's forty cards and how a trick is decided, as tables built once at import.

Random play and the bot look these up millions of times, so every per-card fact (pips,
strength, the suit that trumps it) sits in a dict keyed by Card instead of being worked out
from the card text in the hot loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.cards import SUITS, Card, make_deck

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
DECK: tuple[Card, ...] = make_deck(RANKS)

PIPS: dict[Card, int] = {c: RANKS.index(c.rank) + 1 for c in DECK}
"""Augen: A 1, 2 2, ... 10 10. A lower number is also a stronger card, so pips double as strength."""

TRUMPED_BY: dict[str, str] = {"S": "C", "H": "S", "D": "H", "C": "D"}
"""The one suit that beats a led suit: clubs beat spades, spades hearts, hearts diamonds, diamonds clubs."""

DEAL_PACKETS: dict[int, tuple[int, ...]] = {
    2: (3, 4, 3, 3),
    3: (3, 3, 3, 3),
    4: (3, 4, 3),
    5: (3, 2, 3),
    6: (2, 2, 2),
}
"""The packets of the original text (Austeilfolge), dealt round the table from the dealer's left."""

_DEAL_SIZES: dict[int, int] = {n: sum(packets) for n, packets in DEAL_PACKETS.items()}

SORT_KEY: dict[Card, int] = {c: SUITS.index(c.suit) * 16 + PIPS[c] for c in DECK}
"""Hands are kept in suit order, strongest card first inside a suit."""


def deal_size(players: int) -> int:
    """Cards dealt to each player: 2: 13, 3: 12, 4: 10, 5: 8, 6: 6 (the rest is out of play)."""
    try:
        return _DEAL_SIZES[players]
    except KeyError:
        raise ValueError(f"Hawk is played by 2 to 6 players, not {players!r}") from None


def trick_winner(cards: Sequence[Card]) -> int:
    """Index (in play order) of the card that takes the trick.

    The first card's suit is led. The strongest card of the one suit that trumps the led suit
    wins; if nobody trumped, the strongest card of the led suit. Other suits never win.
    Strength: A beats 2 beats ... beats 10. A trick no Hawk table can see (a card from outside
    the forty, or one card twice) is refused rather than given a winner.
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    for c in cards:
        if c not in PIPS:
            raise ValueError(f"{c!r} is not a Hawk card (the deck is ace to 10 in each suit)")
    if len(set(cards)) != len(cards):
        raise ValueError("a card cannot be played twice in one trick")
    return winning_index(cards)


def winning_index(cards: Sequence[Card]) -> int:
    """The trick winner's index without checks: the engine's own tricks are always valid, and
    this runs on every trick of random play and of the bot's look-ahead."""
    led = cards[0].suit
    trump = TRUMPED_BY[led]
    best = 0
    best_key = PIPS[cards[0]]  # led-suit cards rank 1..10, trumps 0..-9 (always better)
    for index in range(1, len(cards)):
        played = cards[index]
        if played.suit == trump:
            key = PIPS[played] - 10
        elif played.suit == led:
            key = PIPS[played]
        else:
            continue
        if key < best_key:
            best, best_key = index, key
    return best


def trick_pips(cards: Sequence[Card]) -> int:
    return sum(PIPS[c] for c in cards)


def sort_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))
