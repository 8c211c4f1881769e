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

from rules.engine.cards import card
from rules.engine.moves import Move
from rules.engine.puskiyon.scoring import CARD_POINTS

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
