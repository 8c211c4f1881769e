"""Opening sockets as a given member, through the real ASGI stack (origin check, session auth)."""

from __future__ import annotations

import re
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from bench.board_on_page import BoardOnPage  # noqa: F401  (tests read the table socket's boards as a page does)
from config.asgi import application


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def communicator(path: str, *, user: User | None = None, origin: str = "http://127.0.0.1:8000",
                 cookie: str | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")]
    if cookie is None and user is not None:
        cookie = session_cookie(user)
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def refusal_code(comm: WebsocketCommunicator) -> int:
    """The code a refused socket is closed with. Refusals are accepted, then closed, so the browser learns the
    code: refused at the handshake it would see 1006, which htmx retries for ever."""
    connected, code = await comm.connect()
    assert connected, f"refused at the handshake ({code}): the browser would see 1006 and retry"
    message = await comm.receive_output(timeout=3)
    assert message["type"] == "websocket.close", message
    return message["code"]


def version_of(html: str) -> int:
    """The version of the board a socket message or page carries."""
    found = re.search(r'id="board"[^>]*data-version="(\d+)"', html)
    assert found, html[:300]
    return int(found.group(1))


@sync_to_async
def hawsker_table(make_member: Any) -> tuple[Any, User, User, str, str]:
    """A running two-member Hawsker table (alice and bob) and each member's session cookie."""
    from tests.tables.helpers import full_table

    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    return table, alice, bob, session_cookie(alice), session_cookie(bob)


@sync_to_async
def move_for_whoever_acts(table: Any, members: list[User]) -> int:
    """The member whose turn it is plays their first legal move; the table's new version."""
    from tables.play.services import play
    from tests.tables.helpers import legal_for, seat_to_act

    table.refresh_from_db()
    seat = seat_to_act(table)
    play.play_move(table_id=table.pk, user=members[seat], move_text=legal_for(table, seat)[0],
                   expected_version=table.version)
    table.refresh_from_db()
    return table.version

