"""The chaos soak's reads of the database (bench/chaos_db.py) on real tables: a table whose bot owes a move is
found, a round missing a move does not replay, and the member's own moves are read back for the move check."""

from __future__ import annotations

import random

import pytest

from bench.chaos_checks import Attempt, check_moves
from bench.chaos_db import member_move_rows, rounds_replay, table_versions, tables_waiting_for_bot
from tables.models import Move
from tests.tables.helpers import full_table, seat_to_act, watching
from tests.tables.play.table_life import member_to_act, moves_at, play_member, run_clock_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def paced(settings) -> None:
    settings.TABLE_BOT_SPEED = "brisk"


def test_a_table_whose_bot_is_to_act_is_found_until_the_clock_plays(make_member, paced) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3)
    watching(table, alice)
    members = {0: alice}
    rng = random.Random(3)
    for _ in range(20):  # until alice's move hands the turn to a bot (winning a trick, she would lead again)
        run_clock_until(table, lambda: member_to_act(table, members) is alice)
        assert tables_waiting_for_bot([table.code]) == []
        play_member(table, alice, rng)
        if seat_to_act(table) not in (None, 0):
            break
    assert seat_to_act(table) not in (None, 0)  # a bot's turn, not yet played: the clock owes the table a move
    waiting = tables_waiting_for_bot([table.code])
    assert len(waiting) == 1 and waiting[0].startswith(table.code)


def test_rounds_replay_until_a_move_goes_missing(make_member, paced) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3)
    watching(table, alice)
    members = {0: alice}
    rng = random.Random(5)
    for _ in range(3):
        run_clock_until(table, lambda: member_to_act(table, members) is alice)
        play_member(table, alice, rng)
    assert rounds_replay([table.code]).ok
    moves_at(table).filter(actor=Move.Actor.MEMBER).last().delete()
    verdict = rounds_replay([table.code])
    assert not verdict.ok
    assert verdict.problems and table.code in verdict.problems[0]


def test_the_members_moves_read_back_match_what_the_posts_were_told(make_member, paced) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3)
    watching(table, alice)
    members = {0: alice}
    run_clock_until(table, lambda: member_to_act(table, members) is alice)
    table.refresh_from_db()
    sent = table.version
    made = play_member(table, alice, random.Random(1))
    text = moves_at(table).filter(actor=Move.Actor.MEMBER).last().text
    rows = member_move_rows()
    assert [(r.table, r.username, r.text, r.table_version) for r in rows] == [(table.code, "alice", text, made)]
    assert table_versions([table.code]) == {table.code: made}
    attempt = Attempt(table.code, "alice", "move", text, sent, 0.0, outcome="accepted", reply_version=made)
    assert check_moves([attempt], rows).ok
    assert not check_moves([], rows).ok  # a member's row no POST explains
