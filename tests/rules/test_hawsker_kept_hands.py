"""Hawsker's kept hands: both players saw them scored, so every view shows them, the search's guess keeps the
other's unplayed ones in that hand, and the search weighs only the heuristics' best moves."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from rules.engine import hawsker as game
from rules.engine import search
from rules.engine.hawsker import bot
from rules.engine.hawsker.determinize import determinize
from rules.engine.moves import Move
from tests.rules.test_search_bots import check_ranked, positions

CONFIG = game.SPEC.make_config(2)


def _migration():
    return importlib.import_module("tables.migrations.0020_hawsker_rounds_keep_the_kept_hands")


def _second_rounds(count: int):
    """The start of each match's second round after an easy-bot first round, with the first round's end."""
    for number in range(count):
        match = game.start_match(CONFIG, f"kept-{number}")
        state = game.new_round(CONFIG, f"kept-{number}-1", match)
        while (turn := game.to_act(state)) is not None:
            state = game.apply(state, turn, bot.choose(game.view(state, turn), game.legal_moves(state, turn)))
        following = game.next_match(CONFIG, match, state)
        yield state, following, game.new_round(CONFIG, f"kept-{number}-2", following)


def test_every_view_of_a_later_round_shows_the_hands_scored_at_the_end_of_the_last() -> None:
    shown = 0
    for ended, _match, start in _second_rounds(12):
        assert start.kept == ended.hands  # what each player took up again, as both saw it scored
        for seat in (0, 1, None):
            assert game.view(start, seat)["kept"] == [[str(c) for c in h] for h in ended.hands]
        shown += any(ended.hands)
    assert shown, "no first round left a hand to keep: the test shows nothing"
    first = game.new_round(CONFIG, "first", game.start_match(CONFIG, "first"))
    assert game.view(first, 0)["kept"] == [[], []]


def test_a_guess_keeps_the_others_unplayed_kept_cards_in_that_hand() -> None:
    checked = 0
    for state, seat in positions("hawsker", 2, rounds=5, every=2):
        view = json.loads(json.dumps(game.view(state, seat)))
        other = 1 - seat
        gone = {*state.hands[seat], *state.table, *state.discards[seat],
                *(c for _s, cards in state.history for c in cards)}
        unplayed = {c for c in state.kept[other] if c not in gone}
        if not unplayed or len(unplayed) > len(state.hands[other]):
            continue
        for draw in range(3):
            guess = determinize(view, random.Random(draw))
            assert game.view(guess, seat)["kept"] == view["kept"]
            assert unplayed <= set(guess.hands[other])
        checked += 1
    assert checked > 20


def test_the_back_fill_of_stored_rounds_gives_what_the_deal_now_records() -> None:
    """Rounds stored before `kept` get it from the match they were dealt from; the fair-deal check's replay of such
    a round must equal its stored state, so the two must agree exactly, card order included."""
    kept_of = _migration().kept_of
    for _ended, match, start in _second_rounds(8):
        assert kept_of(match.to_json()) == game.to_json(start)["kept"]
    assert kept_of(game.start_match(CONFIG, "x").to_json()) == [[], []]


def test_a_stored_state_without_kept_hands_is_refused_not_guessed() -> None:
    data = game.to_json(game.new_round(CONFIG, "s", game.start_match(CONFIG, "s")))
    del data["kept"]
    with pytest.raises(KeyError):
        game.from_json(data)


def test_ranked_puts_the_easy_bots_move_first_and_lists_every_legal_move_once() -> None:
    check_ranked("hawsker", positions("hawsker", 2, rounds=3, every=1))


def test_with_a_width_the_search_weighs_only_the_heuristics_best_moves() -> None:
    """Width 1 is the policy's move itself; width 2 is one of its two best, and differs from the search over every
    move somewhere (else the width would change nothing)."""
    narrow_differs = 0
    for state, seat in list(positions("hawsker", 2, rounds=2, every=2))[:20]:
        legal = game.legal_moves(state, seat)
        if len(legal) < 3:
            continue
        view = json.loads(json.dumps(game.view(state, seat)))
        order = bot.ranked(view, legal)
        assert search.pimc_chooser(bot.SEARCH, 30, "w", width=1)(view, legal) == order[0]
        two = search.pimc_chooser(bot.SEARCH, 30, "w", width=2, margin=0.0)(view, legal)
        assert two in order[:2]
        wide = search.pimc_chooser(bot.SEARCH, 30, "w", margin=0.0)(view, legal)
        narrow_differs += two != wide
    assert narrow_differs > 0


def test_the_levels_search_two_moves_wide() -> None:
    assert bot.WIDTHS == {"normal": 2, "strong": 2}
    view = json.loads(json.dumps(game.view(*next(iter(positions("hawsker", 2, rounds=1, every=1))))))
    legal = [Move.parse(text) for text in view["legal"]]
    for level in ("normal", "strong"):
        assert bot.chooser(level, "x")(view, legal) in bot.ranked(view, legal)[:2]
