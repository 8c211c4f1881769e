"""A full Puskiyon state that agrees with one seat's view: the search's guess at the hidden cards.

The seat's own hand (with the card it just drew, which its view names), the top cards of the pile the
view lists, the pile's and stock's sizes and the other hands' sizes are kept; every other card is dealt
at random to the other hands, the stock (its order is the draws to come) and the buried part of the
pile. Puskiyon shows no voids (a player may draw while holding a match), so no hand is constrained.
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
    recent = parse_cards(view["pile_recent"])
    unseen = [c for c in FULL_DECK if c not in set(hand) | set(recent)]
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
    buried = tuple(unseen[taken + stock_count :])
    drawn = view.get("drawn")
    last = (me, DREW, parse_cards([drawn])[0]) if drawn else NO_LAST
    table = Table(players=players, target=int(view["target"]), seed=f"guess-{rng.random()}",
                  dealer=int(view["dealer"]), totals=tuple(int(t) for t in view["totals"]))
    return State(table=table, hands=tuple(hands), stock=stock, pile=buried + recent, turn=view["to_act"],
                 passes=int(view["passes"]), last=last)
