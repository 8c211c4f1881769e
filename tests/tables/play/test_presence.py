"""Presence per socket: a seated member whose every page of the table has closed is offline two seconds
later (a reload is not a departure); after the table's grace the bot plays their turns, at the table's pace,
until a page is back. Sockets are rows every process sees; rows a dead process left go stale and are swept."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.models import Move, Table, TableSocket
from tables.play import pace
from tables.play.services import clock, presence
from tables.play.services.tables import add_bot, create_table, join_table, leave_table
from tests.sockets import communicator, hawsker_table
from tests.sockets import version_of as board_version
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.play.table_life import (
    TICK,
    channel,
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


@pytest.fixture(autouse=True)
def _stale_sockets_swept_on_the_next_pass(monkeypatch) -> None:
    monkeypatch.setattr(clock, "_stale_swept_at", None)


def version_of(table: Table) -> int:
    table.refresh_from_db()
    return table.version


# --- sockets --------------------------------------------------------------------------------------------------

def test_a_socket_is_a_row_while_it_lives(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    before = timezone.now()
    open_page(table, alice)
    row = TableSocket.objects.get(channel_name=channel(table, alice))
    assert (row.table_id, row.user_id) == (table.pk, alice.pk) and row.last_seen >= before
    TableSocket.objects.filter(pk=row.pk).update(last_seen=before - timedelta(minutes=1))
    presence.socket_seen(channel_name=row.channel_name)
    assert TableSocket.objects.get(pk=row.pk).last_seen >= before
    close_page(table, alice)
    assert not TableSocket.objects.filter(channel_name=row.channel_name).exists()
    close_page(table, alice)  # closed twice (a disconnect after a failed connect): nothing happens


def test_the_last_page_closing_makes_the_member_offline_two_seconds_later(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    open_page(table, alice, tab=2)
    version = version_of(table)
    close_page(table, alice)  # one of her two tabs: still there
    assert seat_of(table, alice).gone_at is None
    before = timezone.now()
    close_page(table, alice, tab=2)
    after = timezone.now()
    seat = seat_of(table, alice)
    assert before + pace.OFFLINE_AFTER <= seat.gone_at <= after + pace.OFFLINE_AFTER
    assert seat.offline_since is None  # not yet shown
    assert due(table) <= seat.gone_at
    assert version_of(table) == version  # nothing to show yet
    assert not clock.advance(table_id=table.pk, now=seat.gone_at - TICK)
    assert clock.advance(table_id=table.pk, now=seat.gone_at)
    gone, seat = seat.gone_at, seat_of(table, alice)
    assert seat.gone_at is None and seat.offline_since == gone
    assert version_of(table) == version + 1  # everyone's board shows her offline
    assert seat_of(table, bob).offline_since is None


def test_a_reload_within_two_seconds_changes_nothing(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    version = version_of(table)
    close_page(table, alice)
    gone = seat_of(table, alice).gone_at
    open_page(table, alice, tab=1)  # the reloaded page
    seat = seat_of(table, alice)
    assert seat.gone_at is None and seat.offline_since is None
    clock.advance(table_id=table.pk, now=gone + TICK)
    assert seat_of(table, alice).offline_since is None
    assert version_of(table) == version


def test_coming_back_is_shown_at_once_and_the_turns_wait_for_the_member_again(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    close_page(table, alice)
    clock.advance(table_id=table.pk, now=seat_of(table, alice).gone_at)
    assert seat_of(table, alice).offline_since is not None
    version = version_of(table)
    open_page(table, alice)
    seat = seat_of(table, alice)
    assert seat.offline_since is None and seat.gone_at is None
    assert version_of(table) == version + 1
    assert due(table) <= current_round(table).deadline  # her turn waits for her time, no grace runs out


def test_a_spectators_page_changes_nothing_at_the_table(make_member) -> None:
    alice, bob, watcher = make_member("alice"), make_member("bob"), make_member("watcher")
    table = full_table("hawsker", [alice, bob])
    version = version_of(table)
    open_page(table, watcher)
    close_page(table, watcher)
    assert version_of(table) == version
    assert not TableSocket.objects.exists()


# --- the bot stands in after the grace, at the table's pace ----------------------------------------------------

def test_after_the_grace_the_bot_plays_an_offline_members_turns_at_pace_until_a_page_is_back(make_member,
                                                                                            settings,
                                                                                            monkeypatch) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2)
    watching(table, alice, bob)
    members = {0: alice, 1: bob}
    rng = random.Random(2)

    def play_until_alice_to_act() -> None:
        for _ in range(200):
            if seat_to_act(table) == 0:
                return
            if member_to_act(table, members) is bob:
                play_member(table, bob, rng)
            else:
                assert clock.advance(table_id=table.pk, now=time.to(due(table)))
        raise AssertionError("alice never came to act")

    play_until_alice_to_act()
    close_page(table, alice)
    gone = seat_of(table, alice).gone_at
    deadline = current_round(table).deadline
    assert clock.advance(table_id=table.pk, now=time.to(gone))
    offline_since = seat_of(table, alice).offline_since
    grace_end = offline_since + timedelta(seconds=table.grace_seconds)
    assert grace_end < deadline  # so what follows is the grace, not her time running out
    assert due(table) == grace_end
    count = moves_at(table).count()
    assert not clock.advance(table_id=table.pk, now=grace_end - TICK)
    assert clock.advance(table_id=table.pk, now=time.to(grace_end))
    assert list(moves_at(table)[count:].values_list("seat", "actor")) == [(0, Move.Actor.ABSENT)]

    # her next turn: the bot plays it at the table's pace after the move before, with no grace and no timer
    play_until_alice_to_act()
    moved_at = current_round(table).moved_at
    log = current_round(table).log
    expected = moved_at + pace.delay("normal", closed_trick=bool(log[-1].get("trick")))
    assert due(table) == expected
    count = moves_at(table).count()
    assert not clock.advance(table_id=table.pk, now=expected - TICK)
    assert clock.advance(table_id=table.pk, now=time.to(expected))
    assert list(moves_at(table)[count:].values_list("seat", "actor")) == [(0, Move.Actor.ABSENT)]

    # a page back: online again (a new version), and her turns wait for her
    version = version_of(table)
    open_page(table, alice)
    assert version_of(table) == version + 1
    play_until_alice_to_act()
    count = moves_at(table).count()
    moved_at = current_round(table).moved_at
    clock.advance(table_id=table.pk, now=time.to(moved_at + timedelta(seconds=2)))
    assert moves_at(table).count() == count  # not the bot's turn any more
    assert due(table) == current_round(table).deadline


def test_at_an_instant_table_the_bot_plays_the_offline_members_turns_at_once_after_the_grace(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    late = [alice, bob][seat_to_act(table)]
    close_page(table, late)
    clock.advance(table_id=table.pk, now=seat_of(table, late).gone_at)
    grace_end = seat_of(table, late).offline_since + timedelta(seconds=table.grace_seconds)
    assert clock.advance(table_id=table.pk, now=grace_end)
    made = list(moves_at(table).values_list("actor", flat=True))
    assert made and made[0] == Move.Actor.ABSENT
    assert Move.Actor.TIMEOUT not in made


# --- stale sockets ----------------------------------------------------------------------------------------------

def test_sockets_a_dead_process_left_are_swept_and_their_members_go_offline(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = full_table("hawk", [alice, bob, carol], bots=1)
    watching(table, alice, bob, carol)
    open_page(table, bob, tab=1)
    now = timezone.now()
    old = now - pace.SOCKET_STALE - TICK
    TableSocket.objects.filter(user=alice).update(last_seen=old)  # her only socket: its process died
    TableSocket.objects.filter(channel_name=channel(table, bob)).update(last_seen=old)  # one of bob's two
    clock.sweep(now=now)
    assert set(TableSocket.objects.values_list("user__username", flat=True)) == {"bob", "carol"}
    gone = seat_of(table, alice).gone_at
    assert gone == now + pace.OFFLINE_AFTER
    assert seat_of(table, bob).gone_at is None and seat_of(table, carol).gone_at is None
    assert due(table) <= gone
    clock.sweep(now=gone)
    assert seat_of(table, alice).offline_since == gone
    assert seat_of(table, bob).offline_since is None


def test_a_socket_that_says_it_is_alive_is_not_swept(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    TableSocket.objects.update(last_seen=timezone.now() - pace.SOCKET_STALE - TICK)
    presence.socket_seen(channel_name=channel(table, alice))  # the heartbeat
    assert presence.forget_stale_sockets(now=timezone.now()) == 1
    assert list(TableSocket.objects.values_list("user__username", flat=True)) == ["alice"]


# --- members seated without a page ------------------------------------------------------------------------------

def test_members_seated_at_a_new_table_without_its_page_have_a_first_look(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4)
    open_page(table, alice)
    join_table(table_id=table.pk, user=bob)
    add_bot(table_id=table.pk, user=alice)
    before = timezone.now()
    add_bot(table_id=table.pk, user=alice)  # full: the match starts
    after = timezone.now()
    assert seat_of(table, alice).gone_at is None
    gone = seat_of(table, bob).gone_at
    assert before + pace.FIRST_LOOK <= gone <= after + pace.FIRST_LOOK
    assert seat_of(table, bob).offline_since is None
    assert due(table) <= gone
    open_page(table, bob)  # he came in time
    assert seat_of(table, bob).gone_at is None


def test_a_member_who_never_looks_goes_offline_after_the_first_look(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice)
    gone = seat_of(table, bob).gone_at
    version = version_of(table)
    assert clock.advance(table_id=table.pk, now=gone)
    assert seat_of(table, bob).offline_since == gone
    assert version_of(table) == version + 1


def test_a_member_offline_at_a_table_still_filling_gets_the_first_look_when_it_starts(make_member) -> None:
    """Shown offline while the table filled (her page long closed): when it starts she has the first look,
    not a grace that ran out before the first card, as any member seated without the page has."""
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2)
    open_page(table, alice)
    close_page(table, alice)
    assert clock.advance(table_id=table.pk, now=seat_of(table, alice).gone_at)
    assert seat_of(table, alice).offline_since is not None
    table.seats.filter(user=alice).update(offline_since=timezone.now() - timedelta(hours=1))
    before = timezone.now()
    join_table(table_id=table.pk, user=bob)  # full: the match starts
    seat = seat_of(table, alice)
    assert seat.offline_since is None and seat.gone_at >= before + pace.FIRST_LOOK
    watching(table, bob)
    if seat_to_act(table) == 0:
        assert not moves_at(table).exists()  # the bot did not take her first turn


def test_a_seat_given_up_at_a_table_still_filling_keeps_nothing_of_its_last_member(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = create_table(creator=alice, game="hawk", players=4)
    watching(table, alice)
    join_table(table_id=table.pk, user=bob)
    open_page(table, bob)
    close_page(table, bob)
    clock.advance(table_id=table.pk, now=seat_of(table, bob).gone_at)
    position = seat_of(table, bob).position
    assert seat_of(table, bob).offline_since is not None
    leave_table(table_id=table.pk, user=bob)
    open_page(table, carol)  # watching, then sits down
    join_table(table_id=table.pk, user=carol)
    seat = seat_of(table, carol)
    assert seat.position == position
    assert seat.offline_since is None and seat.gone_at is None


def test_presence_at_a_table_still_filling_is_shown_to_everyone(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4)
    join_table(table_id=table.pk, user=bob)
    watching(table, alice, bob)
    version = version_of(table)
    close_page(table, bob)
    assert version_of(table) == version
    gone = seat_of(table, bob).gone_at
    assert due(table) == gone
    assert not clock.advance(table_id=table.pk, now=gone - TICK)
    assert clock.advance(table_id=table.pk, now=gone)
    assert seat_of(table, bob).offline_since == gone
    assert version_of(table) == version + 1
    assert due(table) is None
    open_page(table, bob)
    assert seat_of(table, bob).offline_since is None
    assert version_of(table) == version + 2


# --- the table socket records presence ----------------------------------------------------------------------

async def _board_of(comm) -> str:
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return await comm.receive_from(timeout=5)


@pytest.mark.django_db(transaction=True)
async def test_the_table_socket_is_a_row_while_open_and_its_close_starts_the_absence(make_member) -> None:
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    await _board_of(comm)
    rows = await sync_to_async(list)(TableSocket.objects.values_list("table_id", "user_id"))
    assert rows == [(table.pk, alice.pk)]
    seat = await sync_to_async(seat_of)(table, alice)
    assert seat.gone_at is None and seat.offline_since is None  # the first look is over: she is here
    before = timezone.now()
    await comm.disconnect()
    after = timezone.now()
    assert not await sync_to_async(TableSocket.objects.exists)()
    gone = (await sync_to_async(seat_of)(table, alice)).gone_at
    assert before + pace.OFFLINE_AFTER <= gone <= after + pace.OFFLINE_AFTER
    assert (await sync_to_async(seat_of)(table, bob)).gone_at is not None  # bob never looked (first look)


@pytest.mark.django_db(transaction=True)
async def test_a_member_shown_offline_comes_back_with_the_page_at_a_new_version(make_member) -> None:
    table, alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    first = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    await _board_of(first)
    await first.disconnect()
    gone = (await sync_to_async(seat_of)(table, alice)).gone_at
    await sync_to_async(clock.advance)(table_id=table.pk, now=gone)
    assert (await sync_to_async(seat_of)(table, alice)).offline_since is not None
    offline_version = await sync_to_async(version_of)(table)
    again = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    board = await _board_of(again)
    assert board_version(board) == offline_version + 1  # the board she gets shows her back
    assert (await sync_to_async(seat_of)(table, alice)).offline_since is None
    await again.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_keeps_saying_it_is_alive(make_member, monkeypatch) -> None:
    monkeypatch.setattr(pace, "HEARTBEAT_SECONDS", 0.02)
    table, _alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    await _board_of(comm)
    old = timezone.now() - pace.SOCKET_STALE
    await sync_to_async(TableSocket.objects.update)(last_seen=old)

    async def refreshed() -> None:
        while await sync_to_async(TableSocket.objects.filter(last_seen=old).exists)():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(refreshed(), 10)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_swept_as_stale_while_alive_records_itself_again(make_member, monkeypatch) -> None:
    """Its heartbeats were held up past SOCKET_STALE (a busy process, the database away): the sweep took its row
    and its member for gone. The page is still open, so the next heartbeat puts both back."""
    monkeypatch.setattr(pace, "HEARTBEAT_SECONDS", 0.02)
    table, alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    await _board_of(comm)

    @sync_to_async
    def swept() -> int:
        TableSocket.objects.all().delete()
        table.seats.filter(user=alice).update(offline_since=timezone.now())
        return version_of(table)

    @sync_to_async
    def back() -> bool:
        return TableSocket.objects.filter(user=alice).exists() and seat_of(table, alice).offline_since is None

    version = await swept()

    async def until_back() -> None:
        while not await back():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(until_back(), 10)
    assert board_version(await comm.receive_from(timeout=5)) == version + 1  # everyone is told she is back
    await comm.disconnect()
