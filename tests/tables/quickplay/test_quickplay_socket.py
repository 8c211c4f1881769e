"""Quick play over the lobby socket: live counts, a member's own place, notices to that member only,
and the socket's own timer for bots after the wait and for expiry."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.models import QueueRequest, Seat
from tables.quickplay.services.matchmaking import cancel, enqueue
from tests.sockets import communicator, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def members(make_member, *names: str) -> list:
    return [await sync_to_async(make_member)(name) for name in names]


async def connect(user):
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(user))
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=5)


async def receive_until(comm, pattern: str, timeout: float = 5.0) -> str:
    """The first message matching `pattern` (others, like the online count, are passed over)."""
    deadline = asyncio.get_running_loop().time() + timeout
    seen = []
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise AssertionError(f"no message matched {pattern!r}; got {seen}")
        message = await comm.receive_from(timeout=left)
        if re.search(pattern, message):
            return message
        seen.append(message[:200])


def waiting_for(html: str, game: str) -> int:
    found = re.search(rf'data-game="{game}" data-waiting="(\d+)"', html)
    assert found, html
    return int(found.group(1))


async def test_the_lobby_counts_who_waits_for_each_game_live(make_member) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    comm, first = await connect(bob)
    assert 'id="quick-counts"' in first and waiting_for(first, "puskiyon") == 0
    await sync_to_async(enqueue)(user=alice, game="puskiyon", players=4)
    update = await receive_until(comm, r'id="quick-counts"')
    assert 'hx-swap-oob="true"' in update
    assert waiting_for(update, "puskiyon") == 1 and waiting_for(update, "hawk") == 0
    await sync_to_async(cancel)(user=alice)
    update = await receive_until(comm, r'id="quick-counts"')
    assert waiting_for(update, "puskiyon") == 0
    # bob is not waiting: his own panel (maybe a half-filled form) is left alone.
    assert 'id="quick-mine"' not in update
    await comm.disconnect()


async def test_a_member_sees_their_own_place_and_wait(make_member) -> None:
    dave, alice, carol = await members(make_member, "dave", "alice", "carol")
    await sync_to_async(enqueue)(user=dave, game="hawk", players=5)
    await sync_to_async(enqueue)(user=alice, game="hawk", players=4)
    comm, first = await connect(alice)
    assert 'data-state="waiting"' in first
    assert 'data-place="2" data-of="2"' in first
    assert "Hawk · 4 players" in first
    await sync_to_async(enqueue)(user=carol, game="hawk", players=3)
    update = await receive_until(comm, r'data-of="3"')
    assert 'data-place="2"' in update and 'id="quick-mine" hx-swap-oob="true"' in update
    await sync_to_async(cancel)(user=dave)
    update = await receive_until(comm, r'data-place="1" data-of="2"')
    assert re.search(r'data-waited="\d+"', update)
    await comm.disconnect()


async def test_asking_or_cancelling_in_another_tab_updates_this_tab(make_member) -> None:
    alice, bob = await members(make_member, "alice", "bob")
    alice_socket, first = await connect(alice)
    assert 'id="quick-form"' in first
    bob_socket, _ = await connect(bob)
    await receive_until(alice_socket, r'data-count="2"')  # bob came online
    await sync_to_async(enqueue)(user=alice, game="puskiyon", players=5)  # from her other tab
    update = await receive_until(alice_socket, r'id="quick-mine"')
    assert 'data-state="waiting"' in update and 'data-place="1" data-of="1"' in update
    others = await receive_until(bob_socket, r'id="quick-counts"')
    assert 'id="quick-mine"' not in others
    await sync_to_async(cancel)(user=alice)
    update = await receive_until(alice_socket, r'id="quick-mine"')
    assert 'id="quick-form"' in update and 'data-state="waiting"' not in update
    for comm in (alice_socket, bob_socket):
        await comm.disconnect()


async def test_your_table_is_ready_reaches_only_the_members_seated(make_member) -> None:
    alice, bob, carol = await members(make_member, "alice", "bob", "carol")
    await sync_to_async(enqueue)(user=alice, game="hawsker")
    alice_socket, _ = await connect(alice)
    carol_socket, _ = await connect(carol)
    made = await sync_to_async(enqueue)(user=bob, game="hawsker")
    code = await sync_to_async(lambda: made.table.code)()
    notice = await receive_until(alice_socket, r'data-notice="table_ready"')
    assert "Your table is ready" in notice and f'href="/t/{code}/"' in notice
    assert f'hx-get="/quick/go/{code}/" hx-trigger="load"' in notice  # the page moves there itself
    assert 'id="notices" hx-swap-oob="beforeend"' in notice
    # Carol hears that the queue changed, never the notice.
    await receive_until(carol_socket, r'id="quick-counts"')
    while not await carol_socket.receive_nothing(timeout=0.5):
        assert "data-notice" not in await carol_socket.receive_from()
    for comm in (alice_socket, carol_socket):
        await comm.disconnect()


async def test_an_expired_request_is_removed_and_the_member_told(make_member) -> None:
    alice = await sync_to_async(make_member)("alice")
    mine = await sync_to_async(enqueue)(user=alice, game="hawk", players=6)
    soon = timezone.now() + timedelta(seconds=0.5)
    await sync_to_async(QueueRequest.objects.filter(pk=mine.pk).update)(expires_at=soon)
    comm, first = await connect(alice)
    assert 'data-state="waiting"' in first
    notice = await receive_until(comm, r'data-notice="queue_expired"', timeout=5)
    assert "Nobody matched your quick-play request for Hawk within 10 minutes" in notice
    panel = await receive_until(comm, r'id="quick-mine"')  # then the panel offers the form again
    assert 'id="quick-form"' in panel and 'data-state="waiting"' not in panel
    await sync_to_async(mine.refresh_from_db)()
    assert mine.state == QueueRequest.State.EXPIRED
    await comm.disconnect()


async def test_bots_join_after_the_wait_the_member_chose(make_member) -> None:
    alice = await sync_to_async(make_member)("alice")
    mine = await sync_to_async(enqueue)(user=alice, game="puskiyon", players=3, bots_after_seconds=10)
    almost = timezone.now() - timedelta(seconds=9.5)
    await sync_to_async(QueueRequest.objects.filter(pk=mine.pk).update)(created_at=almost)
    comm, _ = await connect(alice)
    notice = await receive_until(comm, r'data-notice="table_ready"', timeout=5)
    await sync_to_async(mine.refresh_from_db)()
    assert mine.state == QueueRequest.State.MATCHED and mine.with_bots
    seats = await sync_to_async(lambda: list(Seat.objects.filter(table_id=mine.table_id).order_by("position")))()
    assert [s.user_id for s in seats] == [alice.pk, None, None] and [s.is_bot for s in seats] == [False, True, True]
    code = await sync_to_async(lambda: mine.table.code)()
    assert f"/t/{code}/" in notice
    await comm.disconnect()


async def test_a_table_that_formed_just_before_the_socket_connected_is_announced_on_connect(make_member) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    await sync_to_async(enqueue)(user=alice, game="hawsker")
    made = await sync_to_async(enqueue)(user=bob, game="hawsker")
    code = await sync_to_async(lambda: made.table.code)()
    comm, first = await connect(alice)
    assert 'data-notice="table_ready"' in first and f'hx-get="/quick/go/{code}/"' in first
    await comm.disconnect()


async def test_a_request_comes_due_on_time_when_its_member_has_left_the_site(make_member, settings) -> None:
    """Nobody asks in that game and the member has no socket: the process's sweeper (started by any
    socket, here another member's lobby) still expires the request, and the lobby's counts follow."""
    settings.QUICK_PLAY_SWEEP_SECONDS = 0.2
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    mine = await sync_to_async(enqueue)(user=alice, game="hawk", players=6)
    soon = timezone.now() + timedelta(seconds=0.3)
    await sync_to_async(QueueRequest.objects.filter(pk=mine.pk).update)(expires_at=soon)
    comm, first = await connect(bob)
    assert waiting_for(first, "hawk") == 1
    update = await receive_until(comm, r'data-game="hawk" data-waiting="0"', timeout=5)
    assert 'id="quick-counts"' in update
    await sync_to_async(mine.refresh_from_db)()
    assert mine.state == QueueRequest.State.EXPIRED
    await comm.disconnect()
