"""A Hawsker match: rounds until someone reaches the target with more points than the other.

The deal continues across rounds, so what a round leaves behind (the hands kept, the stock, the
waste pile, the reshuffle count) travels to the next round in `Match.carry` as plain JSON.
"""

from __future__ import annotations

from typing import Any

from rules.engine.api import Config, Match
from rules.engine.hawsker.spec import PLAYERS, target
from rules.engine.hawsker.state import State


def start_match(config: Config, seed: str) -> Match:
    """Seat 1 is the dealer for the whole match (it only decides who gets the first card)."""
    return Match(number=0, dealer=PLAYERS - 1, totals=(0,) * PLAYERS, seed=seed)


def carry_of(state: State) -> dict[str, Any]:
    """What the next round starts from; the played cards left on the table join the waste."""
    return {
        "hands": [[str(c) for c in h] for h in state.hands],
        "stock": [str(c) for c in state.stock],
        "waste": [str(c) for c in state.waste + state.table],
        "restocks": state.restocks,
    }


def next_match(config: Config, match: Match, state: State) -> Match:
    if state.phase != "over":
        raise ValueError("The round is not over yet.")
    return Match(
        number=match.number + 1,
        dealer=match.dealer,
        totals=tuple(t + s for t, s in zip(match.totals, state.scores, strict=True)),
        seed=match.seed,
        carry=carry_of(state),
    )


def match_over(config: Config, match: Match) -> bool:
    """Someone has reached the target and the totals differ (level totals play another round)."""
    return max(match.totals) >= target(config) and len(set(match.totals)) > 1


def match_winners(config: Config, match: Match) -> list[int]:
    """The seat with the most points once the match is over; nobody before."""
    if not match_over(config, match):
        return []
    best = max(match.totals)
    return [seat for seat, total in enumerate(match.totals) if total == best]
