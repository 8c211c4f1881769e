"""The two ways a member's page makes a move or says "ready": an htmx POST (the page's way while its socket is
closed) and a message over the table's open socket (htmx's ws-send). Reliability tests take `way` (a fixture in
test_moves_both_ways.py) and run against both: each must refuse the same things in the same words."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from django.urls import reverse

from accounts.models import User
from tables.models import Table
from tests.sockets import communicator, session_cookie, version_of
from tests.tables.helpers import client_for

ERROR_BOX = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)


@dataclass(frozen=True)
class Answer:
    """What the member's page is given: a new board (`version`), or a refusal's words for #table-error."""

    version: int | None = None
    refusal: str | None = None


class Way(Protocol):
    async def __call__(self, user: User, table: Table, fields: dict[str, Any], *, kind: str = "move") -> Answer: ...


def refusal_in(text: str) -> str | None:
    found = ERROR_BOX.search(text)
    return html.unescape(found.group(1)) if found else None


async def by_post(user: User, table: Table, fields: dict[str, Any], *, kind: str = "move") -> Answer:
    """As htmx posts the button's hx-vals; a refusal is retargeted to #table-error (static/js/refusals.js)."""
    client = await sync_to_async(client_for)(user)
    response = await sync_to_async(client.post)(reverse(kind, args=[table.code]), fields, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    if response.status_code == 200:
        return Answer(version=version_of(text))
    assert response["HX-Retarget"] == "#table-error", (response.status_code, text[:300])
    return Answer(refusal=refusal_in(text))


async def by_socket(user: User, table: Table, fields: dict[str, Any], *, kind: str = "move") -> Answer:
    """As htmx's ws-send sends the same button over the page's open socket: its hx-vals (the kind and the table
    with the fields) and htmx's HEADERS. An accepted move has no answer of its own: the mover's new board is the
    push every socket of the table gets."""
    comm = communicator(f"/ws/table/{table.code}/", cookie=await sync_to_async(session_cookie)(user))
    connected, _ = await comm.connect()
    assert connected
    shown = version_of(await comm.receive_from(timeout=5))
    try:
        await comm.send_json_to({"kind": kind, "table": table.code, **fields,
                                 "HEADERS": {"HX-Request": "true", "HX-Trigger": None}})
        text = await comm.receive_from(timeout=10)
    finally:
        await comm.disconnect()
    refusal = refusal_in(text)
    if refusal is not None:
        return Answer(refusal=refusal)
    version = version_of(text)
    assert version > shown, "the socket's answer to a move is a newer board or a refusal"
    return Answer(version=version)


WAYS: dict[str, Way] = {"post": by_post, "socket": by_socket}
