"""The one module that talks to the channel layer, and only after the transaction commits.

Messages name what changed (and a version), never the cards: every consumer renders what its
own member may see when the event reaches it, so hidden information never rides a group message.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send_on_commit(group: str, message: dict[str, Any]) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def online_count_changed(*, count: int, origin: str) -> None:
    """`origin` is the socket whose arrival or departure changed the count; it knows already."""
    _send_on_commit(LOBBY_GROUP, {"type": "lobby.online", "count": count, "origin": origin})


def table_changed(table: Any) -> None:
    """Everyone watching the table re-renders it for themselves; the message names no cards."""
    _send_on_commit(table_group(table.pk), {"type": "table.changed", "version": table.version})


def lobby_changed() -> None:
    _send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def user_notice(*, user_id: int, kind: str, **data: Any) -> None:
    _send_on_commit(user_group(user_id), {"type": "user.notice", "kind": kind, **data})
