"""A Hawk match: a fixed number of deals, the dealer moving left, highest total wins.

NOB's totals stay as they are each round (their delta is 0), so the shared helpers for
fixed-length matches cover everything Hawk needs; nothing else carries between rounds.
"""

from __future__ import annotations

from rules.engine import match as shared
from rules.engine.api import Config, Match
from rules.engine.hawk.play import result
from rules.engine.hawk.state import State


def start_match(config: Config, seed: str) -> Match:
    return shared.first_match(config, seed)


def next_match(config: Config, match: Match, state: State) -> Match:
    return shared.after_round(match, result(state), config.players)


def match_over(config: Config, match: Match) -> bool:
    return shared.fixed_rounds_over(config, match)


def match_winners(config: Config, match: Match) -> list[int]:
    """Every seat with the highest total (several on a tie)."""
    return shared.highest_totals(match)
