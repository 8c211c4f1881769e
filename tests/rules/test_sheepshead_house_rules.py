"""A club night's house rules through Sheepshead's public scoring helpers: each option moves exactly the rates it
names, its default is the seed's table (RULES.md), and every settlement still sums to zero."""

from __future__ import annotations

import itertools

import pytest

from rules.engine.sheepshead import picker_rate, settle
from rules.engine.sheepshead.house import (
    NIGHT_OPTIONS,
    HouseRules,
    house_rules,
    seat_money,
)

POSSIBLE = [p for p in range(0, 121) if p not in (1, 119)]


def seed_rate(points: int) -> int:
    """RULES.md's table, stated again independently."""
    for low, high, rate in [(0, 0, -6), (2, 29, -4), (30, 60, -2), (61, 89, 1), (90, 118, 2), (120, 120, 3)]:
        if low <= points <= high:
            return rate
    raise AssertionError(points)


def test_the_defaults_are_the_seeds_table() -> None:
    for points in POSSIBLE:
        assert picker_rate(points) == seed_rate(points)
        assert picker_rate(points, schneider="seed", schwarz="no_points", bump="double") == seed_rate(points)


@pytest.mark.parametrize(("schneider", "moved"), [
    ("seed", {}),
    ("thirty_or_less", {30: -4}),  # the picker's 30 becomes schneider; the opponents' 30 already was
    ("under_thirty", {90: 1}),  # the opponents' 30 is no longer schneider; the picker's 30 never was
])
def test_the_schneider_line_moves_only_the_thirty(schneider: str, moved: dict[int, int]) -> None:
    for points in POSSIBLE:
        assert picker_rate(points, schneider=schneider) == moved.get(points, seed_rate(points)), points


def test_schwarz_by_tricks_asks_whether_the_losing_side_took_a_trick() -> None:
    with pytest.raises(ValueError, match="took a trick"):
        picker_rate(0, schwarz="no_trick")
    # A zero-point trick saves the picker from schwarz: 0 points with a trick is schneider.
    assert picker_rate(0, schwarz="no_trick", losers_took_trick=True) == -4
    assert picker_rate(0, schwarz="no_trick", losers_took_trick=False) == -6
    # A picker whose side took no trick is schwarz, whatever the bury held.
    assert picker_rate(21, schwarz="no_trick", losers_took_trick=False) == -6
    assert picker_rate(21, schwarz="no_trick", losers_took_trick=True) == -4
    # All the points but the opponents took a trick of none: schneider, not schwarz.
    assert picker_rate(120, schwarz="no_trick", losers_took_trick=True) == 2
    assert picker_rate(120, schwarz="no_trick", losers_took_trick=False) == 3
    with pytest.raises(ValueError, match="all 120 points"):
        picker_rate(100, schwarz="no_trick", losers_took_trick=False)


def test_a_single_bump_halves_only_the_losses() -> None:
    for points in POSSIBLE:
        expected = seed_rate(points) if seed_rate(points) > 0 else seed_rate(points) // 2
        assert picker_rate(points, bump="single") == expected, points
    assert [picker_rate(p, bump="single") for p in (0, 15, 45)] == [-3, -2, -1]


@pytest.mark.parametrize(("cracks", "factor"), [(0, 1), (1, 2), (2, 4)])
def test_cracking_doubles_and_recracking_doubles_again(cracks: int, factor: int) -> None:
    plain = settle(players=5, picker=0, partner=2, picker_points=75, stake_cents=100)
    assert plain == [200, -100, 100, -100, -100]
    cracked = settle(players=5, picker=0, partner=2, picker_points=75, stake_cents=100, cracks=cracks)
    assert cracked == [amount * factor for amount in plain]
    assert sum(cracked) == 0


@pytest.mark.parametrize("cracks", [-1, 3, True, "1"])
def test_cracks_are_zero_one_or_two(cracks: object) -> None:
    with pytest.raises(ValueError, match="cracked"):
        settle(players=3, picker=0, partner=None, picker_points=75, cracks=cracks)  # type: ignore[arg-type]


def test_unknown_house_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="schneider is one of"):
        picker_rate(75, schneider="thirty")
    with pytest.raises(ValueError, match="bump is one of"):
        settle(players=3, picker=0, partner=None, picker_points=75, bump="triple")
    with pytest.raises(ValueError, match="true or false"):
        house_rules({"cracking": "yes"})


def test_every_combination_settles_to_zero() -> None:
    for players, points, schneider, bump, cracks in itertools.product(
        (3, 5, 6, 7), (0, 30, 60, 61, 90, 120), ("seed", "thirty_or_less", "under_thirty"), ("double", "single"),
        (0, 1, 2),
    ):
        partner = 1 if players >= 5 else None
        money = settle(players=players, picker=0, partner=partner, picker_points=points, stake_cents=101,
                       schneider=schneider, bump=bump, cracks=cracks)
        assert sum(money) == 0


def test_a_nights_options_read_as_house_rules() -> None:
    assert house_rules(None) == HouseRules()
    assert house_rules({"stake_cents": 100}) == HouseRules()
    rules = house_rules({"stake_cents": 50, "schneider": "thirty_or_less", "cracking": True})
    assert rules == HouseRules(schneider="thirty_or_less", cracking=True)
    assert rules.non_default() == {"schneider": "thirty_or_less", "cracking": True}
    assert HouseRules().non_default() == {}
    assert {o.name for o in NIGHT_OPTIONS} == {"schneider", "schwarz", "bump", "cracking", "dealer_sits_out",
                                             "players_change"}


def test_seat_money_lays_a_hand_on_the_nights_seats() -> None:
    # Seven at the night, seat 2 dealt and sat out, seat 5 had left: the sitter's entry is 0, the absent has none.
    assert seat_money(night_players=7, playing=[0, 1, 3, 4, 6], money=[200, -100, 100, -100, -100], sitting_out=2) \
        == [200, -100, 0, 100, -100, None, -100]
    with pytest.raises(ValueError, match="one amount"):
        seat_money(night_players=6, playing=[0, 1], money=[1])
    with pytest.raises(ValueError, match="sitting out"):
        seat_money(night_players=6, playing=[0, 1], money=[1, -1], sitting_out=1)
