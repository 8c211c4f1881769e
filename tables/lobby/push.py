"""The lobby's message, on play's primitives (tables.play.push): the count of members online changed."""

from __future__ import annotations

from tables.play import push


def online_count_changed(*, count: int, origin: str) -> None:
    """`origin` is the socket whose arrival or departure changed the count; it knows already."""
    push.send_on_commit(push.LOBBY_GROUP, {"type": "lobby.online", "count": count, "origin": origin})
