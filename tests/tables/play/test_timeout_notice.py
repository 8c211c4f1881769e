"""The notice that the bot played for a member whose time ran out (issue 41, item 8): the late member reads it in
the second person on their own board ("Time ran out: the bot played for you."), the others by name, in each
reader's language; and it is gone by the late member's next turn instead of standing beside it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import translation

from tables.models import Move
from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import timeout_notice
from tables.play.services import clock
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.play.table_life import moves_at, run_clock_until

pytestmark = pytest.mark.django_db

YOU = "Time ran out: the bot played for you."
YOU_DE = "Deine Zeit ist abgelaufen: der Bot hat für dich gespielt."


def board(table, viewer, language: str = "en") -> str:
    forget_boards()
    table.refresh_from_db()
    with translation.override(language):
        return render_board(table, viewer)


def run_out_of_time(table) -> int:
    """The seat to act lets its time run out: the bot plays for it. Returns that seat."""
    seat = seat_to_act(table)
    assert clock.advance(table_id=table.pk, now=current_round(table).deadline + timedelta(seconds=1))
    assert moves_at(table).filter(seat=seat, actor=Move.Actor.TIMEOUT).exists()
    return seat


def test_the_late_member_reads_it_as_their_own_and_the_other_by_name(make_member) -> None:
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    late, other = ((alice, bob), (bob, alice))[run_out_of_time(table)]
    mine = board(table, late)
    assert YOU in mine
    assert "played for them" not in mine
    assert f"Time ran out for {late.display_name}; the bot played for them." in board(table, other)
    german = board(table, late, "de")
    assert YOU_DE in german and "abgelaufen; der Bot hat für sie gespielt" not in german
    theirs = f"Die Zeit von {late.display_name} ist abgelaufen; der Bot hat für sie gespielt."
    assert theirs in board(table, other, "de")


def test_it_is_gone_by_the_late_members_next_turn(make_member) -> None:
    """Ivan plays with three bots: his time runs out, the bots play on (no member moves in between), and when his
    turn comes round again the notice no longer stands on his board."""
    ivan = make_member("ivan", display_name="Ivan")
    table = full_table("hawk", [ivan], bots=3)
    watching(table, ivan)
    run_clock_until(table, lambda: seat_to_act(table) == 0)
    assert run_out_of_time(table) == 0
    table.refresh_from_db()
    if seat_to_act(table) != 0:  # the bots are still to play: the news stands meanwhile
        assert YOU in board(table, ivan)
    run_clock_until(table, lambda: moves_at(table).last().seat != 0 and seat_to_act(table) in (0, None))
    assert seat_to_act(table) == 0, "the round ended before Ivan's turn came round"
    assert not moves_at(table).filter(actor=Move.Actor.MEMBER).exists()
    for language in ("en", "de"):
        html = board(table, ivan, language)
        assert 'class="timeout"' not in html  # the move log still notes which move the bot made for him
        assert YOU not in html and YOU_DE not in html and "Time ran out for" not in html


def test_when_the_turn_comes_straight_back_it_stays_until_the_next_move() -> None:
    """A late seat to act again at once (a second card to bury or discard) still reads what the bot did."""
    names = ["Ivan", "Bot 2"]
    timed_out = [(Move.Actor.TIMEOUT, 0), (Move.Actor.BOT, 1)]
    assert timeout_notice(timed_out[:1], names, viewer=0, to_act=0) == YOU
    assert timeout_notice(timed_out[:1], names, viewer=1, to_act=0) == (
        "Time ran out for Ivan; the bot played for them.")
    # one move later, at Ivan's turn: gone for everyone
    late_then_bot = [(Move.Actor.BOT, 1), (Move.Actor.TIMEOUT, 0)]
    assert timeout_notice(late_then_bot, names, viewer=0, to_act=0) == ""
    assert timeout_notice(late_then_bot, names, viewer=None, to_act=0) == ""
    # before Ivan's turn comes round it stands
    assert timeout_notice(late_then_bot, names, viewer=0, to_act=2) == YOU


def test_two_late_seats_read_by_one_of_them() -> None:
    names = ["Ivan", "Olga", "Bot 3"]
    both = [(Move.Actor.TIMEOUT, 1), (Move.Actor.TIMEOUT, 0)]
    assert timeout_notice(both, names, viewer=0, to_act=2) == (
        "Time ran out for you and for Olga; the bot played for you all.")
    assert timeout_notice(both, names, viewer=2, to_act=2) == (
        "Time ran out for Olga and Ivan; the bot played for them.")
    with translation.override("de"):
        assert timeout_notice(both, names, viewer=0, to_act=2) == (
            "Die Zeit ist für dich und für Olga abgelaufen; der Bot hat für euch gespielt.")
        assert timeout_notice(both[:1], names, viewer=1, to_act=0) == YOU_DE
