"""Hawk's bot: legal, seeing only its view, steering the parties, and better than random play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.engine.hawk as hawk
from rules.engine.hawk import bot
from rules.engine.moves import Move
from tests.rules.contract import states_along
from tests.rules.hawk_support import state_midway, state_with


def play(state, seat, text):
    return hawk.apply(state, seat, Move.parse(f"play {text}"))


def bot_move(state) -> str:
    seat = hawk.to_act(state)
    view = json.loads(json.dumps(hawk.view(state, seat)))  # exactly what a browser-side seat gets
    return str(bot.choose(view, hawk.legal_moves(state, seat)))


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.text(alphabet="0123456789abcdef", min_size=4, max_size=10),
    rng_seed=st.integers(min_value=0, max_value=2**32),
)
def test_bot_always_picks_a_legal_move_from_its_view_alone(players, seed, rng_seed):
    state = hawk.new_round(hawk.SPEC.make_config(players), f"bot-{seed}")
    for state in states_along(hawk, state, random.Random(rng_seed)):  # noqa: B020 - walk the random round
        seat = hawk.to_act(state)
        if seat is None:
            break
        legal = hawk.legal_moves(state, seat)
        choice = bot.choose(hawk.view(state, seat), legal)
        assert choice in legal


def test_bot_is_repeatable_for_the_same_view():
    state = hawk.new_round(hawk.SPEC.make_config(4), "repeat")
    for _ in range(30):
        state = hawk.apply(state, hawk.to_act(state), hawk.legal_moves(state, hawk.to_act(state))[0])
    assert len({bot_move(state) for _ in range(3)}) == 1


# Eight tricks are gone; the clubs A to 8 are left, two each, the bot (seat 2) holding AC and 8C.
# Whoever plays AC in trick 9 takes it and then loses the last trick with 8C; keeping AC for the
# end takes the last trick for sure. So the bot's card in trick 9 decides whether it is LAFH.
CLUBS_LEFT = ["2C 5C", "3C 6C", "AC 8C", "4C 7C"]


def _trick_nine(history: list[str]) -> hawk.State:
    state = state_midway(CLUBS_LEFT, history)
    others = {0: "2C", 1: "3C", 3: "4C"}
    while hawk.to_act(state) != 2:
        state = play(state, hawk.to_act(state), others[hawk.to_act(state)])
    return state


def test_bot_avoids_the_last_trick_when_its_side_would_lose():
    # seat 0 took the first trick but only 40 pips; seat 1 holds 107: LAFH with seat 0 would lose
    state = _trick_nine(
        [
            "AD 3D 5D 7D",
            "9D 2D 4D 6D",
            "AH 9H 10H 8D",
            "AS 3S 5S 7S",
            "2S 4S 6S 8S",
            "2H 4H 6H 10D",
            "3H 5H 7H 9S",
            "10C 10S 8H 9C",
        ]
    )
    assert [t.winner for t in state.tricks][:1] == [0] and hawk.view(state, 2)["pips_won"] == [40, 107, 0, 37]
    assert bot_move(state) == "play AC"


def test_bot_takes_the_last_trick_when_its_side_wins():
    # seat 0 took the first trick and 160 pips: LAFH with seat 0 wins big, so the bot wants in
    state = _trick_nine(
        [
            "AD 3D 5D 7D",
            "2D 4D 6D 9D",
            "AH 9H 10H 8D",
            "AS 3S 5S 7S",
            "2S 4S 6S 8S",
            "2H 4H 6H 10D",
            "3H 5H 7H 9S",
            "10S 9C 10C 8H",
        ]
    )
    assert [t.winner for t in state.tricks][:1] == [0] and hawk.view(state, 2)["pips_won"] == [160, 0, 0, 24]
    assert bot_move(state) == "play 8C"


def test_bot_does_not_take_the_first_trick_with_an_ordinary_hand():
    hands = [
        "AC 2C 3C 4D 5D 6H 7H 8S 9S 10S",
        "4C 5C 6C 7D 8D 9H 10H AS 2S 3S",
        "7C 8C 9C 10D AD 2H 3H 4S 5S 6S",
        "10C 2D 3D 9D AH 4H 5H 8H 9H 7S",
    ]
    state = state_with(hands)
    for seat, text in [(0, "4D"), (1, "7D"), (2, "10D")]:
        state = play(state, seat, text)
    # seat 3 must follow diamonds: 2D would take the trick, 3D and 9D would not (7D holds)
    assert bot_move(state) == "play 9D"


def test_bot_beats_random_players_over_seeded_four_player_rounds():
    config = hawk.SPEC.make_config(4)
    rounds = 200
    bot_points = 0
    random_points = 0
    for number in range(rounds):
        state = hawk.new_round(config, f"bot-vs-random-{number}")
        bot_seat = number % 4
        rng = random.Random(number)
        seat = hawk.to_act(state)
        while seat is not None:
            legal = hawk.legal_moves(state, seat)
            move = bot.choose(hawk.view(state, seat), legal) if seat == bot_seat else rng.choice(legal)
            state = hawk.apply(state, seat, move)
            seat = hawk.to_act(state)
        deltas = hawk.result(state).deltas
        bot_points += deltas[bot_seat]
        random_points += sum(deltas) - deltas[bot_seat]
    bot_average = bot_points / rounds
    random_average = random_points / (3 * rounds)
    assert bot_average - random_average > 1.5, (bot_average, random_average)
