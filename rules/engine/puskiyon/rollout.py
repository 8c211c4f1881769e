"""Puskiyon's search play-outs on bit masks: the easy bot's moves at every seat, without building a state a move.

Nine in ten of a strong decision's seconds were its play-outs, and most of a play-out was the engine's own
bookkeeping: a frozen state, a legal-move list, a view and a `Counter` of the hand at every move. The search
only needs who is left holding what, so here a hand is a 52-bit mask and a move is a few integer operations.
The moves are the ones `bot.choose` makes from each seat's `bot_view` (it never draws while holding a match,
plays the drawn card when it matches, and otherwise sheds its best-weighted match), and the value is the one
`search.playout` gives; a test plays both on the same states and requires the same values.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.engine.cards import FULL_DECK, Card
from rules.engine.puskiyon.scoring import CARD_POINTS, MATCHES
from rules.engine.puskiyon.state import DREW, State

INDEX: dict[Card, int] = {c: i for i, c in enumerate(FULL_DECK)}
BIT: tuple[int, ...] = tuple(1 << i for i in range(len(FULL_DECK)))
MATCH_MASK: tuple[int, ...] = tuple(sum(BIT[INDEX[m]] for m in MATCHES[c]) for c in FULL_DECK)
SUIT_MASK: tuple[int, ...] = tuple(sum(BIT[INDEX[o]] for o in FULL_DECK if o.suit == c.suit) for c in FULL_DECK)
RANK_MASK: tuple[int, ...] = tuple(sum(BIT[INDEX[o]] for o in FULL_DECK if o.rank == c.rank) for c in FULL_DECK)
POINTS: tuple[int, ...] = tuple(CARD_POINTS[c] for c in FULL_DECK)
TEXT_ORDER: tuple[int, ...] = tuple(sorted(str(o) for o in FULL_DECK).index(str(c)) for c in FULL_DECK)
"""Each card's place among the cards' texts: `choose` breaks a tie in weight by the larger text."""

Rollout = Callable[[State, int, int, random.Random], float]


def _mask(cards: tuple[Card, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= BIT[INDEX[c]]
    return mask


_SUIT_BITS = len(FULL_DECK) // 4
_SUIT_ALL = (1 << _SUIT_BITS) - 1
_RUN_POINTS: tuple[int, ...] = tuple(
    sum(POINTS[i] for i in range(_SUIT_BITS) if ranks >> i & 1) for ranks in range(1 << _SUIT_BITS)
)
"""The points of every set of one suit's ranks (the deck is suit by suit, and a rank's points are the same in
every suit), so a hand's points are four look-ups."""


def _points(mask: int) -> int:
    return (_RUN_POINTS[mask & _SUIT_ALL] + _RUN_POINTS[mask >> _SUIT_BITS & _SUIT_ALL]
            + _RUN_POINTS[mask >> 2 * _SUIT_BITS & _SUIT_ALL] + _RUN_POINTS[mask >> 3 * _SUIT_BITS])


def rollout_for(point_weight: int, suit_weight: int, rank_weight: int) -> Rollout:
    """The play-out of the bot weighing a play as `point_weight` per point shed plus `suit_weight` (`rank_weight`)
    per other card of its suit (rank) kept: `rollout(state, seat, limit, rng)` is `seat`'s value after at most
    `limit` moves, the others' mean points less its own (the easy bot draws no random numbers, so neither does this)."""
    weights = tuple(
        (point_weight * POINTS[i] - suit_weight - rank_weight) * 64 + TEXT_ORDER[i] for i in range(len(FULL_DECK))
    )
    suit_64, rank_64 = suit_weight * 64, rank_weight * 64

    def rollout(state: State, seat: int, limit: int, rng: random.Random) -> float:
        players = state.table.players
        hands = [_mask(h) for h in state.hands]
        stock = [INDEX[c] for c in state.stock]
        left = len(stock)
        drawn_at = 0
        top = INDEX[state.pile[-1]]
        turn = state.turn
        passes = state.passes
        _seat, kind, last_card = state.last
        drawn = INDEX[last_card] if kind == DREW and last_card is not None else -1
        moves = 0
        while turn is not None and moves < limit:
            moves += 1
            hand = hands[turn]
            if drawn >= 0:  # after a draw: play the drawn card if it matches, else keep it and pass
                if MATCH_MASK[top] & BIT[drawn]:
                    hand ^= BIT[drawn]
                    hands[turn] = hand
                    top = drawn
                    turn = (turn + 1) % players if hand else None
                else:
                    turn = (turn + 1) % players
                passes = 0
                drawn = -1
                continue
            fits = hand & MATCH_MASK[top]
            if fits:
                if fits & (fits - 1):  # two or more matches: the best weighed
                    best, best_key = -1, -1
                    while fits:
                        low = fits & -fits
                        i = low.bit_length() - 1
                        fits ^= low
                        key = (weights[i] + suit_64 * (hand & SUIT_MASK[i]).bit_count()
                               + rank_64 * (hand & RANK_MASK[i]).bit_count())
                        if key > best_key:
                            best, best_key = i, key
                else:
                    best = fits.bit_length() - 1
                hand ^= BIT[best]
                hands[turn] = hand
                top = best
                passes = 0
                turn = (turn + 1) % players if hand else None
            elif drawn_at < left:
                drawn = stock[drawn_at]
                drawn_at += 1
                hands[turn] = hand | BIT[drawn]
            else:
                passes += 1
                turn = None if passes >= players else (turn + 1) % players
        points = [_points(h) for h in hands]
        return (sum(points) - points[seat]) / max(1, players - 1) - points[seat]

    return rollout
