"""Match bookkeeping shared by the games whose matches last a fixed number of deals.

Sheepshead and Hawk end after the number of rounds the table chose (option `rounds`, 0 meaning
once round the table so everybody deals once); the dealer moves one seat clockwise each round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine.api import Config, Match, OptionSpec, RoundResult
from rules.engine.text import said

ROUNDS_OPTION = OptionSpec(
    name="rounds",
    label=said("Rounds in a match"),
    default=0,
    help=said("How many deals make a match; 0 plays once round the table, so everybody deals once."),
    minimum=0,
    maximum=50,
    zero_text=said("once round the table"),
)


def first_match(config: Config, seed: str) -> Match:
    """The dealer of the first round is the last seat, so seat 0 sits left of the dealer."""
    return Match(number=0, dealer=config.players - 1, totals=(0,) * config.players, seed=seed)


def after_round(match: Match, result: RoundResult, players: int, carry: dict | None = None) -> Match:
    return Match(
        number=match.number + 1,
        dealer=(match.dealer + 1) % players,
        totals=tuple(t + d for t, d in zip(match.totals, result.deltas, strict=True)),
        seed=match.seed,
        carry=carry,
    )


def rounds_in_match(config: Config) -> int:
    chosen = int(config.get("rounds"))
    return chosen or config.players


def fixed_rounds_over(config: Config, match: Match) -> bool:
    return match.number >= rounds_in_match(config)


def highest_totals(match: Match) -> list[int]:
    best = max(match.totals)
    return [seat for seat, total in enumerate(match.totals) if total == best]


def lowest_totals(match: Match) -> list[int]:
    best = min(match.totals)
    return [seat for seat, total in enumerate(match.totals) if total == best]


class FixedRoundsMatch:
    """The four match functions of a game whose match is a fixed number of deals, highest total winning.

    A game module binds them with its own `result`: `start_match, next_match, match_over, match_winners =
    FixedRoundsMatch(result).functions()`.
    """

    def __init__(self, result: Callable[[Any], RoundResult]) -> None:
        self.result = result

    def start_match(self, config: Config, seed: str) -> Match:
        return first_match(config, seed)

    def next_match(self, config: Config, match: Match, state: Any) -> Match:
        return after_round(match, self.result(state), config.players)

    def match_over(self, config: Config, match: Match) -> bool:
        return fixed_rounds_over(config, match)

    def match_winners(self, config: Config, match: Match) -> list[int]:
        """Every seat with the highest total (several on a tie)."""
        return highest_totals(match)

    def functions(self) -> tuple[Callable[..., Any], ...]:
        return self.start_match, self.next_match, self.match_over, self.match_winners
