"""Properties every Sheepshead hand must keep, over random seeds, table sizes and table options.

Random legal play is the adversary here: whatever it does, a hand must end, every legal move must
apply and every other move must be refused without a trace, the 32 cards and 120 points must all
be accounted for, the money must sum to zero, and no view may show a card its seat cannot see.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import sheepshead as game
from rules.engine.api import replay
from rules.engine.cards import Card
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move
from rules.engine.sheepshead.deck import DECK, JACK_OF_DIAMONDS, POINTS
from rules.engine.sheepshead.state import State
from tests.rules.contract import cards_in, play_out, states_along

SEEDS = st.text(min_size=1, max_size=12)
PLAYERS = st.integers(min_value=3, max_value=7)
PARTNER = st.sampled_from(["jack_of_diamonds", "none"])
STAKES = st.sampled_from([5, 7, 100, 101, 250, 10000])
CHOICES = st.integers(min_value=0, max_value=2**32)


def make(players: int, seed: str, partner: str = "jack_of_diamonds", stake: int = 100) -> State:
    cfg = game.SPEC.make_config(players, {"partner": partner, "stake_cents": stake})
    return game.new_round(cfg, seed)


def all_cards(state: State) -> list[Card]:
    """Every card the state holds, wherever it is (hands, blind or bury, the table, the tricks)."""
    cards = [c for hand in state.hands for c in hand]
    cards += list(state.trick) + [c for _l, _w, trick in state.tricks for c in trick]
    if state.picker is None:
        cards += list(state.blind)  # not picked up (yet): still the blind
    else:
        cards += list(state.buried)  # picked: the blind is in the picker's hand, the bury beside it
    return cards


def visible_to(state: State, seat: int | None) -> set[Card]:
    seen = set(state.trick) | {c for _l, _w, trick in state.tricks for c in trick}
    if seat is not None:
        seen |= set(state.hands[seat])
        if seat == state.picker:
            seen |= set(state.buried)
    return seen


def jd_seen(state: State) -> bool:
    return JACK_OF_DIAMONDS in state.trick or any(JACK_OF_DIAMONDS in t for _l, _w, t in state.tricks)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS, partner=PARTNER, stake=STAKES, choice=CHOICES)
def test_random_hands_end_and_keep_every_card_and_point(
    seed: str, players: int, partner: str, stake: int, choice: int
) -> None:
    state = make(players, seed, partner, stake)
    for current in states_along(game, state, random.Random(choice)):
        cards = all_cards(current)
        assert len(cards) == 32 and set(cards) == set(DECK)
        if current.phase in ("play", "over"):
            hand_sizes = {len(h) for h in current.hands}
            assert max(hand_sizes) - min(hand_sizes) <= 1
    final = current
    assert game.to_act(final) is None
    summary = game.result(final).summary
    money = list(game.result(final).deltas)
    assert sum(money) == 0
    assert summary["money"] == money
    buried = sum(POINTS[c] for c in final.buried)
    assert sum(summary["points"]) + buried == 120
    if final.picker is None:
        assert summary["kind"] == "leaster"
        assert money == game.settle_leaster(players=players, winner=summary["leaster_winner"], stake_cents=stake)
        assert all(m == 0 for m in money) or money[summary["leaster_winner"]] == stake * (players - 1)
    else:
        side = [final.picker] + ([] if final.partner is None else [final.partner])
        assert summary["picker_points"] == sum(summary["points"][s] for s in side) + buried
        assert money == game.settle(
            players=players, picker=final.picker, partner=final.partner,
            picker_points=summary["picker_points"], stake_cents=stake,
        )
        if players < 5 or partner == "none":
            assert final.partner is None
        elif final.partner is not None:
            assert JACK_OF_DIAMONDS in [c for _l, w, t in final.tricks for c in t]
            dealt = game.view(final, None)["record"]["hands"]
            holders = [s for s, hand in enumerate(dealt) if "JD" in hand]
            assert holders == [final.partner]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, choice=CHOICES)
def test_every_legal_move_applies_and_others_are_refused(seed: str, players: int, choice: int) -> None:
    rng = random.Random(choice)
    for state in states_along(game, make(players, seed), rng):
        seat = game.to_act(state)
        if seat is None:
            break
        legal = game.legal_moves(state, seat)
        assert legal and len(set(legal)) == len(legal)
        for other in range(players):
            if other != seat:
                assert game.legal_moves(state, other) == []
        for move in legal:
            game.apply(state, seat, move)
        before = game.to_json(state)
        candidates = [Move("pick"), Move("pass")] + [Move(k, (c,)) for k in ("play", "bury") for c in DECK]
        illegal = [m for m in candidates if m not in legal]
        for move in rng.sample(illegal, 6):
            try:
                game.apply(state, seat, move)
            except IllegalMove as refused:
                assert refused.reason
            else:
                raise AssertionError(f"{move} was accepted but is not legal")
        wrong_seat = (seat + 1) % players
        try:
            game.apply(state, wrong_seat, legal[0])
        except IllegalMove:
            pass
        else:
            raise AssertionError("a move out of turn was accepted")
        assert game.to_json(state) == before


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, partner=PARTNER, choice=CHOICES)
def test_json_round_trip_and_replay(seed: str, players: int, partner: str, choice: int) -> None:
    cfg = game.SPEC.make_config(players, {"partner": partner})
    start = game.new_round(cfg, seed)
    for state in states_along(game, start, random.Random(choice)):
        data = json.loads(json.dumps(game.to_json(state)))
        assert game.from_json(data) == state
    final, moves = play_out(game, start, random.Random(choice))
    assert replay(game, cfg, seed, moves) == final
    record = game.view(final, None)["record"]
    assert [tuple(m) for m in record["moves"]] == moves
    assert record["seed"] == seed


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, partner=PARTNER, choice=CHOICES)
def test_views_never_show_a_hidden_card_nor_the_secret_partner(
    seed: str, players: int, partner: str, choice: int
) -> None:
    for state in states_along(game, make(players, seed, partner), random.Random(choice)):
        over = state.phase == "over"
        for seat in [None, *range(players)]:
            view = game.view(state, seat)
            json.dumps(view)
            assert view["legal"] == ([str(m) for m in game.legal_moves(state, seat)] if seat is not None else [])
            assert view["to_act"] == game.to_act(state)
            assert view["hand_counts"] == [len(h) for h in state.hands]
            if over:
                assert view["record"]["seed"] == state.seed
                continue
            assert cards_in(view) <= visible_to(state, seat), (seat, view)
            assert "record" not in view and '"seed"' not in json.dumps(view)
            assert view["result"] is None
            if state.partner is not None and not jd_seen(state) and seat != state.partner:
                assert view["partner"] is None and view["partner_status"] == "unknown"
            if view["partner"] is not None:
                assert view["partner"] == state.partner
            secret_alone = state.picker is not None and state.partner is None and players >= 5
            if secret_alone and partner == "jack_of_diamonds" and seat != state.picker and not jd_seen(state):
                # the picker plays alone, and only the picker knows it yet
                assert view["partner_status"] in ("unknown", None)
