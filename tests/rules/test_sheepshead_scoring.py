"""Sheepshead's public helpers against RULES.md: the deal, the trick, the money.

The settlement table is checked exhaustively (every table size, every rate boundary, with and
without a partner, odd stakes) against an independent statement of the rule, because the ledger
posts exactly these numbers and every one of them must sum to zero.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.engine.cards import parse_cards
from rules.engine.sheepshead import (
    deal_sizes,
    leaster_winner,
    picker_rate,
    settle,
    settle_leaster,
    trick_winner,
)

# RULES.md: 120: +3 · 90-118: +2 · 61-89: +1 · 30-60: -2 · 2-29: -4 · 0: -6
RATE_BANDS: list[tuple[int, int, int]] = [
    (0, 0, -6), (2, 29, -4), (30, 60, -2), (61, 89, 1), (90, 118, 2), (120, 120, 3),
]
BOUNDARIES: list[int] = [0, 2, 15, 29, 30, 45, 60, 61, 75, 89, 90, 100, 118, 120]
STAKES: list[int] = [100, 101, 7, 5, 1, 10000]


def expected_rate(points: int) -> int:
    for low, high, rate in RATE_BANDS:
        if low <= points <= high:
            return rate
    raise AssertionError(f"no band for {points}")


# --- deal_sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"), [(3, (10, 2)), (4, (7, 4)), (5, (6, 2)), (6, (5, 2)), (7, (4, 4))]
)
def test_deal_sizes_match_rules(players: int, sizes: tuple[int, int]) -> None:
    assert deal_sizes(players) == sizes
    hand, blind = sizes
    assert hand * players + blind == 32


@pytest.mark.parametrize("players", [0, 2, 8, -5, None, "5"])
def test_deal_sizes_refuses_other_tables(players: object) -> None:
    with pytest.raises(ValueError):
        deal_sizes(players)  # type: ignore[arg-type]


# --- trick_winner ---------------------------------------------------------------------------

TRUMP_HIGH_TO_LOW = [str(c) for c in parse_cards("QC QS QH QD JC JS JH JD AD 10D KD 9D 8D 7D")]


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("7C AC 10C", 1),  # ace is the highest fail card
        ("KH 10H 9H", 1),  # ten beats king in a fail suit
        ("AC 7D 10C", 1),  # the lowest trump beats a fail ace
        ("7C AH AS", 0),  # aces of other fail suits never win
        ("QD JC QC JD", 2),  # queen of clubs is the top trump
        ("AD JD 10D", 1),  # a jack is trump and beats the ace of diamonds
        ("9C QC 8C", 1),  # QC is trump, not a club
        ("JH 7H AH", 0),  # trump led: the hearts played are not trump
        ("7H JH AH", 1),  # led 7H: the jack of hearts is trump and takes it
        ("10S KS 9S 8S 7S", 0),
        ("8S 7D 9D 10D KD AD 8D", 5),
        ("AD", 0),
    ],
)
def test_trick_winner_examples(cards: str, winner: int) -> None:
    assert trick_winner(parse_cards(cards)) == winner


def test_trick_winner_follows_the_whole_trump_order() -> None:
    for high in range(len(TRUMP_HIGH_TO_LOW)):
        for low in range(high + 1, len(TRUMP_HIGH_TO_LOW)):
            pair = parse_cards([TRUMP_HIGH_TO_LOW[high], TRUMP_HIGH_TO_LOW[low]])
            assert trick_winner(pair) == 0
            assert trick_winner(tuple(reversed(pair))) == 1


def test_trick_winner_fail_order_in_every_fail_suit() -> None:
    order = ["A", "10", "K", "9", "8", "7"]
    for suit in "CSH":
        for high in range(len(order)):
            for low in range(high + 1, len(order)):
                pair = parse_cards([order[low] + suit, order[high] + suit])
                assert trick_winner(pair) == 1


@pytest.mark.parametrize("cards", [(), parse_cards("2C 7C"), parse_cards("7C 7C"), ("QC",)])
def test_trick_winner_refuses_impossible_tricks(cards: tuple) -> None:
    with pytest.raises(ValueError):
        trick_winner(cards)


# --- settle ---------------------------------------------------------------------------------


def test_worked_example_five_players() -> None:
    assert settle(players=5, picker=0, partner=1, picker_points=75, stake_cents=100) == [200, 100, -100, -100, -100]


def test_worked_example_six_players() -> None:
    money = settle(players=6, picker=0, partner=1, picker_points=75, stake_cents=100)
    assert money == [267, 133, -100, -100, -100, -100]


def test_settle_default_stake_is_one_dollar() -> None:
    assert settle(players=3, picker=2, partner=None, picker_points=61) == [-100, -100, 200]


def test_settle_losing_side_rounds_partner_share_toward_zero() -> None:
    # 6 players, 45 points: rate -2, each of 4 opponents receives 200 -> side owes 800;
    # the partner's third is -266.67 -> -266, the picker -534.
    money = settle(players=6, picker=3, partner=5, picker_points=45, stake_cents=100)
    assert money == [200, 200, 200, -534, 200, -266]


@pytest.mark.parametrize("points", [p for p in range(121) if p not in (1, 119)])
def test_picker_rate_for_every_possible_point_total(points: int) -> None:
    assert picker_rate(points) == expected_rate(points)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("points", BOUNDARIES)
@pytest.mark.parametrize("stake", STAKES)
def test_settlement_table(players: int, points: int, stake: int) -> None:
    rate = expected_rate(points)
    partners: list[int | None] = [None] + ([p for p in range(players) if p != 1] if players >= 5 else [])
    for partner in partners:
        money = settle(players=players, picker=1, partner=partner, picker_points=points, stake_cents=stake)
        assert len(money) == players
        assert sum(money) == 0
        side = {1} if partner is None else {1, partner}
        opponents = [seat for seat in range(players) if seat not in side]
        assert all(money[seat] == -rate * stake for seat in opponents)
        total = rate * stake * len(opponents)
        if partner is None:
            assert money[1] == total
        else:
            third = int(Fraction(total, 3))  # int() of a Fraction truncates toward zero
            assert money[partner] == third
            assert money[1] == total - third
            assert abs(Fraction(money[1]) - Fraction(2 * total, 3)) < 1
            # the picker never carries less than the partner, win or lose
            assert abs(money[1]) >= abs(money[partner])


@pytest.mark.parametrize("points", [1, 119, -1, -30, 121, 200])
def test_settle_refuses_impossible_points(points: int) -> None:
    with pytest.raises(ValueError):
        settle(players=5, picker=0, partner=1, picker_points=points)
    with pytest.raises(ValueError):
        picker_rate(points)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 5, "picker": 2, "partner": 2},  # partner is the picker
        {"players": 4, "picker": 0, "partner": 1},  # no partner with 4 players
        {"players": 3, "picker": 0, "partner": 2},  # nor with 3
        {"players": 5, "picker": 5, "partner": None},  # no seat 5 at a table of 5
        {"players": 5, "picker": -1, "partner": None},
        {"players": 5, "picker": 0, "partner": 7},
        {"players": 2, "picker": 0, "partner": None},
        {"players": 8, "picker": 0, "partner": None},
        {"players": 5, "picker": 0, "partner": None, "stake_cents": 0},
        {"players": 5, "picker": 0, "partner": None, "stake_cents": -100},
        {"players": 5, "picker": "0", "partner": None},
    ],
)
def test_settle_refuses_impossible_tables(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        settle(picker_points=75, **kwargs)


# --- leasters -------------------------------------------------------------------------------


def test_leaster_winner_is_fewest_points_with_a_trick() -> None:
    assert leaster_winner(points=[30, 12, 40, 38, 0], tricks=[2, 1, 1, 2, 0]) == 1


def test_leaster_player_without_a_trick_cannot_win() -> None:
    # seat 4 has no points because it took no trick: it is not a candidate
    assert leaster_winner(points=[30, 12, 40, 38, 0], tricks=[2, 1, 1, 2, 0]) != 4
    assert leaster_winner(points=[0, 50, 70], tricks=[0, 3, 7]) == 1


def test_leaster_zero_points_with_a_trick_wins() -> None:
    assert leaster_winner(points=[0, 50, 70], tricks=[1, 3, 6]) == 0


def test_leaster_tie_for_fewest_pays_nothing() -> None:
    assert leaster_winner(points=[10, 10, 50, 50, 0], tricks=[1, 1, 2, 2, 0]) is None
    assert settle_leaster(players=5, winner=None, stake_cents=100) == [0, 0, 0, 0, 0]


def test_leaster_tie_above_the_fewest_does_not_matter() -> None:
    assert leaster_winner(points=[5, 40, 40, 35, 0], tricks=[1, 2, 2, 1, 0]) == 0


def test_leaster_winner_needs_one_entry_per_seat() -> None:
    with pytest.raises(ValueError):
        leaster_winner(points=[1, 2, 3], tricks=[1, 1])


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("stake", STAKES)
def test_settle_leaster_every_table(players: int, stake: int) -> None:
    for winner in range(players):
        money = settle_leaster(players=players, winner=winner, stake_cents=stake)
        assert sum(money) == 0
        assert money[winner] == stake * (players - 1)
        assert all(money[s] == -stake for s in range(players) if s != winner)


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 5, "winner": 5}, {"players": 5, "winner": -1}, {"players": 9, "winner": 0},
     {"players": 5, "winner": 0, "stake_cents": 0}],
)
def test_settle_leaster_refuses_impossible_tables(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        settle_leaster(**kwargs)
