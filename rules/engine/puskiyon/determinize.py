"""A full Puskiyon state that agrees with one seat's view: the search's guess at the hidden cards.

The seat's own hand (with the card it just drew, which its view names), the whole pile (every card of it
was played face up, so the seat has seen them all), the stock's size and the other hands' sizes are kept;
every other card is dealt at random to the other hands and the stock (its order is the draws to come).
Puskiyon shows no voids (a player may draw while holding a match), but a draw or a pass usually means the
player held no match (`reading`): each card of another hand is dealt, where the unseen cards allow it, one
that does not match the tops its holder has declined since it came in, the most constrained cards first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.engine.cards import FULL_DECK, Card, parse_cards
from rules.engine.puskiyon.scoring import MATCHES
from rules.engine.puskiyon.state import DREW, NO_LAST, Last, State, Table, build
from rules.engine.sampling import OncePerView


@lru_cache(maxsize=4096)
def _excluded(tops: tuple[str, ...]) -> frozenset[Card]:
    """The cards that would have matched any of these tops (kept: a search guesses hundreds of times from one view)."""
    return frozenset().union(*(MATCHES[top] for top in parse_cards(tops)))


@dataclass(frozen=True, slots=True)
class _Facts:
    """What every guess from one view shares: read once, then reused for the hundreds of guesses of a decision."""

    unseen: tuple[Card, ...]  # in deck order, before the guess shuffles it
    # (seat, the cards it rules out) per card of another hand that the reading constrains, the most ruled out first
    constrained: tuple[tuple[int, frozenset[Card]], ...]
    free: tuple[int, ...]  # the seat of each other card the reading leaves free, in seat order: dealt last, in turn
    hands: tuple[tuple[Card, ...], ...]  # the seat's own hand in its place, the others empty
    pile: tuple[Card, ...]
    last: Last
    players: int
    me: int
    target: int
    dealer: int
    totals: tuple[int, ...]
    to_act: int | None
    passes: int
    steps: str


@OncePerView
def _facts(view: Mapping[str, Any]) -> _Facts:
    players = int(view["players"])
    me = int(view["seat"])
    hand = parse_cards(view["hand"])
    pile = parse_cards(view["pile_seen"])
    seen = set(hand) | set(pile)
    unseen = tuple(c for c in FULL_DECK if c not in seen)
    stock_count = int(view["stock_count"])
    held = sum(int(count) for seat, count in enumerate(view["hand_counts"]) if seat != me)
    if held + stock_count != len(unseen):
        raise ValueError("the view's counts do not add up to the cards it has not seen")
    slots = []  # (how many cards it rules out, seat, the cards it rules out), one per card of another hand
    for seat in range(players):
        if seat == me:
            continue
        readings = view["declined"][seat]
        count = int(view["hand_counts"][seat])
        if len(readings) != count:
            raise ValueError("the view's reading of a hand does not match its size")
        for tops in readings:
            excluded = _excluded(tuple(tops))
            slots.append((len(excluded), seat, excluded))
    slots.sort(key=lambda slot: -slot[0])
    drawn = view.get("drawn")
    to_act = view["to_act"]
    facts = _Facts(
        unseen=unseen,
        constrained=tuple((seat, excluded) for _size, seat, excluded in slots if excluded),
        free=tuple(seat for _size, seat, excluded in slots if not excluded),
        hands=tuple(hand if seat == me else () for seat in range(players)),
        pile=pile,
        last=(me, DREW, parse_cards([drawn])[0]) if drawn else NO_LAST,
        players=players,
        me=me,
        target=int(view["target"]),
        dealer=int(view["dealer"]),
        totals=tuple(int(t) for t in view["totals"]),
        to_act=None if to_act is None else int(to_act),
        passes=int(view["passes"]),
        steps=str(view["steps"]),
    )
    return facts


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    facts = _facts(view)
    unseen = list(facts.unseen)
    rng.shuffle(unseen)
    dealt = [list(hand) for hand in facts.hands]
    for seat, excluded in facts.constrained:
        pick = next((i for i, c in enumerate(unseen) if c not in excluded), 0)  # none allowed: the reading was wrong
        dealt[seat].append(unseen.pop(pick))
    free = len(facts.free)
    for seat, c in zip(facts.free, unseen, strict=False):  # a free card takes the first card left, in turn
        dealt[seat].append(c)
    table = Table(players=facts.players, target=facts.target, seed=f"guess-{rng.random()}", dealer=facts.dealer,
                  totals=facts.totals)
    return build(table, tuple(map(tuple, dealt)), tuple(unseen[free:]), facts.pile, facts.to_act, facts.passes,
                 facts.last, facts.steps)
