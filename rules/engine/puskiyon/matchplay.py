"""A Puskiyon match: hands are dealt until somebody's total reaches the target; lowest total wins.

Unlike the fixed-length matches in `rules.engine.match`, the end depends on the totals, and the
first dealer is drawn at random from the match seed rather than fixed.
"""

from __future__ import annotations

from rules.engine import rng
from rules.engine.api import Config, Match
from rules.engine.match import after_round, lowest_totals
from rules.engine.puskiyon.state import State
from rules.engine.puskiyon.turns import result


def start_match(config: Config, seed: str) -> Match:
    """The first dealer is chosen at random (from the match seed); nobody has any points yet."""
    dealer = rng.derive(seed, "dealer").randrange(config.players)
    return Match(number=0, dealer=dealer, totals=(0,) * config.players, seed=seed)


def next_match(config: Config, match: Match, state: State) -> Match:
    """After a finished hand: each seat adds what it was left holding; the deal passes clockwise."""
    return after_round(match, result(state), config.players)


def match_over(config: Config, match: Match) -> bool:
    return max(match.totals) >= int(config.get("target"))


def match_winners(config: Config, match: Match) -> list[int]:
    """Every seat with the lowest total (a tie shares the win)."""
    return lowest_totals(match)
