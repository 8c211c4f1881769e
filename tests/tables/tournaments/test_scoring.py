"""Tournament hands count in points: a money game's settlement in stakes, a points game's as they are."""

from __future__ import annotations

import pytest

from rules.engine.sheepshead import settle
from tables.tournaments.scoring import hand_points


def test_a_sheepshead_hand_counts_its_settlement_in_stakes() -> None:
    deltas = settle(players=5, picker=0, partner=1, picker_points=91, stake_cents=25)  # schneider: rate 2
    points = [hand_points(game="sheepshead", amount=delta, options={"stake_cents": 25}) for delta in deltas]
    assert points == [delta // 25 for delta in deltas] and sum(points) == 0
    assert points[0] > points[1] > 0 > points[2]


def test_the_default_stake_applies_when_the_options_name_none() -> None:
    assert hand_points(game="sheepshead", amount=-300, options={}) == -3


def test_points_games_keep_their_points_and_foreign_amounts_are_refused() -> None:
    assert hand_points(game="hawk", amount=17, options={}) == 17
    assert hand_points(game="puskiyon", amount=-5, options={}) == -5
    with pytest.raises(ValueError):
        hand_points(game="sheepshead", amount=150, options={"stake_cents": 100})
