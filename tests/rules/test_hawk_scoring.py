"""Hawk scoring: parties, the factor k and its tiers, the three bonus kinds, solo, and P = k x n."""

from __future__ import annotations

import pytest

import rules.engine.hawk as hawk
from rules.engine.moves import Move
from tests.rules.hawk_support import BASE_TRICKS_4P, fill_round, state_with, tricks_of

BASE = tricks_of(BASE_TRICKS_4P)


def pips(trick) -> int:
    return sum(hawk.PIPS[c] for c in trick)


def with_winners(tricks, winners):
    assert len(tricks) == len(winners)
    return list(zip(winners, tricks, strict=True))


# --- the base round itself ---


def test_base_round_uses_every_card_once_and_shows_no_bonus():
    cards = [c for t in BASE for c in t]
    assert sorted(cards) == sorted(hawk.DECK)
    assert [pips(t) for t in BASE] == [11, 13, 18, 22, 26, 30, 34, 28, 22, 16]
    assert not any(hawk.trick_bonuses(t, 4) for t in BASE)


# --- RULES.md worked checks, through score_round ---


def test_worked_check_lafh_151_pips_k2_p8():
    # NOB (seats 2 and 3) takes tricks 2, 7 and 9: 13 + 34 + 22 = 69; LAFH seat 0 (first) + seat 1 (last)
    winners = [0, 2, 0, 1, 1, 0, 3, 1, 2, 1]
    tricks = with_winners(BASE, winners)
    score, events = hawk.score_tricks(players=4, tricks=tricks)
    assert (score.lafh, score.lafh_pips, score.nob_pips) == ((0, 1), 151, 69)
    assert (score.k, score.points, events) == (2, 8, [])
    assert hawk.score_round(players=4, tricks=tricks) == [8, 8, 0, 0]


def test_worked_check_lafh_69_pips_k_minus3_p_minus12():
    # play the same tricks in another order: trick 2 first (seat 2) and trick 9 last (seat 3)
    order = [1, 0, 2, 3, 4, 5, 6, 7, 9, 8]
    tricks = [BASE[i] for i in order]
    winners = [2, 0, 1, 0, 1, 0, 3, 1, 0, 3]
    score, _events = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners))
    assert (score.lafh, score.lafh_pips, score.nob_pips) == ((2, 3), 69, 151)
    assert (score.k, score.points) == (-3, -12)
    assert hawk.score_round(players=4, tricks=with_winners(tricks, winners)) == [0, 0, -12, -12]


# --- every k tier at its boundaries (score_from_facts is what score_round uses) ---


@pytest.mark.parametrize(
    ("lafh_pips", "k"),
    [
        (111, 1),
        (150, 1),
        (151, 2),
        (190, 2),
        (191, 4),
        (219, 4),
        (110, -2),  # a tie goes to NOB
        (70, -2),
        (69, -3),
        (30, -3),
        (29, -6),
        (1, -6),
    ],
)
def test_k_tiers_at_their_boundaries(lafh_pips, k):
    score = hawk.score_from_facts(players=4, lafh=(0, 2), lafh_pips=lafh_pips, nob_pips=220 - lafh_pips)
    assert score.k == k
    assert score.points == 4 * k
    assert score.deltas == (4 * k, 0, 4 * k, 0)
    assert score.won is (lafh_pips > 110)


def test_every_trick_is_k7_and_needs_no_nob_pips():
    score = hawk.score_from_facts(players=4, lafh=(1, 3), lafh_pips=220, nob_pips=0)
    assert (score.every_trick, score.k, score.points) == (True, 7, 28)
    with pytest.raises(ValueError):
        hawk.score_from_facts(players=4, lafh=(1, 3), lafh_pips=219, nob_pips=1, every_trick=True)


def test_tiers_count_pips_not_shares_with_fewer_cards_in_play():
    # 2 players: 26 cards in play, so 150 pips may be most of them; the tiers still read absolute pips
    score = hawk.score_from_facts(players=2, lafh=1, lafh_pips=100, nob_pips=40)
    assert (score.k, score.points) == (1, 2)


def test_every_trick_through_score_round_for_a_pair_and_for_a_solo():
    pair = [0] * 9 + [1]
    assert hawk.score_round(players=4, tricks=with_winners(BASE, pair)) == [28, 28, 0, 0]
    solo = [2] * 10
    assert hawk.score_round(players=4, tricks=with_winners(BASE, solo)) == [0, 0, 84, 0]


def test_score_round_lost_every_pip_tier_through_tricks():
    # LAFH takes only the first (11) and last (16) tricks: 27 pips < 30 -> k -6
    winners = [0, 2, 3, 2, 3, 2, 3, 2, 3, 1]
    assert hawk.score_round(players=4, tricks=with_winners(BASE, winners)) == [-24, -24, 0, 0]


# --- parties ---


@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_player_taking_first_and_last_trick_plays_solo_times_three(players):
    tricks = fill_round(players, seed=players)
    winners = [0] + [1 + (i % (players - 1)) for i in range(len(tricks) - 2)] + [0]
    score, _ = hawk.score_tricks(players=players, tricks=with_winners(tricks, winners))
    assert score.solo and score.lafh == (0,)
    assert score.points == score.k * players * 3
    assert score.deltas == (score.points,) + (0,) * (players - 1)
    facts = hawk.score_from_facts(players=players, lafh=0, lafh_pips=60, nob_pips=150)
    assert (facts.solo, facts.k, facts.points) == (True, -3, -3 * players * 3)


@pytest.mark.parametrize("players", [2, 3])
def test_with_two_or_three_players_lafh_is_the_last_taker_alone_never_solo(players):
    tricks = fill_round(players, seed=players)
    winners = [0] + [1] * (len(tricks) - 2) + [players - 1]
    score, _ = hawk.score_tricks(players=players, tricks=with_winners(tricks, winners))
    assert score.lafh == (players - 1,)
    assert not score.solo
    all_mine = [0] * len(tricks)
    assert hawk.score_round(players=players, tricks=with_winners(tricks, all_mine)) == [7 * players] + [0] * (
        players - 1
    )


def test_nob_scores_never_change():
    winners = [0, 2, 0, 1, 1, 0, 3, 1, 2, 1]
    deltas = hawk.score_round(players=4, tricks=with_winners(BASE, winners))
    assert deltas[2] == deltas[3] == 0


# --- bonus kinds ---


def test_bonus_kind_detection():
    cards = tricks_of(["10C 10D 9H 8S", "5C 5D 5H 5S", "AH 2H 3H 4H", "7D 8D 10D 9D"])
    assert hawk.trick_bonuses(cards[0], 4) == ("heavy",)  # 37 > 36
    assert hawk.trick_bonuses(cards[1], 4) == ("four_suits",)
    assert hawk.trick_bonuses(cards[2], 4) == ("straight",)  # ace, 2, 3, 4 of hearts
    assert hawk.trick_bonuses(cards[3], 4) == ("straight",)  # in any order; 34 pips is not heavy
    assert hawk.trick_bonuses(tricks_of(["10C 10D 10H 10S"])[0], 4) == ("heavy", "four_suits")


def test_heavy_threshold_scales_with_players():
    assert hawk.trick_bonuses(tricks_of(["10C 9D"])[0], 2) == ("heavy",)  # 19 > 18
    assert hawk.trick_bonuses(tricks_of(["10C 8D"])[0], 2) == ()  # 18 is not more than 18
    assert hawk.trick_bonuses(tricks_of(["10C 10D 8H 9S"])[0], 4) == ("heavy",)  # 37
    assert hawk.trick_bonuses(tricks_of(["10C 10D 7H 9S"])[0], 4) == ()  # 36
    # four cards of the same number need four cards in the trick; with three no straight either
    assert hawk.trick_bonuses(tricks_of(["AH 2H 3H"])[0], 3) == ()


def test_no_wrap_around_straight_and_no_straight_across_suits():
    assert hawk.trick_bonuses(tricks_of(["9H 10H AH 2H"])[0], 4) == ()
    assert hawk.trick_bonuses(tricks_of(["2H 3D 4H 5H"])[0], 4) == ()


SPECIALS = {
    "heavy": "10C 10D 9H 8S",
    "four_suits": "5C 5D 5H 5S",
    "straight": "AH 2H 3H 4H",
}


@pytest.mark.parametrize("kind", list(SPECIALS))
def test_each_bonus_kind_adds_one_for_lafh(kind):
    tricks = fill_round(4, [SPECIALS[kind]], seed=1)
    # the bonus trick is the first trick, taken by seat 0 (LAFH); seat 1 takes the last
    winners = [0, 2, 3, 2, 3, 2, 3, 0, 2, 1]
    score, events = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners))
    assert score.lafh_bonuses == (kind,) and score.nob_bonuses == ()
    assert score.k == score.base_k + 1
    assert events == [{"trick": 1, "kind": kind, "side": "LAFH", "seat": 0}]
    assert hawk.score_round(players=4, tricks=with_winners(tricks, winners)) == [score.k * 4, score.k * 4, 0, 0]


@pytest.mark.parametrize("kind", list(SPECIALS))
def test_each_bonus_kind_takes_one_off_for_nob(kind):
    tricks = fill_round(4, ["AC 3D 6H 7S", SPECIALS[kind]], seed=2)
    winners = [0, 3, 0, 2, 0, 2, 0, 2, 0, 1]  # trick 2 goes to seat 3 (NOB)
    score, events = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners))
    assert score.nob_bonuses == (kind,) and score.lafh_bonuses == ()
    assert score.k == score.base_k - 1
    assert events == [{"trick": 2, "kind": kind, "side": "NOB", "seat": 3}]


def test_a_kind_counts_once_per_side_unless_every_trick_counts():
    tricks = fill_round(4, ["10C 10D 9H 8S", "10H 10S 9C 8D", "9S 9D 8C 7H"], seed=3)
    assert [hawk.trick_bonuses(t, 4) for t in tricks[:3]] == [("heavy",), ("heavy",), ()]
    winners = [0, 0, 2, 3, 2, 3, 2, 3, 2, 1]
    once, _ = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners))
    each, _ = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners), bonus_per_trick=True)
    assert once.k == once.base_k + 1
    assert each.k == each.base_k + 2
    assert each.lafh_bonuses == ("heavy", "heavy")


def test_a_kind_shown_by_both_sides_nets_zero():
    tricks = fill_round(4, ["10C 10D 9H 8S", "10H 10S 9C 8D"], seed=4)
    winners = [0, 3, 2, 3, 2, 3, 2, 3, 2, 1]
    score, events = hawk.score_tricks(players=4, tricks=with_winners(tricks, winners))
    assert score.lafh_bonuses == ("heavy",) and score.nob_bonuses == ("heavy",)
    assert score.k == score.base_k
    assert [e["side"] for e in events] == ["LAFH", "NOB"]


def test_the_rules_page_example():
    # Anna (0) first trick, Carla (2) last; 151 to 69; Carla's heavy trick; Dieter's four fives
    score = hawk.score_from_facts(
        players=4, lafh=(0, 2), lafh_pips=151, nob_pips=69, lafh_bonuses=["heavy"], nob_bonuses=["four_suits"]
    )
    assert (score.base_k, score.k, score.deltas) == (2, 2, (8, 0, 8, 0))
    solo = hawk.score_from_facts(
        players=4, lafh=0, lafh_pips=151, nob_pips=69, lafh_bonuses=["heavy"], nob_bonuses=["four_suits"]
    )
    assert solo.points == 24
    reversed_pips = hawk.score_from_facts(
        players=4, lafh=(0, 2), lafh_pips=69, nob_pips=151, lafh_bonuses=["heavy"], nob_bonuses=["four_suits"]
    )
    assert (reversed_pips.k, reversed_pips.points) == (-3, -12)


def test_bonuses_can_turn_a_small_win_into_zero_or_less():
    score = hawk.score_from_facts(
        players=4, lafh=(0, 1), lafh_pips=120, nob_pips=100, nob_bonuses=["heavy", "straight"]
    )
    assert (score.base_k, score.k, score.points) == (1, -1, -4)


def test_largest_possible_scores_are_60_and_180():
    top = hawk.score_from_facts(
        players=6, lafh=(0, 3), lafh_pips=200, nob_pips=0, lafh_bonuses=["heavy", "four_suits", "straight"]
    )
    assert (top.k, top.points) == (10, 60)
    solo = hawk.score_from_facts(
        players=6, lafh=2, lafh_pips=200, nob_pips=0, lafh_bonuses=["heavy", "four_suits", "straight"]
    )
    assert solo.points == 180
    worst = hawk.score_from_facts(
        players=6, lafh=2, lafh_pips=20, nob_pips=180, nob_bonuses=["heavy", "four_suits", "straight"]
    )
    assert (worst.k, worst.points) == (-9, -162)


# --- score_from_facts refuses what cannot be ---


@pytest.mark.parametrize(
    "facts",
    [
        {"players": 4, "lafh": (0, 1, 2), "lafh_pips": 100, "nob_pips": 120},
        {"players": 3, "lafh": (0, 1), "lafh_pips": 100, "nob_pips": 116},
        {"players": 4, "lafh": (0, 4), "lafh_pips": 100, "nob_pips": 120},
        {"players": 4, "lafh": (1, 1), "lafh_pips": 100, "nob_pips": 120},
        {"players": 7, "lafh": 0, "lafh_pips": 100, "nob_pips": 120},
        {"players": 4, "lafh": 0, "lafh_pips": -1, "nob_pips": 120},
        {"players": 4, "lafh": 0, "lafh_pips": 150, "nob_pips": 120},
        {"players": 4, "lafh": 0, "lafh_pips": 100, "nob_pips": 120, "lafh_bonuses": ["jackpot"]},
        {"players": 4, "lafh": 0, "lafh_pips": 220, "nob_pips": 0, "nob_bonuses": ["heavy"]},
        {"players": 4, "lafh": 0, "lafh_pips": 0, "nob_pips": 0},
    ],
)
def test_impossible_facts_are_refused(facts):
    with pytest.raises(ValueError):
        hawk.score_from_facts(**facts)


def test_score_round_refuses_broken_tricks():
    with pytest.raises(ValueError):
        hawk.score_round(players=4, tricks=[])
    with pytest.raises(ValueError):
        hawk.score_round(players=4, tricks=[(0, BASE[0][:3])])
    with pytest.raises(ValueError):
        hawk.score_round(players=4, tricks=[(4, BASE[0])])
    with pytest.raises(ValueError):
        hawk.score_round(players=4, tricks=[(0, BASE[0]), (1, BASE[0])])


def test_score_as_dict_is_what_a_results_screen_shows():
    data = hawk.score_from_facts(players=4, lafh=(0, 2), lafh_pips=151, nob_pips=69).as_dict()
    assert data["lafh"] == [0, 2] and data["nob"] == [1, 3]
    assert (data["k"], data["points"], data["deltas"], data["bonus"]) == (2, 8, [8, 0, 8, 0], 0)


@pytest.mark.parametrize(("per_trick", "k"), [(False, 9), (True, 10)])
def test_the_table_option_reaches_the_engines_scoring(per_trick, k):
    state = state_with(["10C 9C", "10D 9D", "10H 9H", "10S 9S"], options={"bonus_per_trick": per_trick})
    # trick 1: 10C led, 10D trumps (seat 1), all four tens: heavy and four of a number
    # trick 2: 9D led by seat 1, 9H trumps (seat 2), all four nines (36 pips): four of a number only
    for seat, text in [(0, "10C"), (1, "10D"), (2, "10H"), (3, "10S"), (1, "9D"), (2, "9H"), (3, "9S"), (0, "9C")]:
        state = hawk.apply(state, seat, Move.parse(f"play {text}"))
    summary = hawk.result(state).summary
    assert (summary["lafh"], summary["every_trick"], summary["base_k"]) == ([1, 2], True, 7)
    assert summary["bonus_per_trick"] is per_trick
    assert [(b["trick"], b["kind"]) for b in summary["bonuses"]] == [(1, "heavy"), (1, "four_suits"), (2, "four_suits")]
    assert summary["k"] == k
    assert hawk.result(state).deltas == (0, 4 * k, 4 * k, 0)
