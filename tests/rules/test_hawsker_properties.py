"""Properties every Hawsker round must keep, over many seeded deals and random legal play.

Rounds are also played inside matches (the deal continuing from earlier rounds with kept hands), since
that is where cards could go missing or leak into a view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import hawsker as game
from rules.engine.api import Match, replay
from rules.engine.cards import FULL_DECK
from rules.engine.errors import IllegalMove
from rules.engine.hawsker.state import State
from rules.engine.moves import Move
from tests.rules.contract import cards_in, play_out, states_along

CONFIG = game.SPEC.make_config(2)
seeds = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=6, max_size=16).map(lambda s: "s-" + s)
picks = st.integers(min_value=0, max_value=2**32)
earlier = st.integers(min_value=0, max_value=4)  # rounds already played in the match


def match_after(rounds: int, seed: str, pick: int) -> Match:
    """A match with `rounds` random rounds behind it, so hands and the stock carry over."""
    match = game.start_match(CONFIG, seed)
    rng = random.Random(pick)
    for number in range(rounds):
        state, _ = play_out(game, game.new_round(CONFIG, f"{seed}-{number}", match), rng)
        match = game.next_match(CONFIG, match, state)
    return match


def conserved(state: State) -> bool:
    every = [*state.hands[0], *state.hands[1], *state.stock, *state.table, *state.waste]
    return len(every) == 52 and set(every) == set(FULL_DECK)


def every_state(seed: str, pick: int, rounds: int) -> Iterator[State]:
    match = match_after(rounds, seed, pick)
    yield from states_along(game, game.new_round(CONFIG, seed, match), random.Random(pick + 1))


@settings(max_examples=60, deadline=None)
@given(seeds, picks, earlier)
def test_random_play_ends_and_conserves_every_card(seed: str, pick: int, rounds: int) -> None:
    states = list(every_state(seed, pick, rounds))
    assert all(conserved(s) for s in states)
    final = states[-1]
    assert game.to_act(final) is None
    assert final.phase == "over"
    for state in states[:-1]:
        seat = game.to_act(state)
        assert seat is not None and game.legal_moves(state, seat)
        assert game.legal_moves(state, 1 - seat) == []
        assert len(state.history) <= 10
        assert state.plays[0] <= 5 and state.plays[1] <= 5


@settings(max_examples=25, deadline=None)
@given(seeds, picks, earlier)
def test_every_legal_move_applies_and_illegal_ones_change_nothing(seed: str, pick: int, rounds: int) -> None:
    rng = random.Random(pick)
    for state in every_state(seed, pick, rounds):
        seat = game.to_act(state)
        if seat is None:
            continue
        legal = game.legal_moves(state, seat)
        assert len(legal) == len(set(legal))
        before = game.to_json(state)
        for move in legal:
            after = game.apply(state, seat, move)
            assert conserved(after)
        # Random moves that are not legal (nor a legal play with its leading cards reordered).
        listed = {(m.kind, frozenset(m.cards), m.cards[-1] if m.cards else None) for m in legal}
        for _ in range(6):
            kind = rng.choice(["play", "discard", "draw"])
            cards = tuple(rng.sample(FULL_DECK, rng.randint(0, 3)))
            if (kind, frozenset(cards), cards[-1] if cards else None) in listed and len(set(cards)) == len(cards):
                continue
            for who in (seat, 1 - seat):
                try:
                    game.apply(state, who, Move(kind, cards))
                except IllegalMove as error:
                    assert error.reason
                else:
                    raise AssertionError(f"{kind} {cards} by {who} was accepted")
        assert game.to_json(state) == before


@settings(max_examples=30, deadline=None)
@given(seeds, picks, earlier)
def test_json_round_trip_and_replay(seed: str, pick: int, rounds: int) -> None:
    match = match_after(rounds, seed, pick)
    start = game.new_round(CONFIG, seed, match)
    final, moves = play_out(game, start, random.Random(pick))
    for state in (start, final):
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
    assert replay(game, CONFIG, seed, moves, match) == final
    # The match itself survives JSON, and the next round deals the same from it.
    following = game.next_match(CONFIG, match, final)
    again = Match.from_json(json.loads(json.dumps(following.to_json())))
    assert game.new_round(CONFIG, "next", again) == game.new_round(CONFIG, "next", following)


@settings(max_examples=50, deadline=None)
@given(seeds, picks, earlier)
def test_views_never_show_a_hidden_card_or_the_seed(seed: str, pick: int, rounds: int) -> None:
    for state in every_state(seed, pick, rounds):
        played = {c for _, cards in state.history for c in cards} | set(state.table)
        for seat in (0, 1, None):
            view = game.view(state, seat)
            text = json.dumps(view)
            assert view["game"] == "hawsker" and view["over"] == (state.phase == "over")
            if state.phase == "over":
                assert view["record"]["seed"] == state.seed
                continue
            assert state.seed not in text
            assert "record" not in view
            # The hands carried into the round were scored face up at the end of the last one: public.
            allowed = set(played) | set(state.kept[0]) | set(state.kept[1])
            assert view["kept"] == [[str(c) for c in h] for h in state.kept]
            if seat is not None:
                allowed |= set(state.hands[seat]) | set(state.discards[seat])
                assert view["legal"] == [str(m) for m in game.legal_moves(state, seat)]
            assert cards_in(view) <= allowed, (seat, cards_in(view) - allowed)


@settings(max_examples=30, deadline=None)
@given(seeds, picks, earlier)
def test_results_follow_the_rules(seed: str, pick: int, rounds: int) -> None:
    match = match_after(rounds, seed, pick)
    final, _ = play_out(game, game.new_round(CONFIG, seed, match), random.Random(pick))
    outcome = game.result(final)
    assert outcome.unit == "points"
    assert outcome.deltas == tuple(game.score_hand(h) for h in final.scored)
    json.dumps(outcome.summary)
    if final.ending == "plays":
        assert final.plays == (5, 5)
        assert final.scored == final.hands
    elif final.ending == "stuck":
        assert outcome.deltas[final.ender] == 0 and final.hands[final.ender] == ()
        assert final.scored[1 - final.ender] == final.hands[1 - final.ender]
    else:
        assert final.ending == "steal"
        assert outcome.deltas[1 - final.ender] == 0 and final.hands[1 - final.ender] == ()
        assert final.hands[final.ender] == final.scored[final.ender]
    following = game.next_match(CONFIG, match, final)
    assert following.totals == tuple(t + d for t, d in zip(match.totals, outcome.deltas, strict=True))
