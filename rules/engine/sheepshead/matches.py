"""A Sheepshead match: a fixed number of deals, the deal passing clockwise, most money wins."""

from __future__ import annotations

from rules.engine.match import FixedRoundsMatch
from rules.engine.sheepshead.results import result

start_match, next_match, match_over, match_winners = FixedRoundsMatch(result).functions()
