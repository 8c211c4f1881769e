"""Quick play's messages, on play's primitives (tables.play.push): after commit, naming no cards."""

from __future__ import annotations

from tables.play import push


def queue_changed(*, members: list[int] | None = None) -> None:
    """Quick play's queue changed (a request came, went or was seated): lobbies re-count it, and the
    sockets of `members` (who asked or cancelled, perhaps in another tab) re-render their own panel.
    The ids stay on the server: consumers send only the counts and their own member's panel."""
    push.send_on_commit(push.LOBBY_GROUP, {"type": "queue.changed", "members": list(members or [])})


def table_ready(*, user_id: int, table_code: str, game: str, name: str = "") -> None:
    """Tell one member that quick play seated them (their lobby page moves them to the table). The
    message carries all the notice shows, so a socket renders it without waiting for the database."""
    push.user_notice(user_id=user_id, kind="table_ready", table=table_code, game=game, name=name)


def queue_ended(*, user_id: int, kind: str, game: str) -> None:
    """Tell one member their quick-play request ended without a table (`kind`: expired, dropped)."""
    push.user_notice(user_id=user_id, kind=f"queue_{kind}", game=game)
