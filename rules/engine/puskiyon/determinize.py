"""A full Puskiyon state that agrees with one seat's view: the search's guess at the hidden cards.

The seat's own hand (with the card it just drew, which its view names), the whole pile (every card of it
was played face up, so the seat has seen them all), the stock's size and the other hands' sizes are kept;
every other card is dealt at random to the other hands and the stock (its order is the draws to come).
Puskiyon shows no voids (a player may draw while holding a match), so no hand is constrained.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.cards import FULL_DECK, parse_cards
from rules.engine.puskiyon.state import DREW, NO_LAST, State, Table


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    players = int(view["players"])
    me = int(view["seat"])
    hand = parse_cards(view["hand"])
    pile = parse_cards(view["pile_seen"])
    seen = set(hand) | set(pile)
    unseen = [c for c in FULL_DECK if c not in seen]
    rng.shuffle(unseen)
    hands = []
    taken = 0
    for seat in range(players):
        if seat == me:
            hands.append(hand)
            continue
        count = int(view["hand_counts"][seat])
        hands.append(tuple(unseen[taken : taken + count]))
        taken += count
    stock_count = int(view["stock_count"])
    stock = tuple(unseen[taken : taken + stock_count])
    if taken + stock_count != len(unseen):
        raise ValueError("the view's counts do not add up to the cards it has not seen")
    drawn = view.get("drawn")
    last = (me, DREW, parse_cards([drawn])[0]) if drawn else NO_LAST
    table = Table(players=players, target=int(view["target"]), seed=f"guess-{rng.random()}",
                  dealer=int(view["dealer"]), totals=tuple(int(t) for t in view["totals"]))
    return State(table=table, hands=tuple(hands), stock=stock, pile=pile, turn=view["to_act"],
                 passes=int(view["passes"]), last=last)
