"""Sockets end with the session that opened them: log-out, a new password or a deactivated account
close them at once (with 4401, which htmx does not retry), not when they next time out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.play import push
from tests.conftest import PASSWORD
from tests.sockets import communicator
from tests.tables.helpers import full_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NEW_PASSWORD = "another-long-password-77"


def logged_in(user: User) -> tuple[Client, str]:
    """A browser session of `user`: the client (to log out or change the password) and its cookie."""
    client = Client()
    client.force_login(user)
    return client, client.cookies["sessionid"].value


async def opened(path: str, cookie: str) -> WebsocketCommunicator:
    comm = communicator(path, cookie=cookie)
    connected, _ = await comm.connect()
    assert connected, path
    await comm.receive_from(timeout=5)  # the first fragment: the board, or the lobby's count
    return comm


async def close_code(comm: WebsocketCommunicator, timeout: float = 3.0) -> int | None:
    """The code the socket was closed with within `timeout`, None if it stayed open (fragments are skipped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if await comm.receive_nothing(timeout=0.05):
            continue
        message: dict[str, Any] = await comm.receive_output()
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000))
    return None


@sync_to_async
def seated_pair(make_member) -> tuple[Any, User, User]:
    alice, bob = make_member("alice"), make_member("bob")
    return full_table("hawsker", [alice, bob]), alice, bob


async def test_logging_out_closes_the_table_and_lobby_sockets_of_that_session_only(make_member) -> None:
    table, alice, _ = await seated_pair(make_member)
    browser, cookie = await sync_to_async(logged_in)(alice)
    _, other_cookie = await sync_to_async(logged_in)(alice)  # alice on her phone: stays logged in
    table_socket = await opened(f"/ws/table/{table.code}/", cookie)
    lobby_socket = await opened("/ws/lobby/", cookie)
    phone_socket = await opened(f"/ws/table/{table.code}/", other_cookie)

    response = await sync_to_async(browser.post)(reverse("account_logout"))
    assert response.status_code == 302

    assert await close_code(table_socket) == 4401
    assert await close_code(lobby_socket) == 4401
    assert await close_code(phone_socket, timeout=0.5) is None
    # Until the disconnect comes back, events still reach the closed sockets: nothing more is sent.
    await get_channel_layer().group_send(push.LOBBY_GROUP, {"type": "lobby.changed"})
    await get_channel_layer().group_send(push.table_group(table.pk), {"type": "table.changed", "version": 10**6})
    assert await lobby_socket.receive_nothing(timeout=0.5)
    assert await table_socket.receive_nothing(timeout=0.1)
    await phone_socket.disconnect()


async def test_a_new_password_closes_every_session_of_that_member_and_no_one_elses(make_member) -> None:
    table, alice, bob = await seated_pair(make_member)
    browser, cookie = await sync_to_async(logged_in)(alice)
    _, phone_cookie = await sync_to_async(logged_in)(alice)
    _, bob_cookie = await sync_to_async(logged_in)(bob)
    sockets = [await opened("/ws/lobby/", cookie), await opened(f"/ws/table/{table.code}/", phone_cookie)]
    bobs = [await opened("/ws/lobby/", bob_cookie), await opened(f"/ws/table/{table.code}/", bob_cookie)]

    data = {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = await sync_to_async(browser.post)(reverse("account_change_password"), data)
    assert response.status_code == 302

    assert [await close_code(sock) for sock in sockets] == [4401, 4401]
    assert [await close_code(sock, timeout=0.5) for sock in bobs] == [None, None]
    for sock in bobs:
        await sock.disconnect()


async def test_a_password_set_anywhere_else_closes_them_too(make_member) -> None:
    """The admin's form, `manage.py changepassword` and a reset all end in `set_password` and `save`."""
    table, alice, _ = await seated_pair(make_member)
    _, cookie = await sync_to_async(logged_in)(alice)
    sock = await opened(f"/ws/table/{table.code}/", cookie)

    @sync_to_async
    def new_password() -> None:
        alice.set_password(NEW_PASSWORD)
        alice.save()

    await new_password()
    assert await close_code(sock) == 4401


async def test_deactivating_the_account_closes_every_socket_of_that_member(make_member) -> None:
    table, alice, bob = await seated_pair(make_member)
    _, cookie = await sync_to_async(logged_in)(alice)
    _, bob_cookie = await sync_to_async(logged_in)(bob)
    sockets = [await opened("/ws/lobby/", cookie), await opened(f"/ws/table/{table.code}/", cookie)]
    bobs_socket = await opened(f"/ws/table/{table.code}/", bob_cookie)

    @sync_to_async
    def deactivate() -> None:
        alice.is_active = False
        alice.save()

    await deactivate()
    assert [await close_code(sock) for sock in sockets] == [4401, 4401]
    assert await close_code(bobs_socket, timeout=0.5) is None
    await bobs_socket.disconnect()


async def test_an_unrelated_save_of_the_member_closes_nothing(make_member) -> None:
    table, alice, _ = await seated_pair(make_member)
    _, cookie = await sync_to_async(logged_in)(alice)
    sock = await opened(f"/ws/table/{table.code}/", cookie)

    @sync_to_async
    def rename() -> None:
        alice.display_name = "Alice B."
        alice.save()

    await rename()
    assert await close_code(sock, timeout=0.5) is None
    await sock.disconnect()


async def test_a_session_group_does_not_carry_the_session_key() -> None:
    key = "abcdefghijklmnopqrstuvwxyz012345"
    group = push.session_group(key)
    assert key not in group and group == push.session_group(key) != push.session_group(key[::-1])
