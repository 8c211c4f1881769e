"""Property tests: random legal play over seeds and player counts keeps every Hawk invariant."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.engine.hawk as hawk
from rules.engine.api import replay
from rules.engine.errors import IllegalMove
from rules.engine.hawk.play import PLAY
from rules.engine.moves import Move
from tests.rules.contract import cards_in, play_out, states_along

PLAYERS = st.integers(min_value=2, max_value=6)
SEEDS = st.text(alphabet="0123456789abcdef", min_size=6, max_size=16).map(lambda s: f"hyp-{s}")
RNG_SEEDS = st.integers(min_value=0, max_value=2**32)


def fresh(players: int, seed: str, per_trick: bool = False) -> hawk.State:
    return hawk.new_round(hawk.SPEC.make_config(players, {"bonus_per_trick": per_trick}), seed)


def all_cards(state: hawk.State) -> list:
    return (
        [c for h in state.hands for c in h]
        + list(state.table)
        + [c for t in state.tricks for c in t.cards]
        + list(state.out)
    )


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, rng_seed=RNG_SEEDS)
def test_random_play_ends_and_conserves_cards_and_pips(players, seed, rng_seed):
    start = fresh(players, seed)
    in_play = sum(hawk.PIPS[c] for h in start.hands for c in h)
    steps = 0
    state = start
    for state in states_along(hawk, start, random.Random(rng_seed)):
        cards = all_cards(state)
        assert sorted(cards) == sorted(hawk.DECK)
        held = sum(hawk.PIPS[c] for h in state.hands for c in h)
        shown = sum(hawk.PIPS[c] for c in state.table) + sum(hawk.PIPS[c] for t in state.tricks for c in t.cards)
        assert held + shown == in_play
        steps += 1
    assert hawk.to_act(state) is None
    assert steps == players * hawk.deal_size(players) + 1
    assert len(state.tricks) == hawk.deal_size(players)
    summary = hawk.result(state).summary
    assert summary["lafh_pips"] + summary["nob_pips"] == in_play
    assert sum(summary["pips_won"]) == in_play
    assert sum(summary["tricks_won"]) == hawk.deal_size(players)


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, rng_seed=RNG_SEEDS)
def test_every_legal_move_applies_and_illegal_ones_change_nothing(players, seed, rng_seed):
    rng = random.Random(rng_seed)
    for state in states_along(hawk, fresh(players, seed), rng):
        seat = hawk.to_act(state)
        if seat is None:
            for anyone in range(players):
                assert hawk.legal_moves(state, anyone) == []
            break
        legal = hawk.legal_moves(state, seat)
        assert legal and len(set(legal)) == len(legal)
        for move in legal:
            after = hawk.apply(state, seat, move)
            assert move.cards[0] not in after.hands[seat]
        for other in range(players):
            if other != seat:
                assert hawk.legal_moves(state, other) == []
        before = hawk.to_json(state)
        illegal = [PLAY[c] for c in hawk.DECK if PLAY[c] not in legal]
        for move in [*rng.sample(illegal, min(4, len(illegal))), Move("pass"), Move("play", legal[0].cards * 2)]:
            try:
                hawk.apply(state, seat, move)
            except IllegalMove as refused:
                assert refused.reason
            else:
                raise AssertionError(f"{move} was accepted but is not legal")
        if players > 1:
            try:
                hawk.apply(state, (seat + 1) % players, legal[0])
            except IllegalMove:
                pass
            else:
                raise AssertionError("a move out of turn was accepted")
        assert hawk.to_json(state) == before


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, rng_seed=RNG_SEEDS, per_trick=st.booleans())
def test_json_round_trip_and_replay(players, seed, rng_seed, per_trick):
    start = fresh(players, seed, per_trick)
    rng = random.Random(rng_seed)
    for state in states_along(hawk, start, rng):
        data = json.loads(json.dumps(hawk.to_json(state)))
        assert hawk.from_json(data) == state
    final, moves = play_out(hawk, start, random.Random(rng_seed))
    assert replay(hawk, start.config, seed, moves) == final


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, rng_seed=RNG_SEEDS)
def test_views_never_show_a_hidden_card_or_the_seed(players, seed, rng_seed):
    for state in states_along(hawk, fresh(players, seed), random.Random(rng_seed)):
        public = set(state.table) | {c for t in state.tricks for c in t.cards}
        over = hawk.to_act(state) is None
        for seat in [None, *range(players)]:
            view = hawk.view(state, seat)
            json.dumps(view)
            own = set() if seat is None else set(state.hands[seat])
            if over:
                assert cards_in(view) == set(hawk.DECK)  # the record shows everything
                assert view["record"]["seed"] == seed
                continue
            assert cards_in(view) <= public | own, f"seat {seat} sees {cards_in(view) - public - own}"
            assert seed not in json.dumps(view)
            assert "record" not in view
            expected_hand = [] if seat is None else [str(c) for c in state.hands[seat]]
            assert view["hand"] == expected_hand
            assert view["hand_counts"] == [len(h) for h in state.hands]


@settings(max_examples=60, deadline=None)
@given(players=PLAYERS, seed=SEEDS, rng_seed=RNG_SEEDS)
def test_results_follow_the_party_rules_and_stay_within_60_and_180(players, seed, rng_seed):
    final, _ = play_out(hawk, fresh(players, seed), random.Random(rng_seed))
    outcome = hawk.result(final)
    summary = outcome.summary
    first, last = final.tricks[0].winner, final.tricks[-1].winner
    lafh = {last} if players <= 3 else {first, last}
    assert set(summary["lafh"]) == lafh
    solo = players >= 4 and first == last
    assert summary["solo"] is solo
    points = summary["points"]
    assert points == summary["k"] * players * (3 if solo else 1)
    assert outcome.deltas == tuple(points if s in lafh else 0 for s in range(players))
    assert abs(summary["k"]) <= 10
    assert abs(points) <= (180 if solo else 60)
    assert summary["won"] is (summary["lafh_pips"] > summary["nob_pips"])
    assert (summary["k"] - summary["bonus"] > 0) is summary["won"]
    assert outcome.unit == "points"
    json.dumps(summary)
