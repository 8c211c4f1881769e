"""The lobby socket on PostgreSQL and channels-redis, in-process and across two Daphne processes."""

from __future__ import annotations

import asyncio
import re

import pytest
import websockets
from asgiref.sync import sync_to_async

from tests.sockets import session_cookie
from tests.tables.lobby.test_lobby_socket import (  # noqa: F401  (the same tests, on this tier's services)
    test_anonymous_socket_is_refused,
    test_foreign_origin_is_refused,
    test_messages_sent_to_the_lobby_get_an_error_and_the_socket_stays,
    test_online_count_rises_and_falls_with_members,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def count_from(sock) -> int:
    message = await asyncio.wait_for(sock.recv(), timeout=10)
    match = re.search(r'data-count="(\d+)"', message)
    assert match, message
    return int(match.group(1))


async def test_a_member_on_one_process_sees_the_count_change_for_a_member_on_the_other(
    make_member, two_daphnes
) -> None:
    first_server, second_server = two_daphnes
    alice = await sync_to_async(make_member)("alice")
    bob = await sync_to_async(make_member)("bob")
    cookies = [await sync_to_async(session_cookie)(user) for user in (alice, bob)]

    def headers(cookie: str) -> dict[str, str]:
        return {"Cookie": f"sessionid={cookie}"}

    async with websockets.connect(f"{first_server.ws_url}/ws/lobby/", origin=first_server.url,
                                  additional_headers=headers(cookies[0])) as on_first:
        assert await count_from(on_first) == 1
        async with websockets.connect(f"{second_server.ws_url}/ws/lobby/", origin=second_server.url,
                                      additional_headers=headers(cookies[1])) as on_second:
            assert await count_from(on_second) == 2
            assert await count_from(on_first) == 2
        assert await count_from(on_first) == 1
