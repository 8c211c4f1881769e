"""A Hawsker bot that plays for its hand, seeing only its own seat's view, as a person would.

Every choice is judged by the hand it leaves: cards that score together (13s, pairs, runs, kings)
are kept, weighed against the chance of being left with no answer to the other player's next top
card (a king or a spread of suits keeps that low). It prefers top cards few unseen cards answer,
steals whenever a play empties its hand, and when robbed discards what leaves the stealer least.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

import rules.engine.hawsker as game
from rules.engine.cards import FULL_DECK, Card, parse_cards
from rules.engine.hawsker.determinize import determinize
from rules.engine.hawsker.scoring import KING, THIRTEEN, VALUE, score_hand, value_points
from rules.engine.hawsker.spec import PLAYS_EACH
from rules.engine.hawsker.views import bot_view
from rules.engine.moves import Move
from rules.engine.search import Chooser, SearchGame, level_chooser

SCORED_SIZE = 5  # cards a hand usually holds when it is scored
STUCK_COST = 2.0  # points lost beyond the hand itself when left without a play
OTHER_HAND = 6.0  # what the other hand is worth to the other player, roughly
OTHER_HOLDS = 6  # cards the other player usually holds while pegging


def _best_score(cards: Sequence[Card]) -> int:
    """The best score of the hand that could be kept from these cards (at most five of them).

    Only a flush depends on the suits, and a kept five are a flush only if five of the cards share a suit, so
    the rest is asked of the values alone (`_best_values`, kept by values: far fewer keys than hands, and
    plain integers, which the garbage collector need not walk; a cache of the hands themselves held tens of
    thousands of sets, and the collector's full passes over them were a search's slowest decisions).
    """
    if len(cards) <= SCORED_SIZE:
        return score_hand(cards)
    best = _best_values(tuple(sorted([VALUE[c] for c in cards])))
    suits = [c.suit for c in cards]
    for suit in set(suits):
        if suits.count(suit) >= SCORED_SIZE:
            same = tuple(sorted([VALUE[c] for c in cards if c.suit == suit]))
            best = max(best, _best_values(same) + SCORED_SIZE)  # a flush of five scores five
    return best


@lru_cache(maxsize=1 << 15)
def _best_values(values: tuple[int, ...]) -> int:
    """The best kings, thirteens, pairs and runs of any five of these values (ascending)."""
    return max(sum(value_points(five)) for five in set(combinations(values, SCORED_SIZE)))


def _answerable(cards: Sequence[Card]) -> tuple[frozenset[str], bool, int, int]:
    """What a hand can answer, as `can_play` decides it: its suits, whether it holds a king, and as bit masks
    (bit v for the value v) the values of its other cards (a single card making 13 with the top) and the sums
    of two or more of them (a combination).

    Playouts weigh every unseen top card against every candidate hand; asking `can_play` each time was
    most of a Hawsker playout's time. A test checks the two agree on every top card.
    """
    suits = frozenset(c.suit for c in cards)
    values = [VALUE[c] for c in cards if c.rank != KING]
    if len(values) < len(cards):
        return suits, True, 0, 0  # a king answers any top card: the sums are never asked
    singles, combos = _sums(tuple(sorted(values)))
    return suits, False, singles, combos


@lru_cache(maxsize=1 << 14)
def _sums(values: tuple[int, ...]) -> tuple[int, int]:
    """Bit masks of these values and of the sums (up to 13) of two or more of them: kept by values, as plain
    integers the garbage collector need not walk (see `_best_score`)."""
    singles = 0
    sums = 0  # bit t: one or more of the values seen so far add up to t
    combos = 0  # bit t: two or more of them do
    for v in values:
        grown = (sums << v) & _UP_TO_13
        combos |= grown
        sums |= grown | 1 << v
        singles |= 1 << v
    return singles, combos


_UP_TO_13 = (1 << (THIRTEEN + 1)) - 1


_TOPS: dict[Card, tuple[str, bool, int]] = {
    c: (c.suit, c.rank == KING, THIRTEEN if c.rank == KING else THIRTEEN - VALUE[c]) for c in FULL_DECK
}


def _stuck_chance(cards: Sequence[Card], unseen: Collection[Card]) -> float:
    """The share of cards the other player might lay on top that these cards could not answer."""
    if not unseen:
        return 0.0
    if not cards:
        return 1.0
    suits, king, singles, combos = _answerable(cards)
    if king:
        return 0.0  # a king answers any top card
    stuck = 0
    for top in unseen:
        suit, top_is_king, target = _TOPS[top]
        if suit in suits or combos >> target & 1 or (not top_is_king and singles >> target & 1):
            continue
        stuck += 1
    return stuck / len(unseen)


_ANSWERS: dict[Card, frozenset[Card]] = {
    top: frozenset(c for c in FULL_DECK if c.suit == top.suit or c.rank == KING
                   or (top.rank != KING and VALUE[c] == THIRTEEN - VALUE[top]))
    for top in FULL_DECK
}


def _answers(top: Card, unseen: frozenset[Card]) -> frozenset[Card]:
    """The unseen cards that could be laid on `top` on their own: its suit, kings, the card making 13."""
    return _ANSWERS[top] & unseen


@lru_cache(maxsize=1 << 12)
def _other_stuck_chance(answers: int, unseen: int) -> float:
    """Roughly how likely the other player holds none of `answers` of the `unseen` cards (kept: two integers
    ask it, and a playout asks it at every move)."""
    held = min(OTHER_HOLDS, unseen)
    chance = 1.0
    for i in range(held):
        chance *= max(0, unseen - answers - i) / (unseen - i)
    return chance


def _discard_worths(view: dict[str, Any], legal: Sequence[Move], hand: tuple[Card, ...]) -> list[float]:
    phase = view["phase"]
    robbed = phase == "final" and view.get("ending") == "steal" and view.get("ender") != view["seat"]

    def worth(move: Move) -> float:
        rest = tuple(c for c in hand if c != move.cards[0])
        if phase == "final":
            score = score_hand(rest)
            return -score if robbed else score
        return _best_score(rest) - STUCK_COST * _stuck_chance(rest, FULL_DECK)

    return [worth(move) for move in legal]


def _play_worths(view: dict[str, Any], legal: Sequence[Move], hand: tuple[Card, ...]) -> list[float]:
    seat = view["seat"]
    seen = set(hand)
    for play in view.get("plays", []):
        seen.update(parse_cards(play["cards"]))
    seen.update(parse_cards(view.get("discards", [])))
    unseen = frozenset(FULL_DECK) - seen
    last_play = view["plays_made"][seat] + 1 >= PLAYS_EACH

    def worth(move: Move) -> float:
        rest = tuple(c for c in hand if c not in move.cards)
        if not rest:
            return 1000.0  # a steal: score the other hand, and the other scores nothing
        value = float(_best_score(rest))
        answers = _answers(move.cards[-1], unseen)
        if not last_play:
            # The other player's next top card is most likely one that answers ours.
            stuck = _stuck_chance(rest, answers or unseen)
            value = value * (1 - stuck) - STUCK_COST * stuck
        return value + OTHER_HAND * _other_stuck_chance(len(answers), len(unseen))

    return [worth(move) for move in legal]


def worths(view: dict[str, Any], legal: Sequence[Move]) -> list[float]:
    """What the heuristics think of each legal move (more is better)."""
    hand = parse_cards(view["hand"])
    if view["phase"] == "play":
        return _play_worths(view, legal, hand)
    return _discard_worths(view, legal, hand)


def choose(view: dict[str, Any], legal: list[Move]) -> Move:
    if len(legal) == 1:
        return legal[0]
    values = worths(view, legal)
    return legal[values.index(max(values))]  # the first of the best, as max(legal, key=...) picked


def ranked(view: dict[str, Any], legal: Sequence[Move]) -> list[Move]:
    """The legal moves best first by the heuristics (ties in the order given): the search's shortlist, whose
    first move is `choose`'s."""
    if len(legal) == 1:
        return list(legal)
    values = worths(view, legal)
    order = sorted(range(len(legal)), key=lambda i: -values[i])
    return [legal[i] for i in order]


BUDGETS: dict[str, int] = {"normal": 30, "strong": 80}
"""Playouts per decision for the search levels (strong stays within 200 ms a decision: see bench_bots)."""

WIDTHS: dict[str, int] = {"normal": 2, "strong": 2}
"""How many of the heuristics' best moves the search weighs. Spread over all of a hand's eight or so moves, 30
play-outs are three or four a move and the search did worse than its policy; on its two best, the search beats
it (the engine's README)."""

SEARCH = SearchGame(module=game, determinize=determinize, policy=choose, observe=bot_view,  # type: ignore[arg-type]
                    shortlist=ranked)  # type: ignore[arg-type]


def chooser(level: str, seed: str) -> Chooser:
    """`easy`: `choose` above; `normal`, `strong`: determinized search with `choose` playing the playouts."""
    return level_chooser(SEARCH, choose, BUDGETS, level, seed, WIDTHS)  # type: ignore[arg-type]
