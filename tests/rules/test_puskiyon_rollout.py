"""Puskiyon's play-outs on bit masks give exactly the value the engine's own play-out gives, so the search on them
is the same search: the same value on every guessed state, cut short or played out, and the same decisions."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules.engine.puskiyon as game
from rules.engine import search
from rules.engine.puskiyon import bot
from rules.engine.puskiyon.spec import SPEC
from tests.rules.contract import guessed_positions

ENGINE_PLAYOUT = dataclasses.replace(bot.SEARCH, rollout=None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_mask_playout_has_the_engines_value_on_every_guess(players: int) -> None:
    rng = random.Random(0)
    values = set()
    checked = 0
    for state, seat in guessed_positions(game, bot, SPEC.make_config(players), 6):
        fast = search.playout(bot.SEARCH, state, seat, rng)
        assert fast == search.playout(ENGINE_PLAYOUT, state, seat, rng)
        values.add(fast)
        checked += 1
    assert checked > 150
    assert len(values) > 20  # the values differ from guess to guess: the check is not of a constant


@pytest.mark.parametrize("limit", [1, 2, 5, 17])
def test_a_mask_playout_cut_short_has_the_engines_estimate(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    monkeypatch.setattr(search, "MAX_PLAYOUT_MOVES", limit)
    rng = random.Random(1)
    cut = 0
    for state, seat in guessed_positions(game, bot, SPEC.make_config(4), 3):
        fast = search.playout(bot.SEARCH, state, seat, rng)
        assert fast == search.playout(ENGINE_PLAYOUT, state, seat, rng)
        cut += bot.SEARCH.rollout(state, seat, 10_000, rng) != fast  # type: ignore[misc]
    assert cut > 20  # many of these play-outs really were cut short


def test_a_mask_playout_of_a_finished_hand_is_its_score() -> None:
    state = game.new_round(SPEC.make_config(3), "finished")
    while (turn := game.to_act(state)) is not None:
        state = game.apply(state, turn, bot.choose(game.view(state, turn), game.legal_moves(state, turn)))
    points = [game.hand_points(h) for h in state.hands]
    for seat in range(3):
        expected = (sum(points) - points[seat]) / 2 - points[seat]
        assert bot.SEARCH.rollout(state, seat, 400, random.Random(0)) == expected  # type: ignore[misc]


def test_the_search_decides_the_same_on_mask_playouts() -> None:
    decisions = 0
    for number in range(2):
        state = game.new_round(SPEC.make_config(4), f"same-{number}")
        fast = [search.pimc_chooser(bot.SEARCH, 200, f"s{seat}", width=2) for seat in range(4)]
        engine = [search.pimc_chooser(ENGINE_PLAYOUT, 200, f"s{seat}", width=2) for seat in range(4)]
        while (turn := game.to_act(state)) is not None:
            view, legal = game.view(state, turn), game.legal_moves(state, turn)
            move = fast[turn](view, legal)
            assert move == engine[turn](view, legal)
            decisions += len(legal) > 1
            state = game.apply(state, turn, move)
    assert decisions > 20


def test_a_guess_from_a_view_read_before_is_the_guess_from_a_fresh_copy() -> None:
    views = []
    state = game.new_round(SPEC.make_config(4), "facts")
    while (turn := game.to_act(state)) is not None and len(views) < 30:
        views.append(game.view(state, turn))
        state = game.apply(state, turn, bot.choose(views[-1], game.legal_moves(state, turn)))
    for view in views:
        again = [bot.determinize(view, random.Random(seed)) for seed in range(3)]  # the second and third reuse
        fresh = [bot.determinize(dict(view), random.Random(seed)) for seed in range(3)]
        assert again == fresh
        assert len(set(again)) == 3
