"""A Sheepshead match: a fixed number of deals, the deal passing clockwise, most money wins."""

from __future__ import annotations

from rules.engine import match as shared
from rules.engine.api import Config, Match
from rules.engine.sheepshead.results import result
from rules.engine.sheepshead.state import State


def start_match(config: Config, seed: str) -> Match:
    return shared.first_match(config, seed)


def next_match(config: Config, match: Match, state: State) -> Match:
    return shared.after_round(match, result(state), config.players)


def match_over(config: Config, match: Match) -> bool:
    return shared.fixed_rounds_over(config, match)


def match_winners(config: Config, match: Match) -> list[int]:
    return shared.highest_totals(match)
