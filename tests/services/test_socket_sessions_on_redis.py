"""A log-out or a new password closes a member's sockets on another Daphne process, through Redis."""

from __future__ import annotations

import asyncio

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from tests.tables.helpers import full_table
from tests.tables.play.test_socket_sessions import (  # noqa: F401  (the same tests, on PostgreSQL and Redis)
    test_a_new_password_closes_every_session_of_that_member_and_no_one_elses,
    test_deactivating_the_account_closes_every_socket_of_that_member,
    test_logging_out_closes_the_table_and_lobby_sockets_of_that_session_only,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]





async def close_code(sock: websockets.ClientConnection, timeout: float = 5.0) -> int | None:
    """The code the server closed the socket with (fragments before it are read and dropped)."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await sock.recv()
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return None


async def test_logging_out_here_closes_the_sessions_sockets_on_another_process(make_member, daphne) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    table = await sync_to_async(full_table)("hawsker", [alice, bob])
    browser = Client()
    await sync_to_async(browser.force_login)(alice)
    headers = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}

    async with (
        websockets.connect(f"{daphne.ws_url}/ws/lobby/", origin=daphne.url, additional_headers=headers) as lobby,
        websockets.connect(f"{daphne.ws_url}/ws/table/{table.code}/", origin=daphne.url,
                           additional_headers=headers) as board,
    ):
        await asyncio.wait_for(lobby.recv(), timeout=10)
        await asyncio.wait_for(board.recv(), timeout=10)
        response = await sync_to_async(browser.post)(reverse("account_logout"))
        assert response.status_code == 302
        assert await close_code(lobby) == 4401
        assert await close_code(board) == 4401


async def test_deactivating_here_closes_the_members_sockets_on_another_process(make_member, daphne) -> None:
    alice = await sync_to_async(make_member)("alice")
    browser = Client()
    await sync_to_async(browser.force_login)(alice)
    headers = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}
    async with websockets.connect(f"{daphne.ws_url}/ws/lobby/", origin=daphne.url, additional_headers=headers) as sock:
        await asyncio.wait_for(sock.recv(), timeout=10)

        @sync_to_async
        def deactivate() -> None:
            alice.is_active = False
            alice.save(update_fields=["is_active"])

        await deactivate()
        assert await close_code(sock) == 4401
