"""Sheepshead's 32 cards: which are trump, how they rank, what they count.

Everything is precomputed into dicts keyed by Card so that dealing, following suit and settling
a trick are dictionary look-ups in the hot loop of random play and of the bot.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.cards import SUIT_SAID, Card, card, make_deck, parse_cards
from rules.engine.text import Said, said

RANKS: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")
DECK: tuple[Card, ...] = make_deck(RANKS)

TRUMP = "T"
"""The effective suit of every trump card: trump is a suit of its own (QC is not a club)."""

TRUMP_ORDER: tuple[Card, ...] = parse_cards("QC QS QH QD JC JS JH JD AD 10D KD 9D 8D 7D")
FAIL_SUITS: tuple[str, ...] = ("C", "S", "H")
FAIL_ORDER: tuple[str, ...] = ("A", "10", "K", "9", "8", "7")
JACK_OF_DIAMONDS: Card = card("JD")

CARD_POINTS: dict[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
POINTS: dict[Card, int] = {c: CARD_POINTS[c.rank] for c in DECK}

SUIT: dict[Card, str] = {c: (TRUMP if c in TRUMP_ORDER else c.suit) for c in DECK}
"""Effective suit: 'T' for trump, else the printed suit."""

POWER: dict[Card, int] = {}
"""Strength within the effective suit; every trump outranks every fail card."""
for _i, _c in enumerate(TRUMP_ORDER):
    POWER[_c] = 100 - _i
for _s in FAIL_SUITS:
    for _i, _r in enumerate(FAIL_ORDER):
        POWER[card(_r + _s)] = 50 - _i

SORT_KEY: dict[Card, int] = {}
"""How a hand is shown: trump high to low, then clubs, spades, hearts, each high to low."""
for _i, _c in enumerate(TRUMP_ORDER):
    SORT_KEY[_c] = _i
for _j, _s in enumerate(FAIL_SUITS):
    for _i, _r in enumerate(FAIL_ORDER):
        SORT_KEY[card(_r + _s)] = 20 + 10 * _j + _i

SUIT_WORDS: dict[str, str] = {TRUMP: "trump", "C": "clubs", "S": "spades", "H": "hearts"}
SUIT_SAID_WORDS: dict[str, Said] = {TRUMP: said("trump"), "C": SUIT_SAID["C"], "S": SUIT_SAID["S"], "H": SUIT_SAID["H"]}

DEAL_SIZES: dict[int, tuple[int, int]] = {3: (10, 2), 4: (7, 4), 5: (6, 2), 6: (5, 2), 7: (4, 4)}


def deal_sizes(players: int) -> tuple[int, int]:
    """(cards per hand, cards in the blind) for a table of `players`."""
    try:
        return DEAL_SIZES[players]
    except (KeyError, TypeError):
        raise ValueError(f"Sheepshead is played by 3 to 7 players, not {players!r}") from None


def sort_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def points_of(cards: Sequence[Card]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def winning_index(cards: Sequence[Card]) -> int:
    """The trick winner's index without checks (the engine's own cards are always valid)."""
    led = SUIT[cards[0]]
    best = 0
    best_power = POWER[cards[0]]
    for index in range(1, len(cards)):
        c = cards[index]
        suit = SUIT[c]
        if suit in (led, TRUMP):
            power = POWER[c]
            if power > best_power:
                best, best_power = index, power
    return best


def trick_winner(cards: Sequence[Card]) -> int:
    """Index (in play order) of the card that takes the trick: highest trump, else highest of the suit led."""
    if not cards:
        raise ValueError("a trick needs at least one card")
    for c in cards:
        if c not in SUIT:
            raise ValueError(f"{c!r} is not a Sheepshead card (the deck is 7 to ace in each suit)")
    if len(set(cards)) != len(cards):
        raise ValueError("a card cannot be played twice in one trick")
    return winning_index(cards)
