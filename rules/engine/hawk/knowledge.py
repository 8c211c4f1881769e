"""What a bot can work out from its seat's view alone: unseen cards, voids, pips, bonuses so far.

The bot never sees the state, only `view(state, seat)`; everything here is rebuilt from that
dict, so the bot cannot know more than a person sitting in that seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine.cards import Card, card
from rules.engine.hawk.deck import DECK
from rules.engine.hawk.scoring import examine_trick


@dataclass(frozen=True, slots=True)
class Seen:
    players: int
    me: int
    hand: tuple[Card, ...]
    leader: int
    table: tuple[Card, ...]  # the trick so far, in play order
    counts: tuple[int, ...]  # cards still held per seat
    unseen: tuple[Card, ...]  # in other hands or out of play (which, nobody knows)
    voids: tuple[frozenset[str], ...]  # suits each seat has shown it lacks
    pips_won: tuple[int, ...]
    first_taker: int | None
    events: tuple[tuple[int, str], ...]  # (taker, bonus kind) of finished tricks
    per_trick: bool


def read_view(view: dict[str, Any]) -> Seen:
    players = int(view["players"])
    me = int(view["seat"])
    hand = tuple(card(t) for t in view["hand"])
    table = tuple(card(e["card"]) for e in view["trick"])
    played: set[Card] = set(table)
    voids: list[set[str]] = [set() for _ in range(players)]
    events: list[tuple[int, str]] = []
    finished = [[(e["seat"], card(e["card"])) for e in t["cards"]] for t in view["history"]]
    for number, trick in enumerate(finished):
        cards = tuple(c for _s, c in trick)
        played.update(cards)
        winner = int(view["history"][number]["winner"])
        events.extend((winner, kind) for kind in examine_trick(cards, players)[1])
    for trick in [*finished, [(e["seat"], card(e["card"])) for e in view["trick"]]]:
        if trick:
            led = trick[0][1].suit
            for seat, c in trick[1:]:
                if c.suit != led:
                    voids[seat].add(led)
    unseen = tuple(c for c in DECK if c not in played and c not in hand)
    return Seen(
        players=players,
        me=me,
        hand=hand,
        leader=int(view["leader"]),
        table=table,
        counts=tuple(int(n) for n in view["hand_counts"]),
        unseen=unseen,
        voids=tuple(frozenset(v) for v in voids),
        pips_won=tuple(int(p) for p in view["pips_won"]),
        first_taker=view["first_trick_taker"],
        events=tuple(events),
        per_trick=bool(view.get("bonus_per_trick", False)),
    )
