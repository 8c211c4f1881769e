"""Builders the Hawk tests share: whole rounds of tricks with chosen bonuses, and hand-made states.

Scoring tests need real rounds (every card once, a trick per deal size) whose only bonuses are
the ones a test put there on purpose; rule tests need states with chosen hands, which no seed
would deal on request.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.engine.api import Config
from rules.engine.cards import Card, parse_cards
from rules.engine.hawk import DECK, SPEC, Deal, State, Trick, deal_size, trick_bonuses, trick_winner
from rules.engine.hawk.deck import sort_hand

BASE_TRICKS_4P: tuple[str, ...] = (
    "AC 2D 3H 5S",  # 11
    "2C 3D 4H 4S",  # 13
    "3C 4D 5H 6S",  # 18
    "4C 5D 6H 7S",  # 22
    "5C 6D 7H 8S",  # 26
    "6C 7D 8H 9S",  # 30
    "7C 8D 9H 10S",  # 34
    "8C 9D 10H AS",  # 28
    "9C 10D AH 2S",  # 22
    "10C AD 2H 3S",  # 16
)
"""All forty cards in ten 4-card tricks, none showing a bonus; 220 pips."""


def tricks_of(texts: Sequence[str]) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


def fill_round(players: int, special: Sequence[str] = (), seed: int = 0) -> list[tuple[Card, ...]]:
    """The `special` tricks followed by tricks of the remaining cards that show no bonus.

    The filler is found by reshuffling the rest (seeded) until no filler trick shows a bonus.
    """
    chosen = [parse_cards(t) for t in special]
    used = {c for trick in chosen for c in trick}
    assert len(used) == sum(len(t) for t in chosen), "a special card appears twice"
    assert all(len(t) == players for t in chosen)
    rest = [c for c in DECK if c not in used]
    wanted = deal_size(players) - len(chosen)
    rng = random.Random(seed)
    for _attempt in range(10_000):
        rng.shuffle(rest)
        filler = [tuple(rest[i * players : (i + 1) * players]) for i in range(wanted)]
        if not any(trick_bonuses(t, players) for t in filler):
            return chosen + filler
    raise AssertionError("no bonus-free filler found")


def state_with(hands: Sequence[str], *, dealer: int | None = None, options: dict | None = None) -> State:
    """A fresh round (nobody has played) with these hands, in seat order."""
    players = len(hands)
    config: Config = SPEC.make_config(players, options or {})
    dealt = tuple(sort_hand(parse_cards(h)) for h in hands)
    dealer = players - 1 if dealer is None else dealer
    held = {c for h in dealt for c in h}
    out = tuple(c for c in DECK if c not in held)
    leader = (dealer + 1) % players
    return State(
        deal=Deal(config=config, seed="hand-made", dealer=dealer, dealt=dealt, out=out),
        hands=dealt,
        leader=leader,
        table=(),
        tricks=(),
        turn=leader,
    )


def state_midway(hands: Sequence[str], history: Sequence[str], *, dealer: int | None = None) -> State:
    """A round some tricks in: `history` holds the finished tricks' cards in play order (the first
    led from the dealer's left, each next one by the taker of the one before); `hands` what is left.

    Nothing else of the deal exists, so every card not in `hands` or `history` is out of play.
    """
    players = len(hands)
    config = SPEC.make_config(players)
    dealer = players - 1 if dealer is None else dealer
    leader = (dealer + 1) % players
    tricks = []
    for text in history:
        cards = parse_cards(text)
        assert len(cards) == players
        winner = (leader + trick_winner(cards)) % players
        tricks.append(Trick(leader=leader, winner=winner, cards=cards))
        leader = winner
    left = tuple(sort_hand(parse_cards(h)) for h in hands)
    held = {c for h in left for c in h} | {c for t in tricks for c in t.cards}
    out = tuple(c for c in DECK if c not in held)
    return State(
        deal=Deal(config=config, seed="hand-made", dealer=dealer, dealt=left, out=out),
        hands=left,
        leader=leader,
        table=(),
        tricks=tuple(tricks),
        turn=leader,
    )
