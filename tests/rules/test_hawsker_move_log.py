"""Hawsker's move log as each player reads it: a move is told to the one who made it as their own ("You played
4C"), a discard names its card only to the one who laid it face down, and a spectator and the other player read
the one public account."""

from __future__ import annotations

import random
from dataclasses import replace

from rules.engine import hawsker as game
from rules.engine.cards import parse_cards
from rules.engine.hawsker.state import State
from rules.engine.text import Said
from tests.rules.contract import cards_in
from tests.rules.test_hawsker_rounds import CONFIG, arranged, play


def told(state: State, viewer: int | None) -> str:
    return str(game.last_event(state, viewer))


def test_a_play_is_told_to_its_player_as_their_own() -> None:
    state = play(arranged("AC 2D 5H 6C", "9S 10C JS", table="5S", stock="QD 3C"), 0, "play 2D 6C")
    assert told(state, 0) == "You played 2D 6C and drew a card."
    assert told(state, 1) == told(state, None) == "Seat 0 played 2D 6C and drew a card."
    # the board's line under the hand says the same as the log
    assert [game.view(state, viewer)["last"] for viewer in (0, 1, None)] == [told(state, v) for v in (0, 1, None)]


def test_a_play_with_nothing_left_to_draw_is_told_without_a_draw() -> None:
    bare = replace(arranged("AC 2D 5H 6C", "9H 10C JS", stock=""), waste=())
    state = play(bare, 0, "play 5H")
    assert state.hands[0] == parse_cards("AC 2D 6C")
    assert told(state, 0) == "You played 5H."
    assert told(state, 1) == "Seat 0 played 5H."


def test_a_steal_is_told_to_the_stealer_and_to_the_one_robbed() -> None:
    state = play(arranged("4C 4D", "6H 7H 7S 9D QC", table="5S", stock="AC 2C"), 0, "play 4C 4D")
    assert told(state, 0) == ("You played 4C 4D and emptied your hand: that is a steal. "
                              "You will score seat 1's hand.")
    assert told(state, 1) == ("Seat 0 played 4C 4D and emptied the hand: that is a steal. "
                              "Seat 0 will score your hand.")
    assert told(state, None) == str(state.last)


def test_being_stuck_is_told_to_the_stuck_player_after_the_others_play() -> None:
    state = play(arranged("5H 9C 10D", "2C 3C JD", table="", stock="4S AD"), 0, "play 5H")
    assert told(state, 1) == ("Seat 0 played 5H and drew a card. You cannot play, so pegging ends: "
                              "you discard your whole hand and score nothing.")
    assert told(state, 0) == ("You played 5H and drew a card. Seat 1 cannot play, so pegging ends: "
                              "seat 1 discards the whole hand and scores nothing.")


def test_a_discard_names_its_card_to_the_one_who_laid_it_only() -> None:
    state = game.new_round(CONFIG, "log")
    seen = 0
    while state.phase == "discard":
        seat = game.to_act(state)
        move = game.legal_moves(state, seat)[-1]
        state = game.apply(state, seat, move)
        card = str(move.cards[0])
        assert told(state, seat).startswith(f"You discarded {card} face down.")
        for other in (1 - seat, None):
            assert told(state, other).startswith(f"Seat {seat} discarded a card face down.")
            assert card not in told(state, other)
        seen += 1
    assert seen == 4


def test_the_last_discard_before_the_count_names_its_card_and_every_score() -> None:
    state = play(arranged("4C 4D", "6H 7H 7S 9D QC", table="5S", stock="AC 2C"), 0, "play 4C 4D")
    state = play(state, 1, "discard QC")
    assert told(state, 1) == "You discarded QC face down. The hands are scored: seat 0 6, seat 1 0."
    assert told(state, 0) == "Seat 1 discarded a card face down. The hands are scored: seat 0 6, seat 1 0."


def test_whole_rounds_tell_each_player_only_what_they_may_know() -> None:
    """Over random rounds: the only card a player's line names beyond the public one is one of their own
    discards, a line not about them is the public one, and every line stays a sentence the catalogue translates."""
    rng = random.Random(5)
    own_lines = 0
    for number in range(12):
        state = game.new_round(CONFIG, f"rounds-{number}")
        while state.phase != "over":
            seat = game.to_act(state)
            state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            public = told(state, None)
            assert public == str(state.last)
            for viewer in (0, 1):
                line = game.last_event(state, viewer)
                assert isinstance(line, Said)
                assert cards_in(str(line)) - cards_in(public) <= set(state.discards[viewer])
                if "You" in str(line) or "your" in str(line):
                    own_lines += 1
                else:
                    assert str(line) == public
    assert own_lines > 12 * 8


def test_the_cards_named_are_the_ones_played() -> None:
    state = play(arranged("AC 2D 5H 6C", "9S 10C JS", table="5S", stock="QD 3C"), 0, "play 5H AC 2D")
    assert parse_cards(told(state, 0).split(" and ")[0].removeprefix("You played ")) == parse_cards("AC 5H 2D")
