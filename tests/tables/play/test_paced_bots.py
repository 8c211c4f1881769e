"""Bots at the table's pace: a member's move commits alone, and each bot move after it is its own version,
made by the table clock when it comes due (tables.play.services.clock), never before, never twice."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Move, Round, Table
from tables.play import pace
from tables.play.services import clock, play
from tables.play.services.tables import leave_table
from tests.sockets import version_of
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching
from tests.tables.play.table_life import (
    TICK,
    bot_delay,
    due,
    member_to_act,
    moves_at,
    play_member,
    round_over,
    run_clock_until,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def normal_pace(settings) -> None:
    """Tables made in the test move at the club's real default pace (tests/conftest.py makes them instant)."""
    settings.TABLE_BOT_SPEED = "normal"


def hawk_with_bots(make_member, *, members: int = 1) -> tuple[Table, dict[int, object]]:
    people = [make_member(f"p{i}") for i in range(members)]
    table = full_table("hawk", people, bots=4 - members)
    watching(table, *people)
    return table, dict(enumerate(people))


def test_the_pace_of_each_speed_is_what_the_club_announced() -> None:
    assert pace.delay("normal", closed_trick=False) == timedelta(seconds=0.8)
    assert pace.delay("normal", closed_trick=True) == timedelta(seconds=2.5)
    assert pace.delay("instant", closed_trick=True) == timedelta(0)
    assert pace.delay("no such speed", closed_trick=False) == timedelta(seconds=0.8)  # read as normal


def test_a_new_table_takes_the_clubs_speed_when_it_is_made(make_member, settings) -> None:
    settings.TABLE_BOT_SPEED = "slow"
    assert full_table("hawk", [make_member("alice")], bots=3).bot_speed == "slow"


def test_a_round_played_at_normal_pace_one_bot_move_per_step_in_turn(make_member, normal_pace) -> None:
    """A whole round: every member move is one new version and nothing else; every bot move comes at exactly
    its due time (0.8 s after the move before, 2.5 s after a trick was closed), one per step, by the seat
    whose turn it is, each its own version; a step before that time, or a second step at it, does nothing."""
    table, members = hawk_with_bots(make_member)
    alice = members[0]
    rng = random.Random(7)
    seen_delays: set[timedelta] = set()
    member_moves = 0
    while not round_over(table):
        table.refresh_from_db()
        before = moves_at(table).count()
        if member_to_act(table, members) is alice:
            version = play_member(table, alice, rng)
            member_moves += 1
            assert version == table.version + 1
            assert moves_at(table).count() == before + 1  # the bots did not answer inside the member's move
            continue
        seat = seat_to_act(table)
        moved_at = current_round(table).moved_at
        delay = bot_delay(table)
        seen_delays.add(delay)
        when = due(table)
        assert when == moved_at + delay
        assert not clock.advance(table_id=table.pk, now=when - TICK)
        assert clock.advance(table_id=table.pk, now=when)
        assert not clock.advance(table_id=table.pk, now=when)  # the same step again: nothing moves twice
        made = list(moves_at(table)[before:])
        assert [(m.seat, m.actor) for m in made] == [(seat, Move.Actor.BOT)]
        assert made[0].table_version == table.version + 1  # one step, one new version
        table.refresh_from_db()
        assert table.version == made[0].table_version
    assert member_moves > 0
    assert seen_delays == {timedelta(seconds=0.8), timedelta(seconds=2.5)}
    versions = [m.table_version for m in moves_at(table)]
    assert versions == sorted(set(versions))  # every move of the round its own version


def test_the_bot_does_not_move_before_its_time_even_when_the_clock_looks_early(make_member, normal_pace) -> None:
    """The clock may look early (a wake for something else, another process's due time): the bot still waits
    its pace, and the table is due again when the bot is."""
    table, _members = hawk_with_bots(make_member)
    run_clock_until(table, lambda: seat_to_act(table) != 0)
    moved_at = current_round(table).moved_at
    Table.objects.filter(pk=table.pk).update(due_at=moved_at)
    before = moves_at(table).count()
    assert not clock.advance(table_id=table.pk, now=moved_at + timedelta(seconds=0.5))
    assert moves_at(table).count() == before
    assert due(table) == moved_at + bot_delay(table)


def test_a_closed_trick_stays_on_the_table_longer_before_the_next_card(make_member, normal_pace) -> None:
    table, members = hawk_with_bots(make_member)
    rng = random.Random(3)
    while True:
        if member_to_act(table, members) is not None:
            play_member(table, members[0], rng)
        else:
            log = current_round(table).log
            before = bool(log) and log[-1].get("trick")
            if before and seat_to_act(table) != 0:
                break
            clock.advance(table_id=table.pk, now=due(table))
        assert not round_over(table), "no trick closed with a bot to lead next"
    moved_at = current_round(table).moved_at
    assert due(table) == moved_at + timedelta(seconds=2.5)
    count = moves_at(table).count()
    assert not clock.advance(table_id=table.pk, now=moved_at + timedelta(seconds=0.8))
    assert not clock.advance(table_id=table.pk, now=moved_at + timedelta(seconds=2.5) - TICK)
    assert moves_at(table).count() == count
    assert clock.advance(table_id=table.pk, now=moved_at + timedelta(seconds=2.5))
    assert moves_at(table).count() == count + 1


def test_the_members_post_returns_with_only_their_move(make_member, normal_pace) -> None:
    table, members = hawk_with_bots(make_member)
    alice = members[0]
    run_clock_until(table, lambda: seat_to_act(table) == 0)
    table.refresh_from_db()
    client = Client()
    client.force_login(alice)
    before = moves_at(table).count()
    response = client.post(reverse("move", args=[table.code]),
                           {"move": legal_for(table, 0)[0], "version": str(table.version)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert version_of(response.content.decode()) == table.version + 1
    assert list(moves_at(table)[before:].values_list("seat", "actor")) == [(0, Move.Actor.MEMBER)]
    assert seat_to_act(table) != 0
    assert due(table) == current_round(table).moved_at + bot_delay(table)


def test_at_an_instant_table_the_bots_answer_inside_the_members_move(make_member) -> None:
    table, members = hawk_with_bots(make_member)  # tests make instant tables (tests/conftest.py)
    assert table.bot_speed == "instant"
    alice = members[0]
    assert seat_to_act(table) == 0  # the bots opened the round as it was dealt
    before = moves_at(table).count()
    version = play_member(table, alice, random.Random(1))
    made = list(moves_at(table)[before:])
    assert made[0].actor == Move.Actor.MEMBER and len(made) > 1
    assert {m.actor for m in made[1:]} == {Move.Actor.BOT}
    assert [m.table_version for m in made] == list(range(made[0].table_version, version + 1))
    assert round_over(table) or seat_to_act(table) == 0
    if not round_over(table):
        assert due(table) == current_round(table).deadline  # nothing for the clock but the member's time


@pytest.mark.django_db(transaction=True)
def test_two_processes_doing_the_same_step_make_one_move(make_member, normal_pace) -> None:
    """Two clocks (threads with connections of their own) find the same bot move due at the same moment:
    the table's lock and its version let one make it; the other finds nothing due."""
    table, _members = hawk_with_bots(make_member)
    run_clock_until(table, lambda: seat_to_act(table) != 0)
    when = due(table)
    before = moves_at(table).count()
    start = threading.Barrier(2)
    results: list[object] = []

    def step() -> None:
        try:
            start.wait(5)
            results.append(clock.advance(table_id=table.pk, now=when))
        except Exception as error:  # a refusal is a result too: it must not be a second move
            results.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=step) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(map(repr, results)) == ["False", "True"]
    assert moves_at(table).count() == before + 1


def test_a_paced_round_dealt_after_the_pause_opens_with_the_bots_at_pace(make_member, normal_pace) -> None:
    table, members = hawk_with_bots(make_member)
    rng = random.Random(11)
    while not round_over(table):
        if member_to_act(table, members) is not None:
            play_member(table, members[0], rng)
        else:
            clock.advance(table_id=table.pk, now=due(table))
    pause_end = current_round(table).deadline
    assert due(table) == pause_end
    assert clock.advance(table_id=table.pk, now=pause_end)
    second = current_round(table)
    assert second.number == 2 and second.moves_made == 0  # dealt; no bot has moved yet
    if seat_to_act(table) != 0:
        assert due(table) == pause_end + timedelta(seconds=0.8)


def test_a_match_of_bots_and_one_member_ends_at_pace(make_member, normal_pace) -> None:
    """Played to the end with the clock: the table finishes and nothing is due any more."""
    alice = make_member("alice")
    table = full_table("hawsker", [alice], bots=1)
    watching(table, alice)
    rng = random.Random(5)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        if not current_round(table).over and seat_to_act(table) == 0:
            play_member(table, alice, rng)
        elif current_round(table).over:
            play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
        else:
            assert clock.advance(table_id=table.pk, now=due(table))
    assert table.status == Table.Status.FINISHED
    assert table.due_at is None


def bob_to_act(table: Table, alice, bob, rng: random.Random) -> None:
    members = {0: alice, 1: bob}
    for _ in range(500):
        if seat_to_act(table) == 1:
            return
        if member_to_act(table, members) is alice:
            play_member(table, alice, rng)
        elif round_over(table):
            table.refresh_from_db()
            clock.advance(table_id=table.pk, now=current_round(table).deadline)
        else:
            clock.advance(table_id=table.pk, now=due(table))
    raise AssertionError("bob never came to act")


def test_at_an_instant_table_leaving_on_ones_turn_lets_the_bot_play_it_at_once(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("puskiyon", [alice, bob], bots=2)
    watching(table, alice, bob)
    bob_to_act(table, alice, bob, random.Random(4))
    before = moves_at(table).count()
    leave_table(table_id=table.pk, user=bob)
    made = list(moves_at(table)[before:])
    assert made and (made[0].seat, made[0].actor) == (1, Move.Actor.BOT)
    assert seat_to_act(table) in {0, None}


def test_at_a_paced_table_leaving_on_ones_turn_makes_the_bots_move_due(make_member, normal_pace) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("puskiyon", [alice, bob], bots=2)
    watching(table, alice, bob)
    bob_to_act(table, alice, bob, random.Random(4))
    before = moves_at(table).count()
    leave_table(table_id=table.pk, user=bob)
    assert moves_at(table).count() == before  # the member's action commits alone here too
    when = due(table)
    assert when == current_round(table).moved_at + bot_delay(table)
    assert clock.advance(table_id=table.pk, now=max(when, timezone.now()))
    assert list(moves_at(table)[before:].values_list("seat", "actor")) == [(1, Move.Actor.BOT)]


def test_a_round_from_before_moves_were_timed_still_lets_its_bots_move(make_member, normal_pace) -> None:
    """Rounds dealt before `Round.moved_at` existed have none: the bot's pace runs from the round's start."""
    table, _members = hawk_with_bots(make_member)
    run_clock_until(table, lambda: seat_to_act(table) != 0)
    rnd = current_round(table)
    Round.objects.filter(pk=rnd.pk).update(moved_at=None)
    before = moves_at(table).count()
    later = rnd.started_at + timedelta(minutes=5)
    Table.objects.filter(pk=table.pk).update(due_at=later)
    assert clock.advance(table_id=table.pk, now=later)
    assert moves_at(table).count() == before + 1
