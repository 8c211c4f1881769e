"""A Hawk match: a fixed number of deals, the dealer moving left, highest total wins.

NOB's totals stay as they are each round (their delta is 0), so the shared fixed-length match
covers everything Hawk needs; nothing else carries between rounds.
"""

from __future__ import annotations

from rules.engine.hawk.play import result
from rules.engine.match import FixedRoundsMatch

start_match, next_match, match_over, match_winners = FixedRoundsMatch(result).functions()
