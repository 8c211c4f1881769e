"""Hawk: forty number cards, a ring of trumping suits, and two parties made by the first and last tricks.

The package re-exports the engine API and the public scoring helpers so that
`rules.engine.hawk.<name>` works for the registry, the web layer and the tests alike.
"""

from __future__ import annotations

from rules.engine.hawk.deck import DECK, PIPS, TRUMPED_BY, deal_size, trick_winner
from rules.engine.hawk.flow import match_over, match_winners, next_match, start_match
from rules.engine.hawk.play import apply, legal_moves, new_round, result, to_act
from rules.engine.hawk.scoring import (
    BONUS_KINDS,
    HawkScore,
    base_factor,
    score_from_facts,
    score_round,
    score_tricks,
    trick_bonuses,
)
from rules.engine.hawk.spec import SPEC
from rules.engine.hawk.state import Deal, State, Trick, from_json, to_json
from rules.engine.hawk.views import last_event, tricks_done, view

__all__ = [
    "BONUS_KINDS",
    "DECK",
    "PIPS",
    "SPEC",
    "TRUMPED_BY",
    "Deal",
    "HawkScore",
    "State",
    "Trick",
    "apply",
    "base_factor",
    "deal_size",
    "from_json",
    "last_event",
    "legal_moves",
    "match_over",
    "match_winners",
    "new_round",
    "next_match",
    "result",
    "score_from_facts",
    "score_round",
    "score_tricks",
    "start_match",
    "to_act",
    "to_json",
    "trick_bonuses",
    "trick_winner",
    "tricks_done",
    "view",
]
