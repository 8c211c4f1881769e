"""Puskiyon: a shedding game where a card must match the top of the pile by rank or suit.

The package splits the game by what changes together (deal, turns, views, match, bot); this module
gathers the common engine API and the public scoring helper so `rules.engine.puskiyon.<name>` works.
"""

from __future__ import annotations

from rules.engine.puskiyon.deal import new_round
from rules.engine.puskiyon.matchplay import match_over, match_winners, next_match, start_match
from rules.engine.puskiyon.scoring import hand_points, matches
from rules.engine.puskiyon.spec import SPEC, hand_size
from rules.engine.puskiyon.state import State, from_json, to_json
from rules.engine.puskiyon.turns import apply, blocked, legal_moves, result, to_act
from rules.engine.puskiyon.view import last_event, view

__all__ = [
    "SPEC",
    "State",
    "apply",
    "blocked",
    "from_json",
    "hand_points",
    "hand_size",
    "last_event",
    "legal_moves",
    "match_over",
    "match_winners",
    "matches",
    "new_round",
    "next_match",
    "result",
    "start_match",
    "to_act",
    "to_json",
    "view",
]
