"""Chat across two Daphne processes sharing PostgreSQL and Redis: every line sent through either process reaches
every socket of its chat, on both processes, exactly once (the table's chat and the lobby's)."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect

from tables.models import ChatMessage
from tests.servers import Daphne
from tests.sockets import session_cookie
from tests.tables.chat.helpers import running_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

LINE = re.compile(r'<li id="chat-line-(\d+)"')
PATIENCE = 20.0
LINES_EACH = 4  # under the rate limit (5 in 10 s)


def line_message(text: str) -> str:
    return json.dumps({"kind": "chat", "text": text, "HEADERS": {"HX-Request": "true"}})


async def collect(sock, counts: Counter, expected: int) -> None:
    """Counts the chat lines pushed to `sock` (not those of its first, whole message) until `expected` differ."""
    await asyncio.wait_for(sock.recv(), timeout=PATIENCE)  # the first message: the board or lobby, the latest lines
    while len(counts) < expected:
        message = await asyncio.wait_for(sock.recv(), timeout=PATIENCE)
        if "beforeend:#chat-lines-" in message:
            counts.update(LINE.findall(message))


async def quiet(sock, counts: Counter, seconds: float = 1.5) -> None:
    """A while longer, to see that no line comes twice."""
    try:
        while True:
            message = await asyncio.wait_for(sock.recv(), timeout=seconds)
            if "beforeend:#chat-lines-" in message:
                counts.update(LINE.findall(message))
    except TimeoutError:
        return


async def run_chat(servers: list[Daphne], path: str, writers: list, readers: list) -> tuple[list[Counter], set[str]]:
    """Each writer sends LINES_EACH lines through its own process's socket; every socket (writers' and readers',
    spread over both processes) counts the lines it gets."""
    members = writers + readers
    cookies = [await sync_to_async(session_cookie)(member) for member in members]
    socks = []
    for i, cookie in enumerate(cookies):
        server = servers[i % 2]
        socks.append(await connect(f"{server.ws_url}{path}", origin=server.url,
                                   additional_headers={"Cookie": f"sessionid={cookie}"}))
    expected = LINES_EACH * len(writers)
    counts = [Counter() for _ in socks]
    try:
        listening = [asyncio.create_task(collect(sock, count, expected))
                     for sock, count in zip(socks, counts, strict=True)]
        await asyncio.sleep(0.5)  # every socket has sent its first message
        for n in range(LINES_EACH):
            for i, _writer in enumerate(writers):
                await socks[i].send(line_message(f"line {n} from writer {i}"))
        await asyncio.gather(*listening)
        await asyncio.gather(*(quiet(sock, count) for sock, count in zip(socks, counts, strict=True)))
    finally:
        for sock in socks:
            await sock.close()
    stored = {str(pk) for pk in await sync_to_async(list)(ChatMessage.objects.values_list("pk", flat=True))}
    return counts, stored


async def test_table_lines_sent_through_two_processes_reach_every_socket_once(make_member, two_daphnes) -> None:
    alice, bob, carol, dave = [await sync_to_async(make_member)(name) for name in ("alice", "bob", "carol", "dave")]
    table = await sync_to_async(running_table)(alice, bob)
    # alice writes through the first process, bob through the second; carol and dave watch, one on each.
    counts, stored = await run_chat(two_daphnes, f"/ws/table/{table.code}/", [alice, bob], [carol, dave])
    assert len(stored) == 2 * LINES_EACH
    for count in counts:
        assert set(count) == stored
        assert set(count.values()) == {1}, count


async def test_lobby_lines_sent_through_two_processes_reach_every_socket_once(make_member, two_daphnes) -> None:
    members = [await sync_to_async(make_member)(name) for name in ("alice", "bob", "carol", "dave")]
    counts, stored = await run_chat(two_daphnes, "/ws/lobby/", members[:2], members[2:])
    assert len(stored) == 2 * LINES_EACH
    for count in counts:
        assert set(count) == stored
        assert set(count.values()) == {1}, count
