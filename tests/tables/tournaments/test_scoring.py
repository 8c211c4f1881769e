"""Tournament hands count in points: a money game's settlement in stakes, whole and still summing to zero; a points
game's as they are; a table's points are the sum of its hands'."""

from __future__ import annotations

from rules.engine.sheepshead import settle
from tables.tournaments.scoring import hand_points, points_over


def test_a_sheepshead_hand_counts_its_settlement_in_stakes() -> None:
    deltas = settle(players=5, picker=0, partner=1, picker_points=91, stake_cents=25)  # schneider: rate 2
    points = hand_points(game="sheepshead", amounts=deltas, options={"stake_cents": 25})
    assert points == [delta // 25 for delta in deltas] and sum(points) == 0
    assert points[0] > points[1] > 0 > points[2]


def test_a_split_that_is_not_whole_stakes_rounds_as_the_money_does() -> None:
    # Six players, a partner: four opponents pay one stake each, the side splits four stakes 2/3 to 1/3.
    deltas = settle(players=6, picker=2, partner=4, picker_points=75, stake_cents=25)
    assert deltas[2] == 67 and deltas[4] == 33  # in cents the partner's third is rounded toward zero
    points = hand_points(game="sheepshead", amounts=deltas, options={"stake_cents": 25})
    assert points == [-1, -1, 3, -1, 1, -1] and sum(points) == 0  # and in points too; the picker takes the rest
    lost = settle(players=6, picker=2, partner=4, picker_points=40, stake_cents=25)
    assert hand_points(game="sheepshead", amounts=lost, options={"stake_cents": 25}) == [2, 2, -6, 2, -2, 2]


def test_the_default_stake_applies_when_the_options_name_none() -> None:
    assert hand_points(game="sheepshead", amounts=[-300, 300], options={}) == [-3, 3]


def test_points_games_keep_their_points_and_a_table_sums_its_hands() -> None:
    assert hand_points(game="hawk", amounts=[17, 0, 3], options={}) == [17, 0, 3]
    assert hand_points(game="puskiyon", amounts=[-5, 2], options={}) == [-5, 2]
    hands = [settle(players=6, picker=2, partner=4, picker_points=75, stake_cents=25)] * 3
    assert points_over(game="sheepshead", hands=hands, options={"stake_cents": 25}, seats=6) == [-3, -3, 9, -3, 3, -3]
    assert sum(sum(hand) for hand in hands) // 25 == 0  # the money, converted at once, could not say 9 and 3
