"""The one module that talks to the channel layer, and only after the transaction commits.

Messages name what changed (and a version), never the cards: every consumer renders what its
own member may see when the event reaches it, so hidden information never rides a group message.
Play's own messages are here, with the primitives (`send_on_commit`, `user_notice`, `batched`) on which
the lobby's and quick play's pushes (tables/lobby/push.py, tables/quickplay/push.py) are built.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"
P = ParamSpec("P")
R = TypeVar("R")
_outbox = threading.local()
log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def session_group(session_key: str) -> str:
    """Every socket a browser session opened. The key is a credential and group names sit in Redis
    and in logs, so the group is named by a hash of it."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def account_group(user_id: int) -> str:
    """Every socket of every session of one member (kept apart from `user_group`, whose notices only
    the lobby handles)."""
    return f"account-{user_id}"


def send_on_commit(group: str, message: dict[str, Any]) -> None:
    def send() -> None:
        pending: list[tuple[str, dict[str, Any]]] | None = getattr(_outbox, "pending", None)
        if pending is not None:
            pending.append((group, message))
        else:
            _send_all([(group, message)])

    transaction.on_commit(send, robust=True)  # a push that fails is logged; the committed change stands


def batched(service: Callable[P, R]) -> Callable[P, R]:
    """The messages a service's transaction commits go out together when it returns, in one hop to
    the event loop instead of one each (quick play forming a table sends seven). Messages of a
    transaction that rolled back were never committed, so they are not in the batch; a service called
    inside a transaction it does not end sends nothing here, and its messages leave on the outer commit."""

    @wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with _batch():
            return service(*args, **kwargs)

    return run


@contextmanager
def _batch() -> Iterator[None]:
    if getattr(_outbox, "pending", None) is not None:  # an enclosing batch sends them
        yield
        return
    _outbox.pending = []
    try:
        yield
    finally:
        pending, _outbox.pending = _outbox.pending, None
        if pending:
            try:
                _send_all(pending)
            except Exception:  # committed already: a lost push is logged, never the service's failure
                log.exception("push: %d committed messages were not sent", len(pending))


def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    ordered = _in_sending_order(messages)

    async def send() -> None:
        for group, message in ordered:
            await layer.group_send(group, message)

    async_to_sync(send)()


def _in_sending_order(messages: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The messages to tables, members and sessions in commit order (a later version never overtakes an
    earlier one), then each different lobby-wide message once, those naming members (quick play's queue
    changes) merged into one of each type.

    A socket reads its channel only after the whole batch is sent, and a channel holds `capacity`
    messages: a sweep forming 150 tables committed one "lobby changed" per table, and queued before the
    members' "your table is ready" notices those overflowed every lobby socket, which then missed its
    notice. Lobby messages only say "look again", so one of each is as good as many, and sent last they
    can never crowd out a member's own notice."""
    personal = [(group, message) for group, message in messages if group != LOBBY_GROUP]
    lobby: list[dict[str, Any]] = []
    merged: dict[Any, dict[str, Any]] = {}  # by type: the one message that names every member of its kind
    for group, message in messages:
        if group != LOBBY_GROUP:
            continue
        if "members" in message:
            into = merged.get(message.get("type"))
            if into is None:
                into = merged[message.get("type")] = {**message, "members": []}
                lobby.append(into)
            into["members"] += [m for m in message.get("members", ()) if m not in into["members"]]
        elif message not in lobby:
            lobby.append(message)
    return [*personal, *((LOBBY_GROUP, message) for message in lobby)]


def table_changed(table: Any) -> None:
    """Everyone watching the table re-renders it for themselves; the message names no cards."""
    send_on_commit(table_group(table.pk), {"type": "table.changed", "version": table.version})


def lobby_changed() -> None:
    send_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def user_notice(*, user_id: int, kind: str, **data: Any) -> None:
    """A notice for one member's lobby sockets (quick play's "your table is ready", tables/quickplay/push.py)."""
    send_on_commit(user_group(user_id), {"type": "user.notice", "kind": kind, **data})


def session_ended(*, session_key: str) -> None:
    """The session logged out: its sockets close (on every process), so they stop showing its hand."""
    send_on_commit(session_group(session_key), {"type": "session.ended"})


def account_sessions_ended(*, user_id: int) -> None:
    """The member's password changed or the account was deactivated: every session's sockets close."""
    send_on_commit(account_group(user_id), {"type": "session.ended"})
