"""The Sheepshead search's play-outs read each trick-play decision straight off the guessed state
(`_Table.of_state`); that reading must be exactly the one the easy bot makes of the seat's view, so the play-outs
play the same cards as before, only faster."""

from __future__ import annotations

import random

import pytest

import rules.engine.sheepshead as game
from rules.engine.sheepshead import bot
from rules.engine.sheepshead.bot import _Table
from rules.engine.sheepshead.state import PLAY
from rules.engine.sheepshead.views import bot_view


def trick_play(players: int, partner: str, rounds: int):
    """(state, seat) for every seat at every trick-play step of easy-bot hands, and of guesses made from them."""
    config = game.SPEC.make_config(players, {"partner": partner})
    for number in range(rounds):
        state = game.new_round(config, f"reading-{players}-{partner}-{number}")
        while (turn := game.to_act(state)) is not None:
            view = game.view(state, turn)
            if state.phase == PLAY:
                guess = bot.determinize(view, random.Random(number))
                for seat in range(players):
                    yield state, seat
                    yield guess, seat
            state = game.apply(state, turn, bot.choose(view, game.legal_moves(state, turn)))


@pytest.mark.parametrize("partner", [game.SPEC.options[0].default, "none"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_state_reading_is_the_bots_reading_of_the_view(players: int, partner: str) -> None:
    positions = set()
    for state, seat in trick_play(players, partner, 6):
        fast = vars(_Table.of_state(state, seat))
        assert fast == vars(_Table(bot_view(state, seat)))
        assert fast == vars(_Table(game.view(state, seat)))
        positions.add((len(fast["trick"]), len(fast["hand"])))
    assert len(positions) > players * 4  # every place in a trick, early and late in the hand


def test_the_readings_cover_leasters_lone_pickers_and_hidden_and_known_partners() -> None:
    kinds = set()
    for players in (3, 5):
        for state, seat in trick_play(players, game.SPEC.options[0].default, 12):
            fast = vars(_Table.of_state(state, seat))
            assert fast == vars(_Table(bot_view(state, seat)))
            kinds.add((fast["leaster"], fast["status"], fast["partner"] is not None))
    assert {(True, None, False), (False, "alone", False), (False, "unknown", False), (False, "known", True)} <= kinds


def test_the_play_outs_policy_plays_the_easy_bots_cards_from_either_reading() -> None:
    state = game.new_round(game.SPEC.make_config(5), "either")
    decided = 0
    while (turn := game.to_act(state)) is not None:
        legal = game.legal_moves(state, turn)
        move = bot.choose(game.view(state, turn), legal)
        assert bot.SEARCH.policy(bot.SEARCH.observe(state, turn), legal) == move  # type: ignore[misc]
        decided += len(legal) > 1
        state = game.apply(state, turn, move)
    assert decided > 10
