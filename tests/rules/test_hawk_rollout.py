"""Hawk's play-outs on lists give exactly the value the engine's own random play-out gives, from the same random
numbers, so the search on them is the same search: the same values, the same rng left over, the same decisions."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules.engine.hawk as hawk
from rules.engine import search
from rules.engine.hawk import bot
from rules.engine.hawk.rollout import rollout
from tests.rules.contract import guessed_positions

ENGINE_PLAYOUT = dataclasses.replace(bot.SEARCH, rollout=None)


@pytest.mark.parametrize("per_trick", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_list_playout_has_the_engines_value_from_the_same_random_numbers(players: int, per_trick: bool) -> None:
    values = set()
    checked = 0
    config = hawk.SPEC.make_config(players, {"bonus_per_trick": per_trick})
    for state, seat in guessed_positions(hawk, bot, config, 3, bot.quick):
        fast_rng, engine_rng = random.Random(checked), random.Random(checked)
        fast = search.playout(bot.SEARCH, state, seat, fast_rng)
        assert fast == search.playout(ENGINE_PLAYOUT, state, seat, engine_rng)
        assert fast_rng.random() == engine_rng.random()  # both drew the same random numbers, as many
        values.add(fast)
        checked += 1
    assert checked > 100
    assert len(values) > 5  # the values differ from guess to guess: the check is not of a constant


def test_a_finished_round_is_its_score_and_a_play_out_cut_short_is_refused() -> None:
    state = hawk.new_round(hawk.SPEC.make_config(4), "finished")
    rng = random.Random(2)
    while (turn := hawk.to_act(state)) is not None:
        state = hawk.apply(state, turn, rng.choice(hawk.legal_moves(state, turn)))
    deltas = hawk.result(state).deltas
    for seat in range(4):
        assert rollout(state, seat, 400, random.Random(0)) == deltas[seat] - (sum(deltas) - deltas[seat]) / 3
    start = hawk.new_round(hawk.SPEC.make_config(4), "cut")
    with pytest.raises(ValueError):
        rollout(start, 0, 5, random.Random(0))


def test_the_search_decides_the_same_on_list_playouts() -> None:
    fast_choose = search.pimc_chooser(bot.SEARCH, 200, "same")
    engine_choose = search.pimc_chooser(ENGINE_PLAYOUT, 200, "same")
    decisions = 0
    for number in range(3):
        state = hawk.new_round(hawk.SPEC.make_config(4), f"same-{number}")
        while (turn := hawk.to_act(state)) is not None:
            view, legal = hawk.view(state, turn), hawk.legal_moves(state, turn)
            move = fast_choose(view, legal)
            if len(legal) > 1:
                assert move == engine_choose(view, legal)
                decisions += 1
            state = hawk.apply(state, turn, move)
    assert decisions > 60
