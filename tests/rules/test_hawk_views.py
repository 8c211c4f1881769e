"""What each seat and a spectator see of a Hawk round, from the deal to the end record."""

from __future__ import annotations

import json
import random

import pytest

import rules.engine.hawk as hawk
from rules.engine.moves import Move
from tests.rules.contract import cards_in, play_out
from tests.rules.hawk_support import state_with

COMMON_KEYS = {
    "game", "players", "seat", "dealer", "to_act", "phase", "hand", "hand_counts",
    "legal", "prompt", "last", "over", "result",
}  # fmt: skip

HANDS = ["AC 5D 9H", "2C 6C 10H", "3C 7D AS", "4C 8D 2S"]


def play(state, seat, text):
    return hawk.apply(state, seat, Move.parse(f"play {text}"))


def test_fresh_view_for_the_leader():
    state = state_with(HANDS)
    view = hawk.view(state, 0)
    assert set(view) >= COMMON_KEYS
    assert view["game"] == "hawk" and view["players"] == 4 and view["seat"] == 0
    assert (view["dealer"], view["to_act"], view["phase"], view["over"]) == (3, 0, "play", False)
    assert view["hand"] == ["AC", "5D", "9H"]
    assert view["legal"] == ["play AC", "play 5D", "play 9H"]
    assert view["prompt"] == "Your lead: play any card."
    assert view["last"] == ""
    assert view["result"] is None
    assert view["first_trick_taker"] is None
    assert view["tricks_won"] == [0, 0, 0, 0] and view["pips_won"] == [0, 0, 0, 0]
    assert view["history"] == [] and view["trick"] == []
    assert (view["trick_number"], view["tricks_in_round"]) == (1, 3)
    assert view["out_of_play"] == 28
    assert "record" not in view


def test_spectator_and_waiting_seats():
    state = play(state_with(HANDS), 0, "5D")
    spectator = hawk.view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert spectator["prompt"] == "Waiting for seat 1 to play."
    assert spectator["last"] == "Seat 0 played 5D."
    assert cards_in(spectator) == set(state.table)
    assert hawk.view(state, 0)["last"] == "You played 5D."
    assert spectator["trick"] == [{"seat": 0, "card": "5D"}]
    assert (spectator["led_suit"], spectator["trump_suit"]) == ("D", "H")


def test_prompts_say_follow_or_trump():
    state = play(state_with(HANDS), 0, "5D")
    assert hawk.view(state, 1)["prompt"] == "Your turn: you have no diamonds, so play any card (hearts would trump)."
    state = play(state, 1, "10H")
    assert hawk.view(state, 2)["prompt"] == "Your turn: follow suit with a diamond."


def test_after_a_trick_the_taker_pips_and_history_are_public():
    state = state_with(HANDS)
    for seat, text in [(0, "5D"), (1, "10H"), (2, "7D"), (3, "8D")]:
        state = play(state, seat, text)
    view = hawk.view(state, 2)
    assert view["first_trick_taker"] == 1
    assert view["tricks_won"] == [0, 1, 0, 0]
    assert view["pips_won"] == [0, 30, 0, 0]
    assert view["last"] == "Seat 1 takes trick 1 with 10H (30 pips)."
    assert hawk.view(state, 1)["last"] == "You take trick 1 with 10H (30 pips)."
    assert view["history"] == [
        {
            "number": 1,
            "leader": 0,
            "winner": 1,
            "pips": 30,
            "cards": [
                {"seat": 0, "card": "5D"},
                {"seat": 1, "card": "10H"},
                {"seat": 2, "card": "7D"},
                {"seat": 3, "card": "8D"},
            ],
        }
    ]
    assert (view["leader"], view["to_act"], view["trick_number"]) == (1, 1, 2)


def test_end_view_has_the_record_and_the_summary():
    state = hawk.new_round(hawk.SPEC.make_config(6), "end-view")
    final, _moves = play_out(hawk, state, random.Random(5))
    view = hawk.view(final, 3)
    assert view["over"] and view["phase"] == "over" and view["to_act"] is None
    assert view["legal"] == [] and view["hand"] == []
    assert view["prompt"] == "The round is over."
    record = view["record"]
    assert record["seed"] == "end-view"
    assert record["dealt"] == [[str(c) for c in h] for h in final.dealt]
    assert record["out_of_play"] == [str(c) for c in final.out] and len(record["out_of_play"]) == 4
    assert len(record["tricks"]) == 6
    summary = view["result"]
    assert summary == dict(hawk.result(final).summary)
    for key in ("lafh", "nob", "lafh_pips", "nob_pips", "k", "points", "bonuses", "headline", "solo"):
        assert key in summary
    assert summary["headline"].startswith("LAFH ")
    json.dumps(view)


def test_headline_reads_well():
    state = state_with(["AC 2C", "3C 4C", "5C 6C", "7C 8C"])
    for seat, text in [(0, "AC"), (1, "3C"), (2, "5C"), (3, "7C"), (0, "2C"), (1, "4C"), (2, "6C"), (3, "8C")]:
        state = play(state, seat, text)
    # seat 0 took both tricks: solo with every trick (36 pips, k 7): 7 x 4 x 3 = 84
    summary = hawk.result(state).summary
    assert summary["headline"] == "LAFH solo (seat 0) won with 36 pips to 0: k 7, +84 points."
    assert summary["deltas"] == [84, 0, 0, 0]


def test_view_refuses_a_seat_that_is_not_at_the_table():
    with pytest.raises(ValueError):
        hawk.view(state_with(HANDS), 4)
