"""Quick play on PostgreSQL and Redis: threads, and members spread over two Daphne processes.

- The service-level storm of the default tier again, on PostgreSQL (real row and advisory locks).
- Members whose lobby sockets sit on one Daphne process ask and cancel over HTTP on the other, all
  at once: nobody is seated twice, nobody who cancelled is seated, every table is full and of one
  kind, no request is lost, and every member seated hears "your table is ready" across processes.
"""

from __future__ import annotations

import asyncio
import http.client
import random
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.conf import settings

from tables.models import QueueRequest, Table
from tests.servers import Daphne, free_port
from tests.services.conftest import database_url
from tests.sockets import session_cookie
from tests.tables.quickplay.support import Outcomes, check_invariants, random_request
from tests.tables.quickplay.test_quickplay_race import (  # noqa: F401  (the same tests, on PostgreSQL and Redis)
    storm,
    test_a_cancel_racing_the_request_that_completes_the_table_is_one_or_the_other,
)
from tests.tables.quickplay.test_quickplay_socket import (  # noqa: F401
    test_an_expired_request_is_removed_and_the_member_told,
    test_the_lobby_counts_who_waits_for_each_game_live,
    test_your_table_is_ready_reaches_only_the_members_seated,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]



def patient_redis_url() -> str:
    """redis-py 8 reads with a 5 s socket timeout, the same as channels-redis's 5 s BZPOPMIN, so a
    socket that hears nothing for 5 s dies with 1011 (htmx reconnects). These tests keep sockets
    quiet for longer than that while members line up, so their servers read with a longer timeout."""
    url = settings.REDIS_URL
    return url + ("&" if "?" in url else "?") + "socket_timeout=60"


@pytest.fixture
def two_daphnes(tmp_path: Path):
    env = {"DATABASE_URL": database_url(), "REDIS_URL": patient_redis_url(), "DEBUG": "true"}
    servers = [Daphne(port=free_port(), env=env, log_path=tmp_path / f"daphne-{i}.log") for i in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_threads_joining_and_cancelling_on_postgresql(make_member) -> None:
    members = [make_member(f"pg{i}") for i in range(60)]
    outcomes = storm(members, random.Random(23))
    summary = check_invariants(outcomes)
    assert summary["tables"] >= 5 and summary.get("cancelled", 0) >= 1


class Member:
    """One member with a session on both processes: HTTP on one, the lobby socket on the other."""

    def __init__(self, user, cookie: str) -> None:
        self.user = user
        self.cookie = cookie
        self.csrf = ""

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        cookies = f"sessionid={self.cookie}" + (f"; csrftoken={self.csrf}" if self.csrf else "")
        return {"Cookie": cookies, **(extra or {})}

    def request(self, server: Daphne, method: str, path: str, data: dict | None = None) -> tuple[int, dict, str]:
        """One HTTP request as this member; the headers come back with lower-case names."""
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        body = urlencode(data or {}) if method == "POST" else None
        headers = self.headers({"HX-Request": "true", "X-CSRFToken": self.csrf, "Referer": server.url + "/lobby/"})
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        found = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie") or "")
        if found:
            self.csrf = found.group(1)
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text


async def notices(sock, until: float, enough: int | None = None) -> list[str]:
    """Every "table is ready" code this socket hears before `until` (loop time), or the first `enough`."""
    codes: list[str] = []
    loop = asyncio.get_running_loop()
    while (left := until - loop.time()) > 0 and (enough is None or len(codes) < enough):
        try:
            message = await asyncio.wait_for(sock.recv(), timeout=left)
        except (TimeoutError, websockets.ConnectionClosed):
            break
        if 'data-notice="table_ready"' in message:
            codes += re.findall(r'hx-get="/quick/go/([^/]+)/"', message)
    return codes


@pytest.mark.asyncio
async def test_members_on_two_processes_join_and_cancel_at_once(make_member, two_daphnes) -> None:
    rng = random.Random(5)
    users = [await sync_to_async(make_member)(f"d{i}") for i in range(32)]
    members = [Member(user, await sync_to_async(session_cookie)(user)) for user in users]
    plans = [(member, random_request(rng), i % 4 == 0) for i, member in enumerate(members)]
    sockets = []
    for i, member in enumerate(members):
        home, other = two_daphnes[i % 2], two_daphnes[1 - i % 2]
        await asyncio.to_thread(member.request, other, "GET", "/lobby/")  # a CSRF cookie
        assert member.csrf
        sock = await websockets.connect(f"{home.ws_url}/ws/lobby/", origin=home.url,
                                        additional_headers=member.headers(), close_timeout=2)
        await asyncio.wait_for(sock.recv(), timeout=10)  # the online count and the panel
        sockets.append(sock)
    outcomes = Outcomes()

    def act(index: int) -> None:
        member, request, then_cancel = plans[index]
        other = two_daphnes[1 - index % 2]  # ask on the process the member's socket is not on
        form = {"game": request["game"], "players": request["players"] or "any", "band": request["band"]}
        if request["game"] == "hawsker":
            form["players"] = "2"  # the form offers no "any" where the game has one count
        status, _, body = member.request(other, "POST", "/quick/join/", form)
        assert status in (200, 204), (status, body)
        if then_cancel:
            status, _, body = member.request(other, "POST", "/quick/cancel/")
            if status == 200:
                outcomes.cancelled.add(member.user.pk)
            else:
                assert status == 403 and "Too late" in body, (status, body)
                outcomes.too_late.add(member.user.pk)

    await asyncio.gather(*(asyncio.to_thread(act, i) for i in range(len(plans))))
    requests = await sync_to_async(lambda: list(QueueRequest.objects.all()))()
    seated = {r.user_id for r in requests if r.state == QueueRequest.State.MATCHED}
    # Each process renders every lobby socket's updates in its one database thread, so under this
    # burst a notice may queue behind table lists for a while: wait for each seated member's notice
    # (and a little while on the others' sockets, which must stay silent).
    loop = asyncio.get_running_loop()
    heard = await asyncio.gather(*(
        notices(sock, loop.time() + (60 if member.user.pk in seated else 3), 1 if member.user.pk in seated else None)
        for member, sock in zip(members, sockets, strict=True)
    ))
    await asyncio.gather(*(sock.close() for sock in sockets))

    outcomes.requested = {r.pk for r in requests}
    assert sorted(r.user_id for r in requests) == sorted(m.user.pk for m in members)  # one each, none lost
    summary = await sync_to_async(check_invariants)(outcomes)
    assert summary["tables"] >= 3
    codes = await sync_to_async(lambda: dict(Table.objects.values_list("pk", "code")))()
    for member, codes_heard in zip(members, heard, strict=True):
        mine = next(r for r in requests if r.user_id == member.user.pk)
        if mine.state == QueueRequest.State.MATCHED:
            assert codes_heard == [codes[mine.table_id]], f"{member.user} was seated but heard {codes_heard}"
        else:
            assert codes_heard == []


@pytest.mark.asyncio
async def test_a_notice_reaches_a_member_connected_to_the_other_process(make_member, two_daphnes) -> None:
    first, second = two_daphnes
    alice = Member(await sync_to_async(make_member)("alice"), "")
    bob = Member(await sync_to_async(make_member)("bob"), "")
    for member in (alice, bob):
        member.cookie = await sync_to_async(session_cookie)(member.user)
        await asyncio.to_thread(member.request, second, "GET", "/lobby/")
    status, _, body = await asyncio.to_thread(alice.request, second, "POST", "/quick/join/",
                                              {"game": "hawsker", "players": "2", "band": "standard"})
    assert status == 200 and 'data-state="waiting"' in body
    async with websockets.connect(f"{first.ws_url}/ws/lobby/", origin=first.url,
                                  additional_headers=alice.headers()) as sock:
        hello = await asyncio.wait_for(sock.recv(), timeout=10)
        assert 'data-place="1" data-of="1"' in hello
        status, headers, _ = await asyncio.to_thread(bob.request, second, "POST", "/quick/join/",
                                                     {"game": "hawsker", "players": "2", "band": ""})
        assert status == 204
        code = headers["hx-redirect"].strip("/").split("/")[-1]
        loop = asyncio.get_running_loop()
        assert await notices(sock, loop.time() + 10, enough=1) == [code]
