"""A table with nobody left closes: when its last member leaves, or when every member has been offline for
TABLE_OFFLINE_CLOSE_MINUTES, the bots finish the round (settled in the ledger as any other round), the table
is closed with its reason, leaves the lobby, and its members are free to sit elsewhere."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from tables.lobby.selectors import lobby_tables, my_tables
from tables.models import LedgerEntry, Move, Round, Table
from tables.play import pace
from tables.play.services import clock
from tables.play.services.clock import ALL_OFFLINE
from tables.play.services.errors import NotAllowed
from tables.play.services.tables import EVERYONE_LEFT, create_table, ensure_free_to_sit, leave_table
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.play.table_life import (
    a_member_moves,
    close_page,
    due,
    fake_time,
    member_to_act,
    moves_at,
    open_page,
    play_member,
    seat_of,
)

pytestmark = pytest.mark.django_db


def some_moves(table: Table, members: dict[int, object], count: int, rng: random.Random) -> None:
    """A few moves into the round (members at random, the clock for the bots), the round still going."""
    for _ in range(count):
        if current_round(table).over:
            break
        member = member_to_act(table, members)
        if member is not None:
            play_member(table, member, rng)
        else:
            clock.advance(table_id=table.pk, now=due(table))
    assert not current_round(table).over


def assert_settled(rnd: Round, seats: int) -> None:
    rnd.refresh_from_db()
    assert rnd.over and rnd.result is not None and rnd.finished_at is not None
    entries = LedgerEntry.objects.filter(round=rnd, kind=LedgerEntry.Kind.RESULT).order_by("seat")
    assert [e.amount for e in entries] == list(rnd.result["deltas"])
    assert entries.count() == seats


def assert_closed_and_free(table: Table, reason: str, members: list) -> None:
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert table.close_reason == reason
    assert table.finished_at is not None
    assert table.due_at is None
    assert current_round(table).deadline is None  # no next round is coming
    assert table not in lobby_tables()
    for member in members:
        assert table not in my_tables(member)
        ensure_free_to_sit(member)  # no longer playing there
    create_table(creator=members[0], game="hawk", players=4)  # and may sit down elsewhere


def test_the_last_member_leaving_lets_the_bots_finish_the_round_and_closes_the_table(make_member,
                                                                                     settings) -> None:
    settings.TABLE_BOT_SPEED = "normal"  # the bots finish at once all the same: nobody is there to watch them
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("sheepshead", [alice, bob], bots=3)
    watching(table, alice, bob)
    some_moves(table, {0: alice, 1: bob}, 4, random.Random(1))
    rnd = current_round(table)
    made = moves_at(table).count()
    with pytest.raises(NotAllowed):
        ensure_free_to_sit(alice)

    leave_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING  # alice is still there: the bot plays bob's seat
    assert table in lobby_tables()

    version = table.version
    leave_table(table_id=table.pk, user=alice)
    assert_settled(rnd, seats=5)
    assert sum(rnd.result["deltas"]) == 0  # money: the round's ledger balances as any other
    assert LedgerEntry.objects.filter(round=rnd, member__in=[alice, bob]).count() == 2
    closing = list(moves_at(table)[made:])
    assert closing and {m.actor for m in closing} == {Move.Actor.BOT}
    table.refresh_from_db()
    assert table.version > version
    assert Round.objects.filter(match__table=table).count() == 1  # no next round is dealt for nobody
    assert_closed_and_free(table, EVERYONE_LEFT, [alice, bob])
    assert not clock.advance(table_id=table.pk, now=rnd.finished_at + timedelta(hours=1))


def test_the_last_member_leaving_during_the_pause_closes_the_table_without_a_next_round(make_member) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3)
    watching(table, alice)
    rng = random.Random(4)
    while not current_round(table).over:
        play_member(table, alice, rng)
    leave_table(table_id=table.pk, user=alice)
    assert Round.objects.filter(match__table=table).count() == 1
    assert_settled(current_round(table), seats=4)
    assert LedgerEntry.objects.filter(round__match__table=table).count() == 4  # written once, not again
    assert_closed_and_free(table, EVERYONE_LEFT, [alice])


def test_when_the_bots_finish_the_matchs_last_round_the_table_has_simply_finished(make_member) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)
    watching(table, alice)
    a_member_moves(table, {0: alice}, random.Random(3))  # a match played by a member (else it counts for nothing)
    leave_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.close_reason == ""
    assert current_round(table).match.over
    assert_settled(current_round(table), seats=4)


def test_every_member_offline_long_enough_closes_the_table_through_the_clock(make_member, settings,
                                                                             monkeypatch) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    settings.TABLE_OFFLINE_CLOSE_MINUTES = 0.3  # 18 s: less than a Hawk round takes at this pace
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2)
    watching(table, alice, bob)
    rnd = current_round(table)
    a_member_moves(table, {0: alice, 1: bob}, random.Random(5), time)  # else the round would count for nothing
    close_page(table, alice)
    time.to(time.now + timedelta(seconds=1))
    close_page(table, bob)
    closing_time = seat_of(table, bob).gone_at + pace.close_after()  # from the last one to go
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        assert time.to(due(table)) <= closing_time
        if time.now < closing_time:
            assert not current_round(table).over  # too soon for the round to have ended
        clock.advance(table_id=table.pk, now=time.now)
    assert time.now == closing_time
    assert table.finished_at == closing_time
    assert current_round(table) == rnd
    absent = moves_at(table).filter(actor=Move.Actor.ABSENT)
    assert absent.exists()  # the grace ran out before the close: the bot played their turns meanwhile
    assert_settled(rnd, seats=4)
    assert_closed_and_free(table, ALL_OFFLINE, [alice, bob])


def test_a_table_with_one_member_online_never_closes_for_nobody(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    close_page(table, alice)
    clock.advance(table_id=table.pk, now=seat_of(table, alice).gone_at)
    later = seat_of(table, alice).offline_since + pace.close_after() + timedelta(minutes=1)
    Table.objects.filter(pk=table.pk).update(due_at=later)  # even if the clock looks then
    clock.advance(table_id=table.pk, now=later)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING


def test_a_member_back_before_the_closing_time_keeps_the_table(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    close_page(table, alice)
    close_page(table, bob)
    clock.advance(table_id=table.pk, now=max(seat_of(table, alice).gone_at, seat_of(table, bob).gone_at))
    closing_time = max(seat_of(table, m).offline_since for m in (alice, bob)) + pace.close_after()
    open_page(table, bob)
    Table.objects.filter(pk=table.pk).update(due_at=closing_time)
    clock.advance(table_id=table.pk, now=closing_time)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    assert seat_to_act(table) is not None or current_round(table).over
