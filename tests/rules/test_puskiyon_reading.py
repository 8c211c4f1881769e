"""Puskiyon's public record of steps and the reading of hands made from it: who drew or passed on what top card
usually held no match. The views carry both; the search's guess deals the other hands to fit the reading; stored
rounds get their record from their moves; and the search weighs only the heuristics' two best moves."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from rules.engine import puskiyon as game
from rules.engine.cards import card
from rules.engine.moves import Move
from rules.engine.puskiyon import bot
from rules.engine.puskiyon.determinize import determinize
from rules.engine.puskiyon.reading import declined
from rules.engine.puskiyon.scoring import MATCHES
from tests.rules.test_search_bots import check_ranked

CONFIG = game.SPEC.make_config(4)


def _easy_positions(rounds: int, pick=None):
    """(state, seat) before every move of easy-bot rounds (or rounds where `pick` chooses the moves)."""
    rng = random.Random(3)
    for number in range(rounds):
        state = game.new_round(CONFIG, f"reading-{number}")
        while (turn := game.to_act(state)) is not None:
            yield state, turn
            legal = game.legal_moves(state, turn)
            move = pick(rng, legal) if pick else bot.choose(game.view(state, turn), legal)
            state = game.apply(state, turn, move)
        yield state, None


def _fits(hand, slots) -> bool:
    """Whether the cards can be given one to each slot without a slot getting a card that matched a top it
    declined (the slots' declined tops are nested, oldest most, so the greedy assignment is exact)."""
    cards = list(hand)
    for tops in sorted(slots, key=len, reverse=True):
        allowed = [c for c in cards if all(c not in MATCHES[t] for t in tops)]
        if not allowed:
            return False
        cards.remove(allowed[0])
    return not cards


def test_every_step_is_one_letter_of_the_record_and_survives_storage() -> None:
    state = game.new_round(CONFIG, "steps")
    assert state.steps == ""
    seen = set()
    while (turn := game.to_act(state)) is not None:
        before = state.steps
        state = game.apply(state, turn, bot.choose(game.view(state, turn), game.legal_moves(state, turn)))
        assert len(state.steps) == len(before) + 1 and state.steps.startswith(before)
        seen.add(state.steps[-1])
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
    assert {"p", "d"} <= seen


def test_a_stored_state_without_a_record_or_with_a_wrong_one_is_refused() -> None:
    data = game.to_json(game.new_round(CONFIG, "steps"))
    for wrong in ({k: v for k, v in data.items() if k != "steps"}, {**data, "steps": "pq"}, {**data, "steps": 3}):
        with pytest.raises((KeyError, ValueError)):
            game.from_json(wrong)


def test_against_players_who_draw_only_without_a_match_the_reading_is_always_true() -> None:
    """Every seat's reading has one slot per card held, and the true hand fits it; and it says something."""
    said = 0
    for state, _turn in _easy_positions(40):
        if state.drawn is not None:
            continue  # the drawer's card is in hand but the step that keeps or plays it is still to come
        readings = declined(state)
        for seat, hand in enumerate(state.hands):
            assert len(readings[seat]) == len(hand)
            assert _fits(hand, readings[seat]), (state.steps, seat)
            said += sum(1 for slot in readings[seat] if slot)
    assert said > 1000


def test_against_players_who_draw_at_random_the_reading_keeps_one_slot_per_card() -> None:
    """Random players draw while holding matches, so the reading may be wrong, but it never loses count."""
    for state, _turn in _easy_positions(20, pick=lambda rng, legal: rng.choice(legal)):
        if state.drawn is None:
            assert [len(slots) for slots in declined(state)] == [len(hand) for hand in state.hands]


def test_every_view_shows_the_record_and_the_reading_to_everyone_alike() -> None:
    for state, turn in list(_easy_positions(2))[::7]:
        views = [game.view(state, seat) for seat in (None, 0, 1, 2, 3)]
        expected = [[[str(c) for c in slot] for slot in slots] for slots in declined(state)]
        for view in views:
            assert view["steps"] == state.steps
            assert view["declined"] == expected
        assert turn is None or len(views[turn + 1]["declined"][turn]) == len(state.hands[turn])


def test_the_guess_deals_each_other_hand_cards_its_reading_allows() -> None:
    """Against easy players the truth fits the reading, and nearly every guess does too (the greedy deal may
    corner itself across seats, and then deals what is left); a guess without the reading mostly would not."""
    guesses = fitting = blind_fitting = 0
    for state, turn in _easy_positions(12):
        if turn is None:
            continue
        view = json.loads(json.dumps(game.view(state, turn)))
        readings = view["declined"]
        if not any(any(slot for slot in readings[s]) for s in range(4) if s != turn):
            continue
        guess = determinize(view, random.Random(len(state.steps)))
        blind = determinize({**view, "declined": [[[] for _ in slots] for slots in readings]}, random.Random(1))
        for seat in range(4):
            if seat == turn:
                continue
            guesses += 1
            tops = [[card(t) for t in slot] for slot in readings[seat]]
            fitting += _fits(guess.hands[seat], tops)
            blind_fitting += _fits(blind.hands[seat], tops)
    assert guesses > 200
    assert fitting >= 0.98 * guesses
    assert blind_fitting < 0.8 * guesses


def _migration():
    return importlib.import_module("tables.migrations.0021_puskiyon_rounds_record_their_steps")


def test_the_back_fill_of_stored_rounds_gives_the_record_the_engine_keeps() -> None:
    """Rounds stored before the record get it from their moves; the fair-deal check's replay of such a round must
    equal its stored state, so the two must agree exactly (random moves, so every kind of step comes up)."""
    steps_of = _migration().steps_of
    rng = random.Random(8)
    kinds = set()
    for number in range(30):
        state = game.new_round(CONFIG, f"backfill-{number}")
        moves = []
        while (turn := game.to_act(state)) is not None:
            move = rng.choice(game.legal_moves(state, turn))
            moves.append(str(move))
            state = game.apply(state, turn, move)
        assert steps_of(moves) == state.steps
        kinds |= set(state.steps)
    assert kinds == {"p", "d", "x", "k", "s"}
    with pytest.raises(ValueError):
        steps_of(["bid 3"])


def test_ranked_puts_the_easy_bots_move_first_and_lists_every_legal_move_once() -> None:
    check_ranked("puskiyon", [(state, turn) for state, turn in list(_easy_positions(3))[::2] if turn is not None])


def test_the_levels_search_two_moves_wide() -> None:
    assert bot.WIDTHS == {"normal": 2, "strong": 2}
    for state, turn in list(_easy_positions(2))[::9]:
        if turn is None:
            continue
        view = json.loads(json.dumps(game.view(state, turn)))
        legal = [Move.parse(text) for text in view["legal"]]
        for level in ("normal", "strong"):
            assert bot.chooser(level, "x")(view, legal) in bot.ranked(view, legal)[:2]
