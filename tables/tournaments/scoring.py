"""What a hand is worth in a tournament: points, never money.

A club tournament is played for places and prizes, not for what the hands would pay at the table (the Wisconsin
tournaments score each hand in points: the picker's rate times the stake is simply the rate). So a game settled
in money (Sheepshead: `GameSpec.unit` "cents") counts each hand as its settlement divided by the stake, and a
game counted in points keeps them. Every path that scores a tournament hand (the online table's match, the
in-person sheet, the ledger's entries for both) converts through here, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import registry

STAKE_OPTION = "stake_cents"


def hand_points(*, game: str, amount: int, options: Mapping[str, Any]) -> int:
    """`amount` (a seat's result of one hand or of several, in the game's unit) as tournament points.

    A money game's settlements are whole multiples of its stake (every rate is); an amount that is not would be
    a settlement made with another stake, which is refused rather than rounded."""
    if registry.spec(game).unit != "cents":
        return amount
    stake = int(options.get(STAKE_OPTION) or registry.spec(game).make_config(
        registry.spec(game).min_players, {}).get(STAKE_OPTION))
    points, rest = divmod(amount, stake)
    if rest:
        raise ValueError(f"{amount} is not a whole number of stakes of {stake}")
    return points
