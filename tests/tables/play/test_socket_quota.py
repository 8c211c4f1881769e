"""One member cannot open sockets without end (each costs a render and a frame per change), and a
change to the lobby's list is rendered once per process, however many lobby sockets there are."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from tables.lobby import rendering as rendering_lobby
from tables.play import push
from tests.sockets import communicator, session_cookie
from tests.tables.helpers import full_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(path: str, cookie: str) -> tuple[WebsocketCommunicator, int | None]:
    """The socket, and the code it was closed with at once (None: it stays open)."""
    comm = communicator(path, cookie=cookie)
    connected, code = await comm.connect()
    if not connected:
        return comm, code
    first = await comm.receive_output(timeout=5)
    if first["type"] == "websocket.close":
        return comm, first.get("code", 1000)
    return comm, None


async def test_the_socket_over_the_cap_is_closed_with_4429_and_a_freed_place_is_taken_again(make_member) -> None:
    assert settings.SOCKETS_PER_MEMBER == 12
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    table = await sync_to_async(full_table)("hawsker", [alice, bob])
    cookie, bob_cookie = (await sync_to_async(session_cookie)(alice), await sync_to_async(session_cookie)(bob))
    sockets = []
    for n in range(12):  # lobby and table sockets count together
        comm, code = await open_socket("/ws/lobby/" if n % 2 else f"/ws/table/{table.code}/", cookie)
        assert code is None, n
        sockets.append(comm)

    for path in ("/ws/lobby/", f"/ws/table/{table.code}/"):
        surplus, code = await open_socket(path, cookie)
        assert code == 4429  # accepted, then closed: htmx does not retry 4xxx
        await surplus.disconnect()

    others, code = await open_socket("/ws/lobby/", bob_cookie)  # another member is not affected
    assert code is None

    await sockets.pop().disconnect()
    again, code = await open_socket("/ws/lobby/", cookie)
    assert code is None
    for comm in [*sockets, again, others]:
        await comm.disconnect()


async def test_a_refused_socket_does_not_count_and_the_cap_is_a_setting(make_member, settings) -> None:
    settings.SOCKETS_PER_MEMBER = 2
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)())
    kept = [(await open_socket("/ws/lobby/", cookie))[0] for _ in range(2)]
    for _ in range(3):
        surplus, code = await open_socket("/ws/lobby/", cookie)
        assert code == 4429
        await surplus.disconnect()
    await kept.pop().disconnect()
    again, code = await open_socket("/ws/lobby/", cookie)
    assert code is None
    for comm in [*kept, again]:
        await comm.disconnect()


async def test_one_change_renders_the_lobby_list_once_for_all_sockets_of_the_process(make_member, monkeypatch) -> None:
    members = [await sync_to_async(make_member)() for _ in range(6)]
    sockets = []
    for member in members:
        comm, code = await open_socket("/ws/lobby/", await sync_to_async(session_cookie)(member))
        assert code is None
        sockets.append(comm)
    for comm in sockets:  # the online counts of those who came after
        while not await comm.receive_nothing(timeout=0.2):
            await comm.receive_output()

    renders: list[int] = []
    real = rendering_lobby.render_to_string

    def counted(template: str, context: dict) -> str:
        renders.append(1)
        return real(template, context)

    monkeypatch.setattr(rendering_lobby, "render_to_string", counted)
    await get_channel_layer().group_send(push.LOBBY_GROUP, {"type": "lobby.changed"})
    for comm in sockets:
        assert 'id="table-list"' in await comm.receive_from(timeout=5)
    assert len(renders) == 1
    for comm in sockets:
        await comm.disconnect()


async def test_a_socket_that_dies_without_a_disconnect_gives_its_place_back(make_member, settings) -> None:
    """Daphne cancels an application that overran its close timeout; no disconnect handler runs then."""
    settings.SOCKETS_PER_MEMBER = 1
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)())
    dying, code = await open_socket("/ws/lobby/", cookie)
    assert code is None
    dying.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dying.future
    comm, code = await open_socket("/ws/lobby/", cookie)
    assert code is None
    await comm.disconnect()
