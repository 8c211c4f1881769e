"""Hawk as the search plays it out: the engine's own moves, and a result that is only the points.

`search.seat_value` reads nothing of a finished play-out but `result(state).deltas`, and building the
round's summary (its headline, bonus events and score dictionary) was about a third of a play-out. The
search is handed this module instead of the package; every move still goes through the engine's `apply`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.hawk.play import apply, legal_moves, to_act
from rules.engine.hawk.scoring import tally_deltas
from rules.engine.hawk.state import State
from rules.engine.hawk.views import view

__all__ = ["Points", "apply", "legal_moves", "result", "to_act", "view"]


@dataclass(frozen=True, slots=True)
class Points:
    """What the search reads of a finished round: each seat's points, as `RoundResult.deltas`."""

    deltas: tuple[int, ...]


def result(state: State) -> Points:
    if state.turn is not None:
        raise ValueError("the round is not over yet")
    tricks = [(t.winner, t.cards) for t in state.tricks]
    return Points(tally_deltas(state.players, tricks, bool(state.config.get("bonus_per_trick"))))
