"""A steady Puskiyon player that sees only its own seat's view.

Points come from cards still held when the hand stops, so it sheds whenever it can, heaviest cards
first; among similar cards it plays from a suit it holds several of, so the pile is left in a suit it
can follow next time and it does not throw away its only card of a suit. It draws only when it has
nothing to play, and always plays a drawn card that matches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import rules.engine.puskiyon as game
from rules.engine.cards import card
from rules.engine.moves import Move
from rules.engine.puskiyon.determinize import determinize
from rules.engine.puskiyon.scoring import CARD_POINTS, hand_points
from rules.engine.puskiyon.view import bot_view
from rules.engine.search import Chooser, SearchGame, level_chooser

SUIT_WEIGHT = 4  # per other card of the same suit kept in hand
RANK_WEIGHT = 2  # per other card of the same rank kept in hand


def _score(move: Move, suits: Counter[str], ranks: Counter[str]) -> tuple[int, str]:
    played = move.cards[0]
    keep = SUIT_WEIGHT * (suits[played.suit] - 1) + RANK_WEIGHT * (ranks[played.rank] - 1)
    return CARD_POINTS[played] * 3 + keep, str(played)


def choose(view: Mapping[str, Any], legal: list[Move]) -> Move:
    if not legal:
        raise ValueError("the bot was asked to move with no legal move")
    plays = [m for m in legal if m.kind == "play"]
    if not plays:
        for kind in ("draw", "pass"):
            for move in legal:
                if move.kind == kind:
                    return move
        return legal[0]
    if len(plays) == 1:
        return plays[0]
    hand = [card(t) for t in view.get("hand", ())]
    suits = Counter(c.suit for c in hand)
    ranks = Counter(c.rank for c in hand)
    return max(plays, key=lambda m: _score(m, suits, ranks))


def estimate(state: game.State, seat: int) -> float:
    """A playout cut short is scored as if the hand were blocked now: the others' cards less this seat's."""
    points = [hand_points(h) for h in state.hands]
    return (sum(points) - points[seat]) / max(1, len(points) - 1) - points[seat]


BUDGETS: dict[str, int] = {"normal": 60, "strong": 200}
"""Playouts per decision for the search levels (strong stays within 200 ms a decision: see bench_bots)."""

SEARCH = SearchGame(module=game, determinize=determinize, policy=choose, lower_is_better=True,  # type: ignore[arg-type]
                    estimate=estimate, observe=bot_view)


def chooser(level: str, seed: str) -> Chooser:
    """`easy`: `choose` above; `normal`, `strong`: determinized search with `choose` playing the playouts."""
    return level_chooser(SEARCH, choose, BUDGETS, level, seed)  # type: ignore[arg-type]
