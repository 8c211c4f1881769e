"""The move log tells each move once (issue 41, items 8 and 9): a line per move, and no line repeats what an
earlier line of the same turn already told. Before, a Puskiyon pass after a draw said the draw again ("You drew
3C." then "You drew 3C and passed."), the last card of a Sheepshead bury counted the whole bury again ("Bot 4
buried a card." then "Bot 4 buried 2 cards"), and the line closing a trick said the picker's partner again when
the jack of diamonds had been played earlier in that trick."""

from __future__ import annotations

import random

import pytest

from rules.engine import puskiyon as P
from rules.engine import registry
from rules.engine import sheepshead as S
from rules.engine.puskiyon.state import DREW, DREW_PASSED, DREW_PLAYED
from tests.rules.test_puskiyon_rules import DRAW, PASS, play, position
from tests.rules.test_sheepshead_rounds import FIVE, FIVE_BLIND, dealt, go


def told(game: str, state: object, viewer: int | None) -> str:
    return str(registry.last_event(game, state, viewer))


# --- Puskiyon: the draw, then what came of it ---------------------------------------------------


def test_a_pass_after_a_draw_tells_the_pass_only() -> None:
    drew = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C"), 0, DRAW)
    assert [told("puskiyon", drew, v) for v in (0, 1, None)] == [
        "You drew 5S.", "Seat 0 drew a card.", "Seat 0 drew a card."]
    passed = P.apply(drew, 0, PASS)
    assert [told("puskiyon", passed, v) for v in (0, 1, None)] == ["You passed.", "Seat 0 passed.", "Seat 0 passed."]


def test_playing_the_drawn_card_tells_the_play_only() -> None:
    drew = P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C"), 0, DRAW)
    played = P.apply(drew, 0, play("5S"))
    assert [told("puskiyon", played, v) for v in (0, 1, None)] == [
        "You played 5S.", "Seat 0 played 5S.", "Seat 0 played 5S."]


def test_the_boards_last_line_still_sums_the_turn_up() -> None:
    """The board's one line under the table stands alone: it says the whole turn (the log had the draw)."""
    passed = P.apply(P.apply(position(["10H 3D", "2C", "4C"], top="10S", stock="5S 6C"), 0, DRAW), 0, PASS)
    assert P.view(passed, 0)["last"] == "You drew 5S and passed."
    assert P.view(passed, 1)["last"] == "Seat 0 drew a card and passed."


@pytest.mark.parametrize("seed", range(6))
def test_in_whole_rounds_no_line_after_a_draw_tells_the_draw_again(seed: int) -> None:
    config = P.SPEC.make_config(3, {})
    state = P.new_round(config, f"told-once-{seed}")
    rng = random.Random(seed)
    after_draws = 0
    while (seat := P.to_act(state)) is not None:
        state = P.apply(state, seat, rng.choice(P.legal_moves(state, seat)))
        kind = state.last[1]
        for viewer in (None, *range(state.players)):
            line = told("puskiyon", state, viewer)
            assert ("drew" in line) == (kind == DREW), (kind, line)
        after_draws += kind in (DREW_PASSED, DREW_PLAYED)
    assert after_draws > 0


# --- Sheepshead: the bury and the partner --------------------------------------------------------


def test_each_buried_card_is_told_once_and_the_last_one_says_who_leads() -> None:
    picked = go(dealt(5, FIVE, FIVE_BLIND), "pick")
    first = go(picked, "bury 7C")
    done = go(first, "bury 8H")
    assert [told("sheepshead", first, v) for v in (0, 1, None)] == [
        "You buried 7C.", "Seat 0 buried a card.", "Seat 0 buried a card."]
    assert [told("sheepshead", done, v) for v in (0, 1, None)] == [
        "You buried 8H; you lead.", "Seat 0 buried a card; seat 0 leads.", "Seat 0 buried a card; seat 0 leads."]
    # the board's last line sums the bury up, as before; it hides the buried cards from all but the picker
    assert S.view(done, 0)["last"] == "You buried 7C 8H; you lead."
    assert S.view(done, 1)["last"] == "Seat 0 buried 2 cards; seat 0 leads."


def partner_lines(state: S.State, moves: list[str]) -> dict[int | None, list[str]]:
    """After each of `moves`, the log's line for every viewer that speaks of the partner."""
    lines: dict[int | None, list[str]] = {v: [] for v in (None, *range(5))}
    for move in moves:
        state = go(state, move)
        for viewer, said in lines.items():
            text = told("sheepshead", state, viewer)
            if "partner" in text:
                said.append(text)
    return lines


def test_the_partner_is_told_once_when_the_jack_is_played_inside_a_trick() -> None:
    state = go(dealt(5, FIVE, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    # seat 3 plays the jack of diamonds fourth; seat 4's card closes the trick after it
    lines = partner_lines(state, ["play QC", "play JS", "play JH", "play JD", "play 8D"])
    for viewer in (None, 0, 1, 2, 4):
        assert lines[viewer] == ["Seat 3 played JD. Seat 3 is the picker's partner."]
    assert lines[3] == ["You played JD. You are the picker's partner."]


def test_the_partner_is_told_once_when_the_jack_closes_the_trick() -> None:
    """The line that both plays the jack and closes the trick still tells the partner."""
    hands = list(FIVE)
    hands[3], hands[4] = FIVE[4], FIVE[3]  # now seat 4, the last to play, holds the jack
    state = go(dealt(5, hands, FIVE_BLIND), "pick", "bury 7C", "bury 8H")
    lines = partner_lines(state, ["play QC", "play JS", "play JH", "play 8D", "play JD", "play QS"])
    for viewer in (None, 1, 2, 3):
        assert lines[viewer] == ["Seat 4 played JD; seat 0 took the trick (9 points). Seat 4 is the picker's partner."]
    assert lines[0] == ["Seat 4 played JD; you took the trick (9 points). Seat 4 is the picker's partner."]
    assert lines[4] == ["You played JD; seat 0 took the trick (9 points). You are the picker's partner."]
