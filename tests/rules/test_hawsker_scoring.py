"""Hawsker's public helpers: hand scoring and play legality, checked against RULES.md's examples.

These are the rules people argue about at the table, so each rule gets its own small case, including
the plays that look legal and are not.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.cards import FULL_DECK, card, parse_cards
from rules.engine.hawsker import is_legal_play, score_breakdown, score_hand
from rules.engine.hawsker.scoring import VALUE, can_play, legal_plays, sort_cards


def breakdown(text: str) -> dict[str, int]:
    return score_breakdown(parse_cards(text))


def test_thirteens_example_from_the_rules() -> None:
    result = breakdown("AS 2S 2D 10H 10C")
    assert result["thirteens"] == 8  # A+2+10 in 2 x 2 ways
    assert result["pairs"] == 4
    assert result["total"] == 12


def test_four_of_a_kind_is_six_pairs() -> None:
    result = breakdown("5C 5D 5H 5S")
    assert result["pairs"] == 12
    assert result["thirteens"] == 0
    assert result["total"] == 12


def test_runs_counted_cribbage_style() -> None:
    result = breakdown("6C 7D 7H 8S 9C")
    assert result["runs"] == 8  # two runs of four
    assert result["pairs"] == 2
    assert result["thirteens"] == 4  # 6+7 twice
    assert result["total"] == 14


def test_only_the_longest_run_counts() -> None:
    assert breakdown("3C 4D 5H 6S")["runs"] == 4
    assert breakdown("3C 4D 5H 5S 6S")["runs"] == 8
    assert breakdown("3C 3D 4H 4S 5C")["runs"] == 12  # 2 x 2 runs of three


def test_runs_go_through_jack_queen_king_but_do_not_wrap() -> None:
    assert breakdown("JC QD KH")["runs"] == 3
    assert breakdown("10S JC QD KH")["runs"] == 4
    assert breakdown("QD KH AS")["runs"] == 0
    assert breakdown("KH AS 2C")["runs"] == 0
    assert breakdown("2C 3D 5H")["runs"] == 0


def test_kings_score_one_each_and_never_make_thirteen() -> None:
    result = breakdown("KC KD")
    assert result["kings"] == 2
    assert result["pairs"] == 2
    assert result["thirteens"] == 0
    assert breakdown("KC AS QD")["thirteens"] == 2  # A+Q only; K alone is not a set
    assert breakdown("KC 3D 9H")["thirteens"] == 0


def test_flush_needs_every_card_of_one_suit() -> None:
    assert breakdown("2H 4H 6H 9H JH")["flush"] == 5
    assert breakdown("2H 4H 6H 9H JS")["flush"] == 0
    assert breakdown("2H 9H")["flush"] == 2
    assert breakdown("9H")["flush"] == 0  # a single card is no flush
    assert score_hand(()) == 0


def test_worked_example_on_the_rules_page() -> None:
    assert breakdown("5C 6D 7H 7S 8C") == {
        "kings": 0, "thirteens": 6, "pairs": 2, "runs": 8, "flush": 0, "total": 16,
    }


def test_every_set_adding_to_thirteen_counts() -> None:
    assert breakdown("AC 2D 3H 7S")["thirteens"] == 2  # 1+2+3+7 only
    assert breakdown("6C 7D")["thirteens"] == 2
    assert breakdown("3C 4D 6H")["thirteens"] == 2  # 3+4+6


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=0, max_size=7, unique=True))
def test_total_is_the_sum_of_the_kinds_and_ignores_order(cards: list) -> None:
    result = score_breakdown(cards)
    assert result["total"] == sum(v for k, v in result.items() if k != "total")
    assert score_hand(reversed(cards)) == result["total"]
    # thirteens by brute force over every subset
    sets = sum(
        1
        for size in range(2, len(cards) + 1)
        for subset in combinations(cards, size)
        if all(c.rank != "K" for c in subset) and sum(VALUE[c] for c in subset) == 13
    )
    assert result["thirteens"] == 2 * sets


def legal(top: str | None, cards: str) -> bool:
    return is_legal_play(None if top is None else card(top), parse_cards(cards))


def test_first_play_is_any_single_card() -> None:
    assert legal(None, "7H")
    assert legal(None, "KS")
    assert not legal(None, "6C 7D")
    assert not legal(None, "")


def test_same_suit_single_card() -> None:
    assert legal("5S", "9S")
    assert legal("5S", "QS")
    assert not legal("5S", "9H")


def test_any_king() -> None:
    assert legal("5S", "KH")
    assert legal("KD", "KC")
    assert not legal("5S", "KH 8D")  # a king cannot be part of a combination


def test_sums_with_the_top_card() -> None:
    assert legal("5S", "8H")
    assert legal("5S", "2H 6D")
    assert legal("5S", "AC 3H 4D")
    assert legal("QS", "AD")
    assert not legal("5S", "2H 5D")
    assert not legal("5S", "7H")


def test_rank_match_alone_is_refused() -> None:
    assert not legal("5S", "5H")
    assert not legal("9C", "9D")
    assert not legal("7D", "7C")


def test_same_suit_combination_must_add_up() -> None:
    assert not legal("5S", "9S 2S")  # two spades, but 9+2+5 is not 13
    assert legal("5S", "6S 2S")  # 6+2+5 = 13


def test_combinations_on_a_king_add_to_thirteen_by_themselves() -> None:
    assert legal("KS", "6H 7D")
    assert legal("KS", "AC 2D QH") is False  # 15
    assert legal("KS", "AC 2D JH") is False  # 14
    assert legal("KS", "AC QH")
    assert legal("KS", "4S")  # same suit
    assert legal("KS", "KH")
    assert not legal("KS", "4H")  # a single non-king card can never be 13 by itself
    assert not legal("KS", "6H 6D")


def test_a_card_cannot_be_used_twice() -> None:
    assert not is_legal_play(card("5S"), (card("4H"), card("4H")))


def test_legal_plays_lists_each_combination_once_per_last_card() -> None:
    hand = sort_cards(parse_cards("AC 2D 5H 6C 7D KS"))
    plays = {" ".join(str(c) for c in p) for p in legal_plays(card("5S"), hand)}
    assert plays == {
        "KS",
        "AC 7D", "7D AC",
        "2D 6C", "6C 2D",
        "2D 5H AC", "AC 5H 2D", "AC 2D 5H",
    }
    listed = legal_plays(card("5S"), hand)
    assert len(listed) == len(set(listed))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=7, unique=True),
    st.one_of(st.none(), st.sampled_from(FULL_DECK)),
)
def test_legal_plays_agree_with_is_legal_play(cards: list, top) -> None:
    if top in cards:
        cards.remove(top)
    hand = sort_cards(cards)
    listed = legal_plays(top, hand)
    assert len(listed) == len(set(listed))
    assert all(is_legal_play(top, p) for p in listed)
    assert can_play(top, hand) == bool(listed)
    # every legal set of cards from the hand appears, once per possible last card
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            for last in subset:
                ordered = (*[c for c in subset if c != last], last)
                assert (ordered in listed) == is_legal_play(top, ordered), (top, ordered)


@pytest.mark.parametrize(("top", "need"), [("AS", 12), ("6D", 7), ("QH", 1)])
def test_single_card_making_thirteen(top: str, need: int) -> None:
    for c in FULL_DECK:
        if c.suit != card(top).suit and c.rank != "K":
            assert is_legal_play(card(top), (c,)) == (VALUE[c] == need)
