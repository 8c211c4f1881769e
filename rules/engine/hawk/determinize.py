"""A full Hawk state that agrees with one seat's view: the search's guess at the hidden cards.

Finished tricks are public in Hawk, so the view's history is kept exactly and the seat's own hand too.
The unseen cards are dealt to the other hands (as many as each holds, none of a suit it has shown it
lacks by not following) and to the out-of-play packet, which nobody has seen.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.api import Config
from rules.engine.cards import Card, card
from rules.engine.hawk.deck import DECK, SORT_KEY
from rules.engine.hawk.spec import SPEC
from rules.engine.hawk.state import Deal, State, Trick
from rules.engine.sampling import OncePerView, Slot, deal_hidden


def _lacking(void: frozenset[str]) -> Any:
    return (lambda c: c[1] not in void) if void else None


@dataclass(frozen=True, slots=True)
class _Facts:
    """What every guess from one view shares: read once, then reused for the hundreds of guesses of a decision."""

    pool: tuple[Card, ...]  # the unseen cards in deck order, before the guess shuffles them
    slots: tuple[Slot, ...]  # the other seats' hands (none of a suit the seat has shown it lacks), then the out packet
    seats: tuple[int, ...]  # the seat of each hand slot
    hands: tuple[tuple[Card, ...], ...]  # the seat's own hand in its place, the others empty
    played: tuple[tuple[Card, ...], ...]  # each seat's cards played so far
    config: Config
    dealer: int
    leader: int
    table: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    to_act: int | None


@OncePerView
def _facts(view: Mapping[str, Any]) -> _Facts:
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
    counts = list(view["hand_counts"])
    seats = tuple(s for s in range(players) if s != me)
    slots = [Slot(counts[s], _lacking(frozenset(voids[s]))) for s in seats]
    slots.append(Slot(int(view["out_of_play"])))
    facts = _Facts(
        pool=tuple(c for c in DECK if c not in seen),
        slots=tuple(slots),
        seats=seats,
        hands=tuple(hand if s == me else () for s in range(players)),
        played=tuple(tuple(played[s]) for s in range(players)),
        config=SPEC.make_config(players, {"bonus_per_trick": bool(view["bonus_per_trick"])}),
        dealer=int(view["dealer"]),
        leader=leader,
        table=table,
        tricks=tricks,
        to_act=view["to_act"],
    )
    return facts


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    facts = _facts(view)
    dealt = deal_hidden(facts.pool, facts.slots, rng)
    hands = list(facts.hands)
    for seat, cards in zip(facts.seats, dealt, strict=False):
        hands[seat] = _sorted(cards)
    at_deal = tuple(_sorted((*hands[s], *facts.played[s])) for s in range(len(hands)))
    deal = Deal(config=facts.config, seed=f"guess-{rng.random()}", dealer=facts.dealer, dealt=at_deal,
                out=_sorted(dealt[-1]))
    return State(deal=deal, hands=tuple(hands), leader=facts.leader, table=facts.table, tricks=facts.tricks,
                 turn=facts.to_act)
