"""Sheepshead for 3 to 7 players: the engine API and the public scoring helpers in one namespace.

The web layer, the bench and the tests reach every game as `rules.engine.<key>.<name>`, so this
package only gathers names from the modules that hold them.
"""

from __future__ import annotations

from rules.engine.sheepshead.deck import deal_sizes, trick_winner
from rules.engine.sheepshead.matches import match_over, match_winners, next_match, start_match
from rules.engine.sheepshead.play import apply, legal_moves, new_round, to_act
from rules.engine.sheepshead.results import result
from rules.engine.sheepshead.scoring import leaster_winner, picker_rate, settle, settle_leaster
from rules.engine.sheepshead.spec import SPEC
from rules.engine.sheepshead.state import State, from_json, to_json
from rules.engine.sheepshead.views import last_event, tricks_done, view

__all__ = [
    "SPEC",
    "State",
    "apply",
    "deal_sizes",
    "from_json",
    "last_event",
    "leaster_winner",
    "legal_moves",
    "match_over",
    "match_winners",
    "new_round",
    "next_match",
    "picker_rate",
    "result",
    "settle",
    "settle_leaster",
    "start_match",
    "to_act",
    "to_json",
    "trick_winner",
    "tricks_done",
    "view",
]
