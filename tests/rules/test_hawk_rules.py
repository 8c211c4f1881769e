"""Hawk's card rules: the deal, who takes a trick, what may be played, and the match around rounds."""

from __future__ import annotations

import pytest

import rules.engine.hawk as hawk
from rules.engine.api import Config, Match, RoundResult
from rules.engine.cards import parse_cards
from rules.engine.errors import ConfigError, IllegalMove
from rules.engine.moves import Move
from rules.engine.registry import game
from tests.rules.hawk_support import state_with


def play(text: str) -> Move:
    return Move.parse(f"play {text}")


def legal_texts(state: hawk.State, seat: int) -> list[str]:
    return [str(m) for m in hawk.legal_moves(state, seat)]


# --- the seed's four example tricks (each on its own: the text reuses 5D and 2S across tricks) ---


def test_seed_trick_1_hearts_trump_the_led_diamonds():
    assert hawk.trick_winner(parse_cards("3D 5D 9H 7D")) == 2


def test_seed_trick_2_the_two_of_spades_leads_and_holds():
    assert hawk.trick_winner(parse_cards("2S 4S 8S 7S")) == 0


def test_seed_trick_3_the_club_seven_overtrumps_the_club_eight_for_25_pips():
    cards = parse_cards("AS 8C 9S 7C")
    assert hawk.trick_winner(cards) == 3
    assert sum(hawk.PIPS[c] for c in cards) == 25


def test_seed_trick_4_spades_trump_hearts_and_the_diamond_is_thrown_away():
    assert hawk.trick_winner(parse_cards("3H 6H 5D 2S")) == 3


def test_seed_first_two_tricks_give_player_three_45_pips():
    taken = parse_cards("3D 5D 9H 7D 2S 4S 8S 7S")
    assert sum(hawk.PIPS[c] for c in taken) == 45


# --- trick_winner in general ---


@pytest.mark.parametrize(
    ("led", "trump"),
    [("S", "C"), ("H", "S"), ("D", "H"), ("C", "D")],
)
def test_each_suit_is_trumped_by_exactly_one_other(led, trump):
    assert hawk.TRUMPED_BY[led] == trump
    # the weakest trump beats the strongest led card
    assert hawk.trick_winner(parse_cards(f"A{led} 10{trump}")) == 1
    # the remaining two suits never win, however strong
    others = [s for s in "CDHS" if s not in (led, trump)]
    assert hawk.trick_winner(parse_cards(f"10{led} A{others[0]} A{others[1]}")) == 0


def test_diamonds_beat_clubs_closing_the_ring():
    assert hawk.trick_winner(parse_cards("AC 2C 10D")) == 2


def test_strength_runs_ace_high_ten_low():
    assert hawk.trick_winner(parse_cards("10H 9H AH 2H")) == 2
    assert hawk.trick_winner(parse_cards("5C 4C 6C")) == 1


def test_strongest_trump_wins_among_several_trumps():
    assert hawk.trick_winner(parse_cards("AD 9H 3H 2D 7H")) == 2


def test_first_card_wins_when_nobody_follows_or_trumps():
    assert hawk.trick_winner(parse_cards("10S AD AH")) == 0


def test_empty_trick_has_no_winner():
    with pytest.raises(ValueError):
        hawk.trick_winner(())


@pytest.mark.parametrize("cards", ["JC 2C", "2C KS", "AS QH 3S"])
def test_a_card_outside_hawks_deck_is_refused_with_value_error(cards):
    with pytest.raises(ValueError, match="not a Hawk card"):
        hawk.trick_winner(parse_cards(cards))


def test_text_instead_of_a_card_is_refused_with_value_error():
    with pytest.raises(ValueError, match="not a Hawk card"):
        hawk.trick_winner(("AS", "2S"))  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", ["7C 7C", "3D 5D 3D", "AS 8C 9S 8C"])
def test_a_card_played_twice_in_one_trick_is_refused_with_value_error(cards):
    with pytest.raises(ValueError, match="twice"):
        hawk.trick_winner(parse_cards(cards))


# --- the deal ---


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 12), (4, 10), (5, 8), (6, 6)])
def test_deal_size_and_the_cards_out_of_play(players, size):
    assert hawk.deal_size(players) == size
    state = hawk.new_round(hawk.SPEC.make_config(players), f"deal-{players}")
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.out) == 40 - players * size
    everything = [c for h in state.hands for c in h] + list(state.out)
    assert sorted(everything) == sorted(hawk.DECK)
    assert len(hawk.DECK) == 40
    assert sum(hawk.PIPS.values()) == 220


@pytest.mark.parametrize("players", [1, 7, 0])
def test_deal_size_refuses_other_player_counts(players):
    with pytest.raises(ValueError):
        hawk.deal_size(players)


def test_the_same_seed_deals_the_same_cards_and_another_seed_does_not():
    config = hawk.SPEC.make_config(4)
    assert hawk.new_round(config, "same") == hawk.new_round(config, "same")
    assert hawk.new_round(config, "same").hands != hawk.new_round(config, "other").hands


def test_seat_left_of_the_dealer_leads_the_first_trick():
    config = hawk.SPEC.make_config(4)
    state = hawk.new_round(config, "lead")
    assert state.dealer == 3
    assert hawk.to_act(state) == 0


def test_with_a_match_the_matchs_dealer_deals():
    config = hawk.SPEC.make_config(5)
    first = hawk.start_match(config, "m")
    assert first.dealer == 4
    state = hawk.new_round(config, "x", Match(number=2, dealer=1, totals=(0,) * 5, seed="m"))
    assert state.dealer == 1
    assert hawk.to_act(state) == 2


def test_hands_are_sorted_by_suit_then_strength():
    state = hawk.new_round(hawk.SPEC.make_config(2), "sorted")
    for hand in state.hands:
        keys = [("CDHS".index(c.suit), hawk.PIPS[c]) for c in hand]
        assert keys == sorted(keys)


def test_new_round_refuses_another_games_config():
    with pytest.raises(ConfigError):
        hawk.new_round(Config(game="sheepshead", players=4), "x")


# --- what may be played ---


def test_the_leader_may_lead_any_card():
    state = state_with(["AC 5D 9H", "2C 6D 10H", "3C 7D AS", "4C 8D 2S"])
    assert legal_texts(state, 0) == ["play AC", "play 5D", "play 9H"]
    assert legal_texts(state, 1) == []


def test_following_suit_is_compulsory():
    state = state_with(["AC 5D 9H", "2C 6D 10H", "3C 7D AS", "4C 8D 2S"])
    state = hawk.apply(state, 0, play("5D"))
    assert legal_texts(state, 1) == ["play 6D"]
    with pytest.raises(IllegalMove, match="follow suit"):
        hawk.apply(state, 1, play("10H"))


def test_a_void_player_may_trump_or_throw_anything():
    state = state_with(["AC 5D 9H", "2C 6C 10H", "3C 7D AS", "4C 8D 2S"])
    state = hawk.apply(state, 0, play("5D"))
    # seat 1 has no diamond: the heart (trumps diamonds) and both clubs are all legal
    assert sorted(legal_texts(state, 1)) == ["play 10H", "play 2C", "play 6C"]
    thrown = hawk.apply(state, 1, play("2C"))
    assert thrown.table == parse_cards("5D 2C")


def test_trick_goes_to_the_winner_who_leads_next():
    state = state_with(["AC 5D 9H", "2C 6C 10H", "3C 7D AS", "4C 8D 2S"])
    for seat, text in [(0, "5D"), (1, "10H"), (2, "7D"), (3, "8D")]:
        state = hawk.apply(state, seat, play(text))
    assert state.tricks[-1].winner == 1  # the ten of hearts trumps the diamonds
    assert state.table == ()
    assert hawk.to_act(state) == 1


def test_the_round_ends_after_the_last_trick():
    state = state_with(["AC", "2C", "3C", "4C"])
    for seat, text in [(0, "AC"), (1, "2C"), (2, "3C"), (3, "4C")]:
        state = hawk.apply(state, seat, play(text))
    assert hawk.to_act(state) is None
    assert hawk.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        hawk.apply(state, 0, play("AC"))


@pytest.mark.parametrize(
    ("seat", "text", "words"),
    [
        (1, "play 2C", "turn"),
        (0, "play 2C", "do not hold"),
        (0, "play JC", "do not hold"),
        (0, "pass", "one card"),
        (0, "play AC 5D", "one card"),
        (0, "bury AC", "one card"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(seat, text, words):
    state = state_with(["AC 5D 9H", "2C 6C 10H", "3C 7D AS", "4C 8D 2S"])
    before = hawk.to_json(state)
    with pytest.raises(IllegalMove, match=words):
        hawk.apply(state, seat, Move.parse(text))
    assert hawk.to_json(state) == before


def test_a_move_that_is_not_a_move_is_refused():
    state = state_with(["AC", "2C"])
    with pytest.raises(IllegalMove):
        hawk.apply(state, 0, "play AC")  # type: ignore[arg-type]


def test_result_before_the_end_is_refused():
    with pytest.raises(ValueError):
        hawk.result(hawk.new_round(hawk.SPEC.make_config(3), "early"))


# --- the match ---


def test_match_moves_the_dealer_adds_deltas_and_ends_once_round_the_table():
    config = hawk.SPEC.make_config(3)
    match = hawk.start_match(config, "m")
    assert (match.number, match.dealer, match.totals) == (0, 2, (0, 0, 0))
    state = state_with(["AC", "2C", "3C"])
    for seat, text in [(0, "AC"), (1, "2C"), (2, "3C")]:
        state = hawk.apply(state, seat, play(text))
    outcome: RoundResult = hawk.result(state)
    # seat 0 took the only (last) trick: LAFH alone with every trick: k 7, 3 players, no solo factor
    assert outcome.deltas == (21, 0, 0)
    after = hawk.next_match(config, match, state)
    assert (after.number, after.dealer, after.totals) == (1, 0, (21, 0, 0))
    assert not hawk.match_over(config, after)
    assert hawk.match_winners(config, after) == [0]
    done = Match(number=3, dealer=2, totals=(5, 9, 9), seed="m")
    assert hawk.match_over(config, done)
    assert hawk.match_winners(config, done) == [1, 2]


def test_rounds_option_sets_the_match_length():
    config = hawk.SPEC.make_config(4, {"rounds": 2})
    assert not hawk.match_over(config, Match(number=1, dealer=0, totals=(0,) * 4))
    assert hawk.match_over(config, Match(number=2, dealer=1, totals=(0,) * 4))


def test_spec_and_registry():
    assert game("hawk") is hawk
    assert (hawk.SPEC.min_players, hawk.SPEC.max_players, hawk.SPEC.default_players) == (2, 6, 4)
    assert hawk.SPEC.unit == "points"
    assert [o.name for o in hawk.SPEC.options] == ["bonus_per_trick", "rounds"]
    assert hawk.SPEC.make_config().get("bonus_per_trick") is False
