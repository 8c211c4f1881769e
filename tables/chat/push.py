"""The chat's messages, on play's primitives (tables.play.push), sent only after commit.

A message names the line (or the round), never its text: each socket reads what its own member may see when
the event reaches it (a player is kept from a spectator's line during the round; a muted author is dropped).
They go to the table's group, or to the lobby's, as `feature.event` for chat (tables.play.sockets)."""

from __future__ import annotations

from typing import Any

from tables.models import ChatMessage
from tables.play import push

FEATURE = "chat"
batched = push.batched


def _group(table_id: int | None) -> str:
    return push.LOBBY_GROUP if table_id is None else push.table_group(table_id)


def _send(table_id: int | None, action: str, **data: Any) -> None:
    push.send_on_commit(_group(table_id), {"type": "feature.event", "feature": FEATURE, "action": action, **data})


def line_posted(message: ChatMessage) -> None:
    _send(message.table_id, "line", message=message.pk)


def line_hidden(message: ChatMessage) -> None:
    _send(message.table_id, "hidden", message=message.pk)


def round_over(*, table_id: int, round_number: int) -> None:
    """The spectators' lines of the round may now reach the players."""
    _send(table_id, "released", round=round_number)


def lobby_released(*, table_id: int) -> None:
    """A round at this table is over: the lobby's lines written during it may now reach its players (each lobby
    socket of a member seated there reads the lobby's lines again)."""
    _send(None, "lobby_released", table=table_id)
