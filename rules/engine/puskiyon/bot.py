"""A steady Puskiyon player that sees only its own seat's view.

Points come from cards still held when the hand stops, so it sheds whenever it can, heaviest cards
first; among similar cards it plays from a suit it holds several of, so the pile is left in a suit it
can follow next time and it does not throw away its only card of a suit. It draws only when it has
nothing to play, and always plays a drawn card that matches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import rules.engine.puskiyon as game
from rules.engine.cards import card
from rules.engine.moves import Move
from rules.engine.puskiyon.determinize import determinize
from rules.engine.puskiyon.rollout import rollout_for
from rules.engine.puskiyon.scoring import CARD_POINTS, hand_points
from rules.engine.puskiyon.view import bot_view
from rules.engine.search import Chooser, SearchGame, level_chooser

POINT_WEIGHT = 3  # per point shed
SUIT_WEIGHT = 4  # per other card of the same suit kept in hand
RANK_WEIGHT = 2  # per other card of the same rank kept in hand


def _score(move: Move, suits: Counter[str], ranks: Counter[str]) -> tuple[int, str]:
    played = move.cards[0]
    keep = SUIT_WEIGHT * (suits[played.suit] - 1) + RANK_WEIGHT * (ranks[played.rank] - 1)
    return CARD_POINTS[played] * POINT_WEIGHT + keep, str(played)


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
    return max(plays, key=_weigher(view))


def _weigher(view: Mapping[str, Any]) -> Callable[[Move], tuple[int, str]]:
    """`_score` for the hand in `view`: what `choose` maximises and `ranked` sorts by."""
    hand = [card(t) for t in view.get("hand", ())]
    suits = Counter(c.suit for c in hand)
    ranks = Counter(c.rank for c in hand)
    return lambda move: _score(move, suits, ranks)


def ranked(view: Mapping[str, Any], legal: list[Move]) -> list[Move]:
    """The legal moves best first as `choose` weighs them (its move first): the plays heaviest first, then the
    draw or the pass. The search's shortlist."""
    plays = [m for m in legal if m.kind == "play"]
    rest = [m for m in legal if m.kind != "play"]
    if len(plays) > 1:
        plays.sort(key=_weigher(view), reverse=True)
    return plays + rest


def estimate(state: game.State, seat: int) -> float:
    """A playout cut short is scored as if the hand were blocked now: the others' cards less this seat's."""
    points = [hand_points(h) for h in state.hands]
    return (sum(points) - points[seat]) / max(1, len(points) - 1) - points[seat]


BUDGETS: dict[str, int] = {"normal": 100, "strong": 1000}
"""Playouts per decision for the search levels (strong stays within 200 ms a decision: see bench_bots). The
search gains nothing past about 300 play-outs (the engine's README: 1,000 against 300 on 1,500 duplicate rounds,
+0.02 points a round), so normal searches 100, where it keeps about a third of the search's edge over easy (+0.08
points a round against +0.22 at 1,000); at 30 it played worse than easy (-0.39)."""

WIDTHS: dict[str, int] = {"normal": 2, "strong": 2}
"""How many of the heuristics' best moves the search weighs (the engine's README: spread over every move, the
search was no better than its policy)."""

SEARCH = SearchGame(module=game, determinize=determinize, policy=choose, lower_is_better=True,  # type: ignore[arg-type]
                    estimate=estimate, observe=bot_view, shortlist=ranked,  # type: ignore[arg-type]
                    rollout=rollout_for(POINT_WEIGHT, SUIT_WEIGHT, RANK_WEIGHT))  # type: ignore[arg-type]


def chooser(level: str, seed: str) -> Chooser:
    """`easy`: `choose` above; `normal`, `strong`: determinized search with `choose` playing the playouts."""
    return level_chooser(SEARCH, choose, BUDGETS, level, seed, WIDTHS)  # type: ignore[arg-type]
