"""The table socket: whole board on connect, a fresh board per change, hostile input survived."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tables.play import consumers, push
from tests.sockets import communicator, hawsker_table, move_for_whoever_acts, refusal_code, session_cookie, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_anonymous_and_unknown_tables_are_refused(make_member) -> None:
    table, *_ = await hawsker_table(make_member)
    assert await refusal_code(communicator(f"/ws/table/{table.code}/")) == 4401
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)("carol"))
    assert await refusal_code(communicator("/ws/table/nosuchtable/", cookie=cookie)) == 4404


async def test_connect_sends_the_whole_table_and_each_change_sends_it_again(make_member) -> None:
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]
    first = await comm.receive_from(timeout=5)
    assert 'hx-swap-oob="true"' in first
    assert version_of(first) == table.version
    new_version = await move_for_whoever_acts(table, [alice, bob])
    pushed = await comm.receive_from(timeout=5)
    assert version_of(pushed) == new_version
    await comm.disconnect()


async def test_a_push_takes_no_trip_to_a_thread_when_this_process_made_the_move(make_member, monkeypatch) -> None:
    """The board of a move made here is built on the event loop from the move's snapshot, and Channels'
    close-old-connections hop before each handler is skipped (every database call closes them itself)."""
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    trips: list[str] = []

    def counted(original):
        def wrapper(func, *args, **kwargs):
            trips.append(getattr(func, "__name__", repr(func)))
            return original(func, *args, **kwargs)
        return wrapper

    monkeypatch.setattr("tables.play.consumers.database_sync_to_async", counted(database_sync_to_async))
    monkeypatch.setattr("channels.consumer.aclose_old_connections", lambda: pytest.fail("a hop per event"))
    new_version = await move_for_whoever_acts(table, [alice, bob])
    pushed = await comm.receive_from(timeout=5)
    assert version_of(pushed) == new_version
    assert trips == []
    await comm.disconnect()


async def test_hostile_messages_get_an_error_and_the_socket_keeps_working(make_member) -> None:
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    hostile = [
        "not json {", "x" * 200_000, json.dumps([1, 2, 3]), json.dumps({"move": "play 10D", "version": 1}),
        json.dumps({"table": table.pk + 999, "move": "play AS"}), json.dumps({"HEADERS": {"HX-Request": "true"}}),
    ]
    for message in hostile:
        await comm.send_to(text_data=message)
        reply = await comm.receive_from(timeout=5)
        assert 'id="table-error"' in reply
        assert message[:30] not in reply  # never echoed back
    await comm.send_to(bytes_data=b"\x00\xff")
    assert 'id="table-error"' in await comm.receive_from(timeout=5)
    new_version = await move_for_whoever_acts(table, [alice, bob])
    assert version_of(await comm.receive_from(timeout=5)) == new_version
    await comm.disconnect()


async def test_old_versions_are_not_sent_and_a_broken_event_closes_for_a_retry(make_member) -> None:
    table, _alice, _bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    layer = get_channel_layer()
    await layer.group_send(push.table_group(table.pk), {"type": "table.changed", "version": table.version - 1})
    assert await comm.receive_nothing(timeout=0.5)
    await layer.group_send(push.table_group(table.pk), {"type": "table.changed", "version": "garbage"})
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_TRY_AGAIN}
    # Coming back gives the whole table again.
    again = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await again.connect())[0]
    assert version_of(await again.receive_from(timeout=5)) == table.version
    await again.disconnect()
