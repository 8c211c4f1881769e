"""A flood over one table socket, against a real Daphne on PostgreSQL and Redis: the flooding socket is closed with
CLOSE_TOO_FAST (the page does not retry it), and another member at the same table keeps their socket, their pushes
and their pages. Bounded: a few thousand frames at most; nothing here is timed."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client

from tables.models import ChatMessage
from tables.play.sockets import CLOSE_TOO_FAST
from tests.servers import Daphne
from tests.sockets import move_for_whoever_acts, session_cookie, version_of
from tests.tables.helpers import full_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FRAMES = 3000
PATIENCE = 20.0
STALL_AFTER = 40  # frames; then a stalled client's process does not run for STALL seconds
STALL = 1.5  # longer than autobahn's close-handshake second, shorter than config/daphne_stop.GRACE


def open_socket(server: Daphne, path: str, cookie: str) -> websockets.connect:
    return websockets.connect(f"{server.ws_url}{path}", origin=server.url, max_queue=None,
                              additional_headers={"Cookie": f"sessionid={cookie}"})


async def flood(sock: websockets.ClientConnection, frame: str, *, stall: bool = False) -> tuple[int, int | None]:
    """Sends up to FRAMES copies of `frame` as fast as the connection takes them, while reading what comes back;
    (frames sent, the code the server closed the socket with). A `stall`ed client stops its whole process for STALL
    seconds after STALL_AFTER frames (as a loaded machine may), reading nothing meanwhile."""
    sent = 0
    try:
        for _ in range(FRAMES):
            await sock.send(frame)
            sent += 1
            if stall and sent == STALL_AFTER:
                time.sleep(STALL)  # blocking on purpose: the client's event loop does not run
            if sent % 100 == 0:
                await asyncio.sleep(0)  # let the reader see a close
    except websockets.ConnectionClosed:
        pass
    try:
        async with asyncio.timeout(PATIENCE):
            while True:
                await sock.recv()
    except websockets.ConnectionClosed as closed:
        return sent, closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return sent, None


@pytest.mark.parametrize(("frame", "board_first", "stall"), [
    ("x", True, False), ("[" * 5000, True, False), (json.dumps({"kind": "chat", "text": "spam"}), True, False),
    ("x", False, False),  # from the handshake on, while the socket's connect still reads the database
    # A flooding client that stops running for a while after the close was sent (CI once lost the code that way: the
    # connection was dropped with a reset after autobahn's one second, before the client had read the close frame).
    ("[" * 5000, True, True),
], ids=["junk", "depth-bomb", "chat", "junk-at-once", "depth-bomb-stalled-client"])
async def test_a_flooding_socket_is_closed_and_the_other_member_plays_on(make_member, daphne, frame, board_first,
                                                                         stall) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    table = await sync_to_async(full_table)("hawsker", [alice, bob])
    alice_cookie, bob_cookie = (await sync_to_async(session_cookie)(alice), await sync_to_async(session_cookie)(bob))
    path = f"/ws/table/{table.code}/"
    async with open_socket(daphne, path, bob_cookie) as bobs, open_socket(daphne, path, alice_cookie) as flooding:
        assert 'id="board"' in await asyncio.wait_for(bobs.recv(), PATIENCE)
        if board_first:
            assert 'id="board"' in await asyncio.wait_for(flooding.recv(), PATIENCE)
        sent, code = await flood(flooding, frame, stall=stall)
        assert code == CLOSE_TOO_FAST, (sent, code)

        # Bob's socket is open and gets the next board; his page loads; a chat line of his is stored.
        new_version = await move_for_whoever_acts(table, [alice, bob])
        async with asyncio.timeout(PATIENCE):
            while True:
                message = await bobs.recv()
                # The flood's chat lines that got in under the chat's own limit reach Bob too, as chat fragments that
                # may come before the board (how many got in, and when, depends on the machine's load).
                if 'id="board"' in message and version_of(message) >= new_version:
                    break
        await bobs.send(json.dumps({"kind": "chat", "text": "still here"}))
        async with asyncio.timeout(PATIENCE):
            while "still here" not in await bobs.recv():
                pass
    browser = Client()
    await sync_to_async(browser.force_login)(bob)
    page = await sync_to_async(browser.get)(f"/t/{table.code}/")
    assert page.status_code == 200
    # At most the burst was read from the flood: the chat's own limit (5 in 10 s) then kept the rest out.
    assert await sync_to_async(ChatMessage.objects.filter(author=alice).count)() <= 5

    # A new socket of alice's is a new socket: it works.
    async with open_socket(daphne, path, alice_cookie) as again:
        assert 'id="board"' in await asyncio.wait_for(again.recv(), PATIENCE)
