"""Hand scoring and play legality: the parts of Hawsker other code and tests call by name.

They take plain `Card` values so the rules page examples, the bot and the engine share one
definition of a 13, a run or a legal play; the tables are precomputed per card because random
play and the bot call these in their innermost loops.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from rules.engine.cards import FULL_DECK, RANKS, SUITS, Card

RANK_VALUE: dict[str, int] = {rank: number for number, rank in enumerate(RANKS, start=1)}
VALUE: dict[Card, int] = {c: RANK_VALUE[c.rank] for c in FULL_DECK}
# Value first, then suit: the order hands are kept in and combinations are written in.
ORDER: dict[Card, int] = {c: VALUE[c] * 4 + SUITS.index(c.suit) for c in FULL_DECK}
THIRTEEN = 13
KING = "K"
FLUSH_MINIMUM = 2  # a flush needs at least this many cards


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


@lru_cache(maxsize=8192)
def value_points(values: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Kings, thirteens, pairs and runs of a hand, which depend only on its values (ascending)."""
    counts = [0] * (THIRTEEN + 2)
    for v in values:
        counts[v] += 1
    # Sets of non-king cards adding to 13 (no single card is worth 13, so these are sets of 2+).
    ways = [1] + [0] * THIRTEEN
    for v in values:
        if v != THIRTEEN:
            for total in range(THIRTEEN, v - 1, -1):
                ways[total] += ways[total - v]
    pairs = sum(n * (n - 1) for n in counts)  # 2 points for each of n(n-1)/2 pairs
    return counts[THIRTEEN], 2 * ways[THIRTEEN], pairs, _runs(counts)


def _runs(counts: list[int]) -> int:
    """Cribbage runs: each maximal stretch of 3+ values scores its length once per way to pick it."""
    points = 0
    value = 1
    while value <= THIRTEEN:
        if not counts[value]:
            value += 1
            continue
        start, ways = value, 1
        while value <= THIRTEEN and counts[value]:
            ways *= counts[value]
            value += 1
        if value - start >= 3:
            points += (value - start) * ways
    return points


def score_breakdown(cards: Iterable[Card]) -> dict[str, int]:
    """Points of a hand by kind: kings, thirteens, pairs, runs, flush, and the total."""
    hand = tuple(cards)
    kings, thirteens, pairs, runs = value_points(tuple(sorted(VALUE[c] for c in hand)))
    flush = len(hand) if len(hand) >= FLUSH_MINIMUM and len({c.suit for c in hand}) == 1 else 0
    return {
        "kings": kings,
        "thirteens": thirteens,
        "pairs": pairs,
        "runs": runs,
        "flush": flush,
        "total": kings + thirteens + pairs + runs + flush,
    }


def score_hand(cards: Iterable[Card]) -> int:
    """`score_breakdown`'s total, without the breakdown (the bots score candidate hands at every playout move)."""
    hand = tuple(cards)
    total = sum(value_points(tuple(sorted([VALUE[c] for c in hand]))))
    if len(hand) >= FLUSH_MINIMUM and len({c.suit for c in hand}) == 1:
        total += len(hand)
    return total


def is_legal_play(top: Card | None, cards: Sequence[Card]) -> bool:
    """Whether laying `cards` (in order; the last becomes the top card) on `top` is allowed.

    `top` None means nothing has been played this round: any one card. Otherwise one card of the
    top card's suit, any one king, or one card or a combination of two or more non-king cards that
    with the top card adds to 13; on a king, a combination of two or more cards adding to 13 itself.
    """
    count = len(cards)
    if count == 0 or len(set(cards)) != count:
        return False
    if top is None:
        return count == 1
    top_is_king = top.rank == KING
    if count == 1:
        c = cards[0]
        if c.suit == top.suit or c.rank == KING:
            return True
        return not top_is_king and VALUE[c] + VALUE[top] == THIRTEEN
    if any(c.rank == KING for c in cards):
        return False
    total = sum(VALUE[c] for c in cards)
    return total == THIRTEEN if top_is_king else total + VALUE[top] == THIRTEEN


@lru_cache(maxsize=16384)
def _combination_plays(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Every set of 2+ of `values` (ascending) adding to `target`, once for each card put last.

    Answers pick positions out of `values`; they depend only on the values, so they are cached. They are
    kept as tuples of integers, which the garbage collector stops walking, rather than as `itemgetter`s, which
    it walks on every full pass: a search fills this cache, and those passes were its slowest decisions.
    """
    found: list[tuple[int, ...]] = []
    size = len(values)

    def search(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, size):
            v = values[i]
            if v > remaining:
                return
            if v == remaining:
                if chosen:
                    found.append((*chosen, i))
            else:
                search(i + 1, remaining - v, (*chosen, i))

    search(0, target, ())
    return tuple((*combo[:i], *combo[i + 1 :], last) for combo in found for i, last in enumerate(combo))


def _combinations(hand: Sequence[Card], target: int) -> list[tuple[Card, ...]]:
    """Combination plays (2+ non-king cards adding to `target`) from a hand kept in ORDER."""
    pool = [c for c in hand if VALUE[c] < target]  # kings (13) never qualify: targets are at most 13
    if len(pool) < 2:
        return []
    values = tuple([VALUE[c] for c in pool])
    if values[0] + values[1] > target:
        return []
    at = pool.__getitem__
    return [tuple(map(at, pick)) for pick in _combination_plays(values, target)]


def _target(top: Card) -> int:
    return THIRTEEN if top.rank == KING else THIRTEEN - VALUE[top]


def legal_plays(top: Card | None, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal play from a hand kept in ORDER: single cards first, then combinations.

    A combination is listed once for each card that could finish it (that card becomes the top);
    the cards before it come in ascending order, since their order changes nothing.
    """
    if top is None:
        return [(c,) for c in hand]
    suit = top.suit
    if top.rank == KING:
        plays = [(c,) for c in hand if c.suit == suit or c.rank == KING]
        return plays + _combinations(hand, THIRTEEN)
    target = THIRTEEN - VALUE[top]
    plays = [(c,) for c in hand if c.suit == suit or c.rank == KING or VALUE[c] == target]
    return plays + _combinations(hand, target)


def can_play(top: Card | None, hand: Sequence[Card]) -> bool:
    """Whether a hand kept in ORDER has any legal play."""
    if not hand:
        return False
    if top is None:
        return True
    suit = top.suit
    target = _target(top)
    top_is_king = top.rank == KING
    for c in hand:
        if c.suit == suit or c.rank == KING or (not top_is_king and VALUE[c] == target):
            return True
    return bool(_combinations(hand, target))


def canonical_play(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The listed form of a play: the leading cards in ascending order, the last card kept last."""
    if len(cards) <= 2:
        return tuple(cards)
    return (*sort_cards(cards[:-1]), cards[-1])
