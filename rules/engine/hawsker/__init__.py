"""Hawsker, the two-player pegging game from Whitby, as the engine's common game shape.

Everything the web layer, the bench and the tests need is re-exported here so that
`rules.engine.hawsker.<name>` works; the modules behind it are split by what they hold.
"""

from __future__ import annotations

from rules.engine.hawsker.deal import new_round
from rules.engine.hawsker.matches import match_over, match_winners, next_match, start_match
from rules.engine.hawsker.scoring import is_legal_play, score_breakdown, score_hand
from rules.engine.hawsker.spec import SPEC
from rules.engine.hawsker.state import State, from_json, to_json
from rules.engine.hawsker.turns import apply, legal_moves, to_act
from rules.engine.hawsker.views import last_event, result, view

__all__ = [
    "SPEC",
    "State",
    "apply",
    "from_json",
    "is_legal_play",
    "last_event",
    "legal_moves",
    "match_over",
    "match_winners",
    "new_round",
    "next_match",
    "result",
    "score_breakdown",
    "score_hand",
    "start_match",
    "to_act",
    "to_json",
    "view",
]
