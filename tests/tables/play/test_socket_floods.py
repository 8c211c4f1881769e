"""One member cannot flood the club's sockets: each socket has a message rate (a token bucket, charged before a
message is read), a socket over it is closed with CLOSE_TOO_FAST, junk is refused without a thread or a query,
and a message nested deeper than any page sends is refused before it is decoded (`[` 5,000 times used to raise
RecursionError out of the consumer, closing the socket with 1011)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import DatabaseSyncToAsync
from django.db.backends.utils import CursorWrapper

from tables.play import socket_rate, sockets
from tests.sockets import communicator, hawsker_table, move_for_whoever_acts, session_cookie, version_of
from tests.tables.helpers import legal_for, seat_to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Objects nested too deeply (the issue's `[` 5,000 times is refused sooner: it is no object).
DEPTH_BOMBS = ['{"a":' + "[" * 5000, "{" + '"a":{' * 3000, '{"kind": "chat", "text": ' + "[" * 15_000 + "}",
               '{"kind": "chat", "x": ' + "[" * sockets.MAX_NESTING + "]" * sockets.MAX_NESTING + "}"]


class Clock:
    """The buckets' clock, moved by hand: no test here waits for time to pass."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock()
    monkeypatch.setattr(socket_rate, "monotonic", frozen)
    return frozen


def socket_move(table: Any, version: int, move: str) -> str:
    """What the board's move button sends over the socket (htmx's ws-send: its hx-vals and htmx's headers)."""
    return json.dumps({"kind": "move", "table": table.code, "version": str(version), "move": move,
                       "HEADERS": {"HX-Request": "true", "HX-Trigger": None}})


@sync_to_async
def whose_turn(table: Any, members: list[Any]) -> tuple[Any, str, int] | None:
    """(the member to act, the socket message of their first legal move, the table's version), or None when
    nobody is to act (the round is over)."""
    table.refresh_from_db()
    seat = seat_to_act(table)
    if seat is None:
        return None
    return members[seat], socket_move(table, table.version, legal_for(table, seat)[0]), table.version


async def open_table_socket(table: Any, cookie: str) -> Any:
    comm = communicator(f"/ws/table/{table.code}/", cookie=cookie)
    assert (await comm.connect())[0]
    assert 'id="board"' in await comm.receive_from(timeout=5)
    return comm


@contextmanager
def database_work() -> Iterator[dict[str, int]]:
    """Counts, in every thread, the statements sent to the database and the consumers' trips to a thread for it
    (channels' database_sync_to_async, which also closes the thread's old connections)."""
    counts = {"queries": 0, "trips": 0}
    execute, handler = CursorWrapper._execute_with_wrappers, DatabaseSyncToAsync.thread_handler

    def counted_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["queries"] += 1
        return execute(self, *args, **kwargs)

    def counted_trip(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["trips"] += 1
        return handler(self, *args, **kwargs)

    CursorWrapper._execute_with_wrappers = counted_execute  # type: ignore[method-assign]
    DatabaseSyncToAsync.thread_handler = counted_trip  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        CursorWrapper._execute_with_wrappers = execute  # type: ignore[method-assign]
        DatabaseSyncToAsync.thread_handler = handler  # type: ignore[method-assign]


async def test_a_depth_bomb_is_refused_and_the_socket_keeps_working(make_member) -> None:
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = await open_table_socket(table, alice_cookie)
    for bomb in DEPTH_BOMBS:
        await comm.send_to(text_data=bomb)
        reply = await comm.receive_from(timeout=5)
        assert 'id="table-error"' in reply and "nested too deeply" in reply
    await comm.send_to(text_data="[" * 5000)
    assert "not one this page sends" in await comm.receive_from(timeout=5)
    new_version = await move_for_whoever_acts(table, [alice, bob])
    assert version_of(await comm.receive_from(timeout=5)) == new_version
    await comm.disconnect()

    lobby = communicator("/ws/lobby/", cookie=alice_cookie)
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=5)
    await lobby.send_to(text_data=DEPTH_BOMBS[0])
    reply = await lobby.receive_from(timeout=5)
    assert 'id="socket-error"' in reply and "nested too deeply" in reply
    await lobby.send_to(text_data="[" * 5000)
    assert "not one this page sends" in await lobby.receive_from(timeout=5)
    await lobby.disconnect()


async def test_a_burst_over_the_rate_closes_the_socket_and_what_came_after_is_not_read(
        make_member, settings, clock: Clock) -> None:
    settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND = 5, 1.0
    table, alice, bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    turn = await whose_turn(table, [alice, bob])
    assert turn is not None
    mover, move, version = turn
    mover_cookie, other_cookie = (alice_cookie, bob_cookie) if mover == alice else (bob_cookie, alice_cookie)
    comm = await open_table_socket(table, mover_cookie)
    for _ in range(5):
        await comm.send_to(text_data="junk")
        assert 'id="table-error"' in await comm.receive_from(timeout=5)
    await comm.send_to(text_data=move)  # a good message, but the bucket is empty: not read
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": sockets.CLOSE_TOO_FAST}
    clock.now += 60  # a full bucket again; the socket stays closed and reads nothing more
    await comm.send_to(text_data=move)
    assert await comm.receive_nothing(timeout=0.3)
    await table.arefresh_from_db()
    assert table.version == version
    await comm.disconnect()

    # The limit is the socket's: another socket of the member's, and the other member's, work.
    again = await open_table_socket(table, mover_cookie)
    others = await open_table_socket(table, other_cookie)
    await again.send_to(text_data=move)
    for socket in (again, others):
        assert version_of(await socket.receive_from(timeout=5)) > version
        await socket.disconnect()


async def test_frames_are_charged_as_they_arrive_even_while_the_socket_is_still_connecting(
        make_member, settings, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that floods from the handshake on: its frames are charged while `connect` still waits for the
    database (held here), and it is closed then; Channels alone would read them only after `connect`."""
    settings.SOCKET_MESSAGE_BURST = 5
    held = asyncio.Event()
    connect_hook = sockets.ClubConsumer.features_on_connect

    async def slow_connect(consumer: sockets.ClubConsumer) -> str:
        await held.wait()
        return await connect_hook(consumer)

    monkeypatch.setattr(sockets.ClubConsumer, "features_on_connect", slow_connect)
    table, _alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]  # accepted: the board is still to come
    for _ in range(200):
        await comm.send_to(text_data="junk")
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": sockets.CLOSE_TOO_FAST}
    held.set()
    assert await comm.receive_nothing(timeout=0.5)  # no board, no answers to what was queued
    await comm.disconnect()


async def test_the_lobby_socket_has_the_same_rate(make_member, settings, clock: Clock) -> None:
    settings.SOCKET_MESSAGE_BURST = 3
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)("alice"))
    lobby = communicator("/ws/lobby/", cookie=cookie)
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=5)
    for _ in range(3):
        await lobby.send_to(text_data='{"kind": "nothing"}')
        assert 'id="socket-error"' in await lobby.receive_from(timeout=5)
    await lobby.send_to(text_data='{"kind": "nothing"}')
    assert await lobby.receive_output(timeout=5) == {"type": "websocket.close", "code": sockets.CLOSE_TOO_FAST}
    await lobby.disconnect()


async def test_messages_within_the_rate_are_all_read(make_member, settings, clock: Clock) -> None:
    settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND = 3, 2.0
    table, alice, bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    sockets_of = {alice.pk: await open_table_socket(table, alice_cookie),
                  bob.pk: await open_table_socket(table, bob_cookie)}
    for comm in sockets_of.values():  # the whole burst at once
        for _ in range(3):
            await comm.send_to(text_data='{"kind": "nothing"}')
            assert 'id="table-error"' in await comm.receive_from(timeout=5)
    # Then a message every half second (the rate) for a long while: every one is read, moves are made.
    moves = 0
    for _ in range(40):
        clock.now += 0.5
        turn = await whose_turn(table, [alice, bob])
        if turn is None:  # the round is over: a message all the same
            await sockets_of[alice.pk].send_to(text_data='{"kind": "nothing"}')
            assert 'id="table-error"' in await sockets_of[alice.pk].receive_from(timeout=5)
            continue
        mover, move, version = turn
        await sockets_of[mover.pk].send_to(text_data=move)
        for comm in sockets_of.values():
            assert version_of(await comm.receive_from(timeout=5)) > version
            while not await comm.receive_nothing(timeout=0.05):  # anything that followed the move
                await comm.receive_output()
        moves += 1
    assert moves >= 5
    for comm in sockets_of.values():
        await comm.disconnect()


async def test_no_limit_when_the_burst_is_zero(make_member, settings, clock: Clock) -> None:
    settings.SOCKET_MESSAGE_BURST = 0
    table, _alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = await open_table_socket(table, alice_cookie)
    for _ in range(100):
        await comm.send_to(text_data="junk")
        assert 'id="table-error"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


def junk_for(table: Any) -> list[str]:
    """Messages no page sends, and moves that cannot be one (no table, another's, no version): refused unread
    by the database."""
    move = {"kind": "move", "table": table.code, "version": str(table.version), "move": "play AS"}
    return [
        "not json {", "x" * 200_000, "   ", "null", "5", '"kind"', json.dumps(["kind", "move"]), "[" * 5000,
        *DEPTH_BOMBS,
        json.dumps({}), json.dumps({"kind": 5}), json.dumps({"kind": "nothing"}), json.dumps({"kind": ["move"]}),
        json.dumps({**move, "table": None}), json.dumps({**move, "table": "elsewhere"}),
        json.dumps({**move, "version": None}), json.dumps({**move, "version": "-1"}),
        json.dumps({**move, "version": "\u0661"}), json.dumps({**move, "kind": "ready", "version": [1]}),
        json.dumps({key: value for key, value in move.items() if key != "table"}),
    ]


async def test_junk_is_refused_without_a_thread_or_a_query(make_member, settings) -> None:
    settings.SOCKET_MESSAGE_BURST = 0  # so many at once: the rate is another test's
    table, _alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = await open_table_socket(table, alice_cookie)
    lobby = communicator("/ws/lobby/", cookie=alice_cookie)
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=5)
    junk = junk_for(table)
    with database_work() as counts:
        for frame in junk:
            await comm.send_to(text_data=frame)
            reply = await comm.receive_from(timeout=5)
            assert 'id="table-error"' in reply, frame[:80]
            await lobby.send_to(text_data=frame)
            assert 'id="socket-error"' in await lobby.receive_from(timeout=5)
        for socket in (comm, lobby):
            await socket.send_to(bytes_data=b'{"kind": "chat", "text": "bytes"}')
            assert "error" in await socket.receive_from(timeout=5)
    assert counts == {"queries": 0, "trips": 0}

    # A chat message with no line in it is the chat's to refuse: a trip to a thread, no query.
    with database_work() as counts:
        for text in (None, ["a"], "", "   ", "z" * 301):
            await comm.send_to(text_data=json.dumps({"kind": "chat", "text": text}))
            assert 'data-sent="no"' in await comm.receive_from(timeout=5)
    assert counts["queries"] == 0
    await comm.disconnect()
    await lobby.disconnect()
