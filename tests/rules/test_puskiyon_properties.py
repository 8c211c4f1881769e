"""Properties every Puskiyon round must keep, checked over random seeds, table sizes and play.

Random play explores positions no hand-made test thinks of: the deck must stay whole, views must
never show a hidden card, and storage and replay must give back exactly the same round.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import puskiyon as P
from rules.engine.api import replay
from rules.engine.cards import FULL_DECK, Card
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move
from rules.engine.puskiyon.state import DREW_PASSED, DREW_PLAYED, PASSED, PLAYED, State
from tests.rules.contract import cards_in, play_out, states_along

seeds = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12).map(lambda s: f"seed-{s}-x")
players = st.integers(min_value=2, max_value=6)
choices = st.integers(min_value=0, max_value=2**32)


def deal(count: int, seed: str) -> State:
    return P.new_round(P.SPEC.make_config(count), seed)


def all_cards(state: State) -> list[Card]:
    return [c for h in state.hands for c in h] + list(state.stock) + list(state.pile)


@settings(max_examples=40, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_random_play_ends_and_every_card_stays_in_play(count: int, seed: str, pick: int) -> None:
    for state in states_along(P, deal(count, seed), random.Random(pick)):
        cards = all_cards(state)
        assert len(cards) == 52
        assert Counter(cards) == Counter(FULL_DECK)
    assert P.to_act(state) is None


@settings(max_examples=40, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_every_legal_move_applies_and_every_other_move_is_refused(count: int, seed: str, pick: int) -> None:
    rng = random.Random(pick)
    candidates = [Move("play", (c,)) for c in FULL_DECK] + [Move("draw"), Move("pass"), Move("pick")]
    for state in states_along(P, deal(count, seed), rng):
        seat = P.to_act(state)
        for other in range(count):
            if other != seat:
                assert P.legal_moves(state, other) == []
        if seat is None:
            continue
        legal = P.legal_moves(state, seat)
        assert legal and len(set(legal)) == len(legal)
        for move in legal:
            P.apply(state, seat, move)
        before = P.to_json(state)
        for move in rng.sample(candidates, 12):
            if move in legal:
                continue
            try:
                P.apply(state, seat, move)
            except IllegalMove as refusal:
                assert refusal.reason
            else:
                raise AssertionError(f"{move} was applied but is not legal")
            assert P.to_json(state) == before
        wrong = (seat + 1) % count
        try:
            P.apply(state, wrong, legal[0])
        except IllegalMove:
            pass
        else:
            raise AssertionError("a seat moved out of turn")


@settings(max_examples=30, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_json_round_trip_and_replay_rebuild_the_same_round(count: int, seed: str, pick: int) -> None:
    rng = random.Random(pick)
    start = deal(count, seed)
    for state in states_along(P, start, rng):
        assert P.from_json(json.loads(json.dumps(P.to_json(state)))) == state
    final, moves = play_out(P, start, random.Random(pick))
    assert replay(P, P.SPEC.make_config(count), seed, moves) == final


@settings(max_examples=25, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_views_never_show_a_hidden_card_or_the_seed(count: int, seed: str, pick: int) -> None:
    for state in states_along(P, deal(count, seed), random.Random(pick)):
        public = set(state.pile)
        for viewer in [None, *range(count)]:
            seen = P.view(state, viewer)
            text = json.dumps(seen)
            own = set(state.hands[viewer]) if viewer is not None else set()
            if P.to_act(state) is None:
                assert seen["record"]["seed"] == seed
                continue
            assert cards_in(seen) <= public | own, viewer
            assert seed not in text
            assert seen["hand_counts"] == [len(h) for h in state.hands]
            assert sorted(seen["hand"]) == sorted(str(c) for c in own)
            if viewer is None:
                assert seen["legal"] == []
            else:
                assert sorted(seen["legal"]) == sorted(str(m) for m in P.legal_moves(state, viewer))
            assert seen["prompt"]


@settings(max_examples=40, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_results_charge_each_seat_what_it_still_holds(count: int, seed: str, pick: int) -> None:
    final, _moves = play_out(P, deal(count, seed), random.Random(pick))
    outcome = P.result(final)
    assert outcome.deltas == tuple(P.hand_points(h) for h in final.hands)
    assert outcome.unit == "points"
    emptied = [seat for seat, hand in enumerate(final.hands) if not hand]
    if outcome.summary["ending"] == "out":
        assert emptied == [outcome.summary["winner"]]
        assert outcome.deltas[outcome.summary["winner"]] == 0
        assert final.last[0] == outcome.summary["winner"]
        assert final.last[2] == final.pile[-1]
    else:
        assert emptied == []
        assert final.stock == ()
        assert final.passes == count
        assert final.last[1] == PASSED  # a turn that drew never ends a hand
    json.dumps(outcome.summary)


@settings(max_examples=60, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_a_hand_blocks_exactly_when_every_player_in_turn_passed_with_the_stock_empty(
    count: int, seed: str, pick: int
) -> None:
    steps: list[str] = []  # how each turn ended: "pass" (stock empty), "drawpass", or a card played
    for state in states_along(P, deal(count, seed), random.Random(pick)):
        kind = state.last[1]
        if kind in (PASSED, DREW_PASSED, PLAYED, DREW_PLAYED):
            steps.append(kind)
        round_of_passes = len(steps) >= count and set(steps[-count:]) == {PASSED}
        assert P.blocked(state) == round_of_passes, steps[-count:]
        if kind == PASSED:
            assert state.stock == ()


@settings(max_examples=10, deadline=None)
@given(count=players, seed=seeds, pick=choices)
def test_a_match_runs_to_the_target_and_the_lowest_total_wins(count: int, seed: str, pick: int) -> None:
    config = P.SPEC.make_config(count, {"target": 60})
    match = P.start_match(config, seed)
    rng = random.Random(pick)
    while not P.match_over(config, match):
        dealer = match.dealer
        final, _ = play_out(P, P.new_round(config, f"{seed}-{match.number}", match), rng)
        before = match.totals
        match = P.next_match(config, match, final)
        assert match.dealer == (dealer + 1) % count
        assert match.totals == tuple(b + d for b, d in zip(before, P.result(final).deltas, strict=True))
        assert match.number < 200
    winners = P.match_winners(config, match)
    assert winners == [seat for seat, total in enumerate(match.totals) if total == min(match.totals)]
    assert max(match.totals) >= 60
