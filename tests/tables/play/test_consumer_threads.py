"""Whose thread a socket's database work runs on: each socket has one of its own, kept for the next socket
when it ends (its connection closed), and the process's quick-play sweeper and a socket's own background
writes (heartbeats, timers) run apart from every render, so a call stuck on the database (the SQLite write
lock can hold one for its 20 s busy timeout) holds up nobody else's board."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

from tables.lobby.services import presence
from tables.play import consumers, push
from tables.quickplay import selectors as selectors_quickplay
from tables.quickplay import sweeper
from tables.quickplay.services import matchmaking
from tests.sockets import communicator, hawsker_table, session_cookie, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Stuck:
    """A database call held until `release`: `inside` says it is running, `left` that it has returned."""

    def __init__(self) -> None:
        self.inside, self.release, self.left = threading.Event(), threading.Event(), threading.Event()

    def hold(self) -> None:
        self.inside.set()
        try:
            self.release.wait(10)
        finally:
            self.left.set()

    async def until_inside(self) -> None:
        assert await asyncio.to_thread(self.inside.wait, 5), "the slow call never started"


async def open_board(path: str, cookie: str) -> tuple[Any, str]:
    comm = communicator(path, cookie=cookie)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm, await comm.receive_from(timeout=5)


def recording_board_html(seen: dict[str, tuple[int, Any]], hold: dict[str, Stuck] | None = None) -> Callable[..., Any]:
    """`board_html` that notes, per member, the thread it ran on and that thread's connection, and holds
    the members named in `hold` until released."""
    original = consumers.board_html

    def board_html(table: Any, user: Any, **kwargs: Any) -> Any:
        seen[user.username] = (threading.get_ident(), connections["default"])
        if hold and user.username in hold:
            hold[user.username].hold()
        return original(table, user, **kwargs)

    return board_html


async def test_a_sweep_stuck_on_the_database_holds_up_no_sockets_board(make_member, settings, monkeypatch) -> None:
    """The sweeper has its own thread: not the shared one every socket waited behind, and not that of the
    socket that started it, whose end does not end the sweeps either."""
    table, _alice, _bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    stuck = Stuck()
    sweeps: list[int] = []

    def sweep() -> None:
        sweeps.append(threading.get_ident())
        if len(sweeps) == 1:
            stuck.hold()

    seen: dict[str, tuple[int, Any]] = {}
    monkeypatch.setattr(consumers, "board_html", recording_board_html(seen))
    monkeypatch.setattr(matchmaking, "sweep", sweep)
    settings.QUICK_PLAY_SWEEP_SECONDS = 0.05
    path = f"/ws/table/{table.code}/"
    try:
        first, _ = await open_board(path, alice_cookie)  # starts the process's sweeper
        await stuck.until_inside()
        second, board = await open_board(path, bob_cookie)
        assert not stuck.left.is_set()  # bob's board came while the sweep was still stuck
        assert version_of(board) == table.version
        assert sweeps[0] not in {seen["alice"][0], seen["bob"][0]}
        stuck.release.set()
        await first.disconnect()
        await second.disconnect()
        swept = len(sweeps)
        for _ in range(100):
            if len(sweeps) > swept:
                break
            await asyncio.sleep(0.05)
        assert len(sweeps) > swept  # still sweeping after the socket that started it ended
    finally:
        stuck.release.set()
        running = sweeper._sweeper
        if running is not None:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running


async def test_a_slow_render_at_one_socket_holds_up_no_other_socket(make_member, monkeypatch) -> None:
    table, _alice, _bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    stuck = Stuck()
    seen: dict[str, tuple[int, Any]] = {}
    monkeypatch.setattr(consumers, "board_html", recording_board_html(seen, hold={"alice": stuck}))
    path = f"/ws/table/{table.code}/"
    try:
        slow = communicator(path, cookie=alice_cookie)
        assert (await slow.connect(timeout=5))[0]
        await stuck.until_inside()  # alice's board is being rendered, and stays so until released
        other, board = await open_board(path, bob_cookie)
        assert not stuck.left.is_set()
        assert version_of(board) == table.version
    finally:
        stuck.release.set()
    assert version_of(await slow.receive_from(timeout=5)) == table.version
    await slow.disconnect()
    await other.disconnect()


async def test_each_socket_has_a_thread_of_its_own_kept_for_later_and_its_connection_closed_at_the_end(
        make_member, monkeypatch) -> None:
    table, _alice, _bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    seen: dict[str, tuple[int, Any]] = {}
    monkeypatch.setattr(consumers, "board_html", recording_board_html(seen))
    path = f"/ws/table/{table.code}/"
    first, _ = await open_board(path, alice_cookie)
    second, _ = await open_board(path, bob_cookie)
    (alice_thread, alice_connection), (bob_thread, bob_connection) = seen["alice"], seen["bob"]
    assert alice_thread != bob_thread
    await first.disconnect()
    await second.disconnect()
    assert alice_connection.connection is None and bob_connection.connection is None  # closed, not left open
    again, _ = await open_board(path, alice_cookie)
    assert seen["alice"][0] in {alice_thread, bob_thread}  # a kept thread, not a new one
    await again.disconnect()
    assert seen["alice"][1].connection is None


async def test_a_heartbeat_stuck_on_the_database_does_not_hold_up_its_own_sockets_renders(
        make_member, monkeypatch) -> None:
    member = await sync_to_async(make_member)("carol")
    stuck = Stuck()
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(presence, "heartbeat", lambda **kwargs: stuck.hold())
    try:
        comm, _ = await open_board("/ws/lobby/", await sync_to_async(session_cookie)(member))
        await stuck.until_inside()
        await get_channel_layer().group_send(push.LOBBY_GROUP, {"type": "lobby.changed"})
        listing = await comm.receive_from(timeout=5)
        assert 'id="table-list"' in listing
        assert not stuck.left.is_set()
    finally:
        stuck.release.set()
    await comm.disconnect()


async def test_with_a_thread_each_a_burst_still_reads_the_quick_play_counts_once_for_all_sockets(
        make_member, monkeypatch) -> None:
    """Sockets on threads of their own refresh at the same moment; one reads the counts, the others take
    them (as the lobby's table list, tests/tables/test_socket_quota.py)."""
    sockets = []
    for _ in range(6):
        member = await sync_to_async(make_member)()
        comm, _ = await open_board("/ws/lobby/", await sync_to_async(session_cookie)(member))
        sockets.append(comm)
    for comm in sockets:  # the online counts of those who came after
        while not await comm.receive_nothing(timeout=0.2):
            await comm.receive_output()
    reads: list[int] = []
    real = selectors_quickplay.waiting_counts

    def counted() -> Any:
        reads.append(threading.get_ident())
        return real()

    monkeypatch.setattr(selectors_quickplay, "waiting_counts", counted)
    await get_channel_layer().group_send(push.LOBBY_GROUP, {"type": "queue.changed", "members": []})
    for comm in sockets:
        assert 'id="quick-counts"' in await comm.receive_from(timeout=5)
    assert len(reads) == 1
    for comm in sockets:
        await comm.disconnect()


async def test_a_socket_that_dies_without_a_disconnect_leaves_no_task_of_its_own_running(
        make_member, monkeypatch) -> None:
    """Daphne cancels an application that overran its close timeout, and no disconnect runs: its heartbeat
    must stop with it (a task left running would beat for a dead socket, and on a thread given back)."""
    beats: list[str] = []
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.02)
    monkeypatch.setattr(presence, "heartbeat", lambda *, channel_name: beats.append(channel_name))
    member = await sync_to_async(make_member)()
    dying, _ = await open_board("/ws/lobby/", await sync_to_async(session_cookie)(member))
    while not beats:
        await asyncio.sleep(0.02)
    dying.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dying.future
    beaten = len(beats)
    await asyncio.sleep(0.3)
    assert len(beats) == beaten
