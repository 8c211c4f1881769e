"""The lobby socket through the real ASGI stack: auth, origin check, live online count."""

from __future__ import annotations

import re

import pytest

from tests.sockets import communicator, refusal_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def count_in(html: str) -> int:
    match = re.search(r'data-count="(\d+)"', html)
    assert match, html
    return int(match.group(1))


async def next_count(comm) -> int:
    return count_in(await comm.receive_from(timeout=5))


async def test_anonymous_socket_is_refused() -> None:
    assert await refusal_code(communicator("/ws/lobby/")) == 4401


async def test_foreign_origin_is_refused(make_member) -> None:
    from asgiref.sync import sync_to_async

    from tests.sockets import session_cookie

    user = await sync_to_async(make_member)()
    cookie = await sync_to_async(session_cookie)(user)
    comm = communicator("/ws/lobby/", cookie=cookie, origin="https://evil.example.com")
    connected, _ = await comm.connect()
    assert not connected
    # The refusing consumer still listens (on the channel layer too) until the browser goes: go, so nothing is left
    # for the test's event loop to cancel. Cancelled in a Redis layer's receive, it was seen to hang the loop's close.
    await comm.disconnect()


async def test_online_count_rises_and_falls_with_members(make_member) -> None:
    from asgiref.sync import sync_to_async

    from tests.sockets import session_cookie

    alice = await sync_to_async(make_member)("alice")
    bob = await sync_to_async(make_member)("bob")
    alice_cookie = await sync_to_async(session_cookie)(alice)
    bob_cookie = await sync_to_async(session_cookie)(bob)

    first = communicator("/ws/lobby/", cookie=alice_cookie)
    assert (await first.connect())[0]
    assert await next_count(first) == 1

    second = communicator("/ws/lobby/", cookie=bob_cookie)
    assert (await second.connect())[0]
    assert await next_count(second) == 2
    assert await next_count(first) == 2

    # A second tab of the same member does not count twice.
    third = communicator("/ws/lobby/", cookie=bob_cookie)
    assert (await third.connect())[0]
    assert await next_count(third) == 2
    assert await next_count(first) == 2
    await third.disconnect()
    assert await next_count(first) == 2

    await second.disconnect()
    assert await next_count(first) == 1
    await first.disconnect()


async def test_messages_sent_to_the_lobby_get_an_error_and_the_socket_stays(make_member) -> None:
    from asgiref.sync import sync_to_async

    from tests.sockets import session_cookie

    alice = await sync_to_async(make_member)("alice")
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(alice))
    assert (await comm.connect())[0]
    await next_count(comm)
    await comm.send_to(text_data="not json at all {")
    reply = await comm.receive_from(timeout=5)
    assert 'id="socket-error"' in reply
    await comm.send_to(text_data='{"HEADERS": 1}')
    assert 'id="socket-error"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_the_table_list_updates_when_a_table_is_created_filled_and_started(make_member) -> None:
    from asgiref.sync import sync_to_async

    from tables.play.services.tables import create_table, join_table
    from tests.sockets import session_cookie

    alice = await sync_to_async(make_member)("alice")
    bob = await sync_to_async(make_member)("bob")
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(bob))
    assert (await comm.connect())[0]
    await next_count(comm)
    table = await sync_to_async(create_table)(creator=alice, game="hawsker", players=2)
    listed = await comm.receive_from(timeout=5)
    assert 'id="table-list"' in listed and 'hx-swap-oob="true"' in listed
    assert f'data-table="{table.code}" data-status="open"' in listed
    await sync_to_async(join_table)(table_id=table.pk, user=bob)
    started = await comm.receive_from(timeout=5)
    assert f'data-table="{table.code}" data-status="running"' in started
    await comm.disconnect()


async def test_a_burst_of_table_changes_is_sent_as_one_fresh_list(make_member) -> None:
    """Quick play can form hundreds of tables a second: each lobby socket sends the list once for a
    burst, and that list already holds the last change."""
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    from tables.play import push
    from tables.play.services.tables import create_table
    from tests.sockets import session_cookie

    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(bob))
    assert (await comm.connect())[0]
    await next_count(comm)
    table = await sync_to_async(create_table)(creator=alice, game="hawsker", players=2)
    layer = get_channel_layer()
    for _ in range(20):
        await layer.group_send(push.LOBBY_GROUP, {"type": "lobby.changed"})
    listed = await comm.receive_from(timeout=5)
    assert f'data-table="{table.code}" data-status="open"' in listed
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()
