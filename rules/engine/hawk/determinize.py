"""A full Hawk state that agrees with one seat's view: the search's guess at the hidden cards.

Finished tricks are public in Hawk, so the view's history is kept exactly and the seat's own hand too.
The unseen cards are dealt to the other hands (as many as each holds, none of a suit it has shown it
lacks by not following) and to the out-of-play packet, which nobody has seen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.cards import Card, card
from rules.engine.hawk.deck import DECK, SORT_KEY
from rules.engine.hawk.spec import SPEC
from rules.engine.hawk.state import Deal, State, Trick
from rules.engine.sampling import Slot, deal_hidden


def _lacking(void: frozenset[str]) -> Any:
    return (lambda c: c[1] not in void) if void else None


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    players = int(view["players"])
    me = int(view["seat"])
    hand = tuple(card(t) for t in view["hand"])
    tricks = tuple(
        Trick(int(t["leader"]), int(t["winner"]), tuple(card(e["card"]) for e in t["cards"])) for t in view["history"]
    )
    table = tuple(card(e["card"]) for e in view["trick"])
    leader = int(view["leader"])
    voids: list[set[str]] = [set() for _ in range(players)]
    played: dict[int, list[Card]] = {s: [] for s in range(players)}
    for seq in [*[(t.leader, t.cards) for t in tricks], (leader, table)]:
        first, cards = seq
        for i, c in enumerate(cards):
            seat = (first + i) % players
            played[seat].append(c)
            if i and c[1] != cards[0][1]:
                voids[seat].add(cards[0][1])
    seen = set(hand) | {c for cards in played.values() for c in cards}
    pool = [c for c in DECK if c not in seen]
    counts = list(view["hand_counts"])
    seats = [s for s in range(players) if s != me]
    slots = [Slot(counts[s], _lacking(frozenset(voids[s]))) for s in seats]
    slots.append(Slot(int(view["out_of_play"])))
    dealt = deal_hidden(pool, slots, rng)
    hands: list[tuple[Card, ...]] = [()] * players
    hands[me] = hand
    for seat, cards in zip(seats, dealt, strict=False):
        hands[seat] = tuple(sorted(cards, key=SORT_KEY.__getitem__))
    config = SPEC.make_config(players, {"bonus_per_trick": bool(view["bonus_per_trick"])})
    at_deal = tuple(tuple(sorted((*hands[s], *played[s]), key=SORT_KEY.__getitem__)) for s in range(players))
    deal = Deal(config=config, seed=f"guess-{rng.random()}", dealer=int(view["dealer"]), dealt=at_deal,
                out=tuple(sorted(dealt[-1], key=SORT_KEY.__getitem__)))
    return State(deal=deal, hands=tuple(hands), leader=leader, table=table, tricks=tricks, turn=view["to_act"])
