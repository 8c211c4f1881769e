"""A browser may close a socket while `connect` still runs: connect's next send then raises, and no
disconnect follows. What the socket recorded (the member's presence in the lobby or at a table) is undone all
the same, so nobody is counted online, or present at a table, after they have gone."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tables.lobby.consumers import LobbyConsumer
from tables.models import Presence, Seat, TableSocket
from tables.play.consumers import TableConsumer
from tests.sockets import communicator, session_cookie
from tests.tables.helpers import full_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def closed_protocol(*args, **kwargs) -> None:
    raise RuntimeError("Attempt to send on a closed protocol")  # what Daphne raises then


async def connect_and_fail(path: str, cookie: str) -> None:
    comm = communicator(path, cookie=cookie)
    with pytest.raises(RuntimeError, match="closed protocol"):
        await comm.connect(timeout=5)
        await asyncio.wait_for(comm.future, timeout=5)  # the application ends with connect's error
    await asyncio.sleep(0)


async def test_a_lobby_socket_closed_during_connect_is_not_counted_online(make_member, monkeypatch) -> None:
    alice = await sync_to_async(make_member)("alice")
    cookie = await sync_to_async(session_cookie)(alice)
    monkeypatch.setattr(LobbyConsumer, "_send_online", closed_protocol)
    await connect_and_fail("/ws/lobby/", cookie)
    assert await sync_to_async(Presence.objects.count)() == 0


async def test_a_table_socket_closed_during_connect_leaves_no_presence_behind(make_member, monkeypatch) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    table = await sync_to_async(full_table)("hawsker", [alice, bob])
    cookie = await sync_to_async(session_cookie)(alice)
    monkeypatch.setattr(TableConsumer, "_send_board", closed_protocol)
    await connect_and_fail(f"/ws/table/{table.code}/", cookie)
    assert await sync_to_async(TableSocket.objects.count)() == 0
    seat = await sync_to_async(Seat.objects.get)(table=table, user=alice)
    assert seat.gone_at is not None  # her last page closed: offline in a moment, unless one opens again
