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
from functools import lru_cache
from typing import Any

from rules.engine.cards import FULL_DECK, Card, parse_cards
from rules.engine.puskiyon.scoring import MATCHES
from rules.engine.puskiyon.state import DREW, NO_LAST, State, Table


@lru_cache(maxsize=4096)
def _excluded(tops: tuple[str, ...]) -> frozenset[Card]:
    """The cards that would have matched any of these tops (kept: a search guesses hundreds of times from one view)."""
    return frozenset().union(*(MATCHES[top] for top in parse_cards(tops)))


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    players = int(view["players"])
    me = int(view["seat"])
    hand = parse_cards(view["hand"])
    pile = parse_cards(view["pile_seen"])
    seen = set(hand) | set(pile)
    unseen = [c for c in FULL_DECK if c not in seen]
    rng.shuffle(unseen)
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
    dealt: list[list[Card]] = [[] for _ in range(players)]
    for _size, seat, excluded in slots:
        pick = next((i for i, c in enumerate(unseen) if c not in excluded), 0)  # none allowed: the reading was wrong
        dealt[seat].append(unseen.pop(pick))
    hands = [hand if seat == me else tuple(dealt[seat]) for seat in range(players)]
    stock = tuple(unseen)
    drawn = view.get("drawn")
    last = (me, DREW, parse_cards([drawn])[0]) if drawn else NO_LAST
    table = Table(players=players, target=int(view["target"]), seed=f"guess-{rng.random()}",
                  dealer=int(view["dealer"]), totals=tuple(int(t) for t in view["totals"]))
    return State(table=table, hands=tuple(hands), stock=stock, pile=pile, turn=view["to_act"],
                 passes=int(view["passes"]), last=last, steps=str(view["steps"]))
