"""What every club socket shares (the lobby's and the table's): the consumer base class, the close codes
the browser knows (static/js/sockets.js), the refusal of unknown paths, and the tasks a process runs beside
its sockets (quick play's sweeper, which play may not import, registers one in `TablesConfig.ready`).

Features that play may not import (chat) use the same sockets through three registries, filled in
`TablesConfig.ready`: what they send when a socket connects (`on_connect`), the messages from the browser they
answer (`on_message`, by the message's "kind" field: htmx's ws-send sends a form's fields as JSON), and their
own group events (`on_event`: `{"type": "feature.event", "feature": name, ...}`, sent by their push modules).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from functools import partial
from itertools import accumulate
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from accounts.languages import language_for
from config.asgi_handler import kept_threads
from tables.play import push, socket_quota
from tables.play.socket_rate import TokenBucket

log = logging.getLogger(__name__)

# Close codes. Daphne (autobahn's `sendClose`) sends only 1000 and 3000-4999 and raises for any other, so
# htmx's own retry codes (1006/1011/1012/1013) cannot be sent on purpose: CLOSE_TRY_AGAIN, "come back", is
# ours, and static/js/sockets.js reconnects after it. The 44xx codes mean stop: the browser does not retry.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TRY_AGAIN = 4012
CLOSE_NOT_FOUND = 4404
CLOSE_PRIVATE = 4403  # a private table the member is not invited to (tables/play/privacy.py)
CLOSE_TOO_MANY = 4429  # the member holds SOCKETS_PER_MEMBER sockets in this process already
CLOSE_TOO_FAST = 4420  # the socket sent more than its rate allows (tables/play/socket_rate.py)

# The longest message a club socket reads from a browser (a chat line with htmx's headers is well under 4 KiB);
# anything longer is refused unread. Daphne caps frames at 1 MiB itself.
MAX_MESSAGE_CHARS = 16_000
# How deep a message's arrays and objects may nest. A page's messages are 2 deep (the form's fields, htmx's
# HEADERS); json.loads recurses once per level, and `[` 5,000 times raised RecursionError out of the consumer.
MAX_NESTING = 10
# What `too_deep` reads: a JSON string whole (an unterminated one to the end, so no match is ever tried twice and
# the scan stays linear in the message), or a bracket. Brackets inside strings (a chat line's "[[[") do not nest.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|([\[\]{}])')
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1, "": 0}

T = TypeVar("T")
_process_tasks: list[Callable[[], None]] = []

SocketHook = Callable[["ClubConsumer"], Awaitable[str]]
MessageHandler = Callable[["ClubConsumer", dict[str, Any]], Awaitable[None]]
EventHandler = Callable[["ClubConsumer", dict[str, Any]], Awaitable[None]]
_connect_hooks: list[SocketHook] = []
_message_handlers: dict[str, MessageHandler] = {}
_event_handlers: dict[str, EventHandler] = {}


class Refused(Exception):
    """A browser's message no feature can read (not JSON, not an object, binary, too long, too deep): answered,
    never acted on."""


def on_connect(hook: SocketHook) -> None:
    """`hook(consumer)` gives a feature's first state (chat: its latest lines), sent with the socket's own in its
    first message on every connect and reconnect, so a socket that missed messages is whole again."""
    if hook not in _connect_hooks:
        _connect_hooks.append(hook)


def on_message(kind: str, handler: MessageHandler) -> None:
    """`handler(consumer, data)` answers the browser's JSON messages whose "kind" field is `kind`."""
    _message_handlers[kind] = handler


def on_event(feature: str, handler: EventHandler) -> None:
    """`handler(consumer, event)` handles the group events `{"type": "feature.event", "feature": feature, ...}`."""
    _event_handlers[feature] = handler


def too_deep(text: str) -> bool:
    """Whether the JSON in `text` nests deeper than MAX_NESTING, read without recursion (and, for the messages a
    page sends, without a scan: they hold fewer brackets than that in all)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return False
    steps = (_DEPTH_STEP[bracket] for bracket in _STRING_OR_BRACKET.findall(text))
    return max(accumulate(steps), default=0) > MAX_NESTING


def parse_message(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """A browser's message as the JSON object it must be; `Refused` says why it is not one. What no page sends is
    refused by the cheapest test that tells (its type, length, first character, nesting) before it is decoded."""
    if text_data is None or bytes_data:
        raise Refused(gettext("This socket reads text messages only."))
    if len(text_data) > MAX_MESSAGE_CHARS:
        raise Refused(gettext("That message is too long for this socket."))
    if not text_data.lstrip().startswith("{"):
        raise Refused(gettext("That message is not one this page sends."))
    if too_deep(text_data):
        raise Refused(gettext("That message is nested too deeply for this socket."))
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: a backstop; too_deep refuses what could raise it
        raise Refused(gettext("That message is not one this page sends.")) from None
    if not isinstance(data, dict):
        raise Refused(gettext("That message is not one this page sends."))
    return data


def start_with_sockets(start: Callable[[], None]) -> None:
    """Have every socket call `start` when it connects: a process-wide task (quick play's sweeper) that
    `start` begins once and leaves running. Called at startup (`TablesConfig.ready`), so features that play
    may not import run their tasks beside play's sockets."""
    if start not in _process_tasks:
        _process_tasks.append(start)


def start_process_tasks() -> None:
    """Called by every club socket once it is accepted (from the event loop the tasks are to run on)."""
    for start in _process_tasks:
        start()


async def apart(func: Callable[..., T], /, **kwargs: Any) -> T:
    """A socket's background write (heartbeat, timer) on a kept thread of its own for the call: waiting
    for the database, it holds up none of the socket's renders."""
    async with kept_threads.own_thread():
        return await database_sync_to_async(func)(**kwargs)


class ClubConsumer(AsyncWebsocketConsumer):
    """What every club socket shares: a place among its member's sockets (`admit`), the groups through
    which a log-out, a new password or a deactivation closes it, and events straight to their handler.

    Channels closes stale database connections before every handler, which is a trip to a worker thread
    and back for every event at every socket (a move's push to a table's sockets made one each). Every
    database call of these consumers goes through `database_sync_to_async`, which closes them itself, in
    the thread that uses them, so that trip is skipped.

    Each socket's database work runs on a thread of its own, taken for the socket's life from the threads
    the process keeps (config/asgi_handler.py) and given back when it ends, its connection closed. Left to
    asgiref, every socket of the process would share one thread, and one call waiting for the database
    (SQLite's write lock, up to its busy timeout) would hold up every socket's board.

    Everything a socket sends is in its member's language (accounts.languages.language_for: their saved one, else
    the handshake's cookie or Accept-Language): every handler runs inside `translation.override` of it, and so do
    the renders it hands to threads (asgiref copies the context there) and the tasks it starts (they copy it too),
    so two members at one table each read their own. The process's own tasks start in empty contexts.
    """

    task_fields: tuple[str, ...] = ()  # the socket's own tasks, stopped before its thread is given back
    place: str = ""  # "table" or "lobby": what the socket shows, for the features that serve both
    table_id: int | None = None  # a table socket's table, once connected
    session_groups: tuple[str, ...] = ()
    closing: bool = False
    admitted: bool = False  # holds a place among its member's sockets (see `admit`)
    language: str = ""  # what it renders in, chosen when its first message (the connect) arrives
    bucket: TokenBucket | None = None  # the socket's message rate (`within_rate`)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if not self.language:  # the member was read at the handshake (AuthMiddleware): no database here
            self.language = language_for(self.scope.get("user"), self.scope)
        with translation.override(self.language):
            await handler(message)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The place `admit` took and the socket's thread are given back, and its tasks stopped, however the
        socket ends: closed, failed in a handler, or cancelled by Daphne when a handler overran its close
        timeout (no disconnect runs then)."""
        gate = _RateGate(self, receive)
        try:
            async with kept_threads.own_thread():
                try:
                    await super().__call__(scope, gate.receive, send)
                finally:
                    await gate.stop()
                    await self.stop_tasks()
                    try:
                        await self.leave()
                    except Exception:
                        log.exception("socket %s: could not leave after it ended", self.channel_name)
        finally:
            self._release_place()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A browser's message goes to what claims its "kind" (`handler_for`); anything else (and anything that is no
        JSON object) gets the socket's own answer (`unclaimed`), and changes nothing. Each was charged to the socket's
        rate as it arrived (`_RateGate`); once the socket is closing, what is still queued is dropped unread."""
        if self.closing:
            return
        try:
            data = parse_message(text_data, bytes_data)
        except Refused as refused:
            await self.unclaimed(str(refused))
            return
        kind = data.get("kind")
        handler = self.handler_for(kind) if isinstance(kind, str) else None
        if handler is None:
            await self.unclaimed(None)
            return
        try:
            await handler(data)
        except Exception:
            log.exception("socket %s: the %r handler failed", self.channel_name, kind)
            await self.unclaimed(gettext("That message could not be handled; try again."))

    def within_rate(self) -> bool:
        """One message's token from the socket's bucket (made at its first message; SOCKET_MESSAGE_BURST 0: no
        limit)."""
        if self.bucket is None:
            if settings.SOCKET_MESSAGE_BURST <= 0:
                return True
            self.bucket = TokenBucket(burst=settings.SOCKET_MESSAGE_BURST, rate=settings.SOCKET_MESSAGES_PER_SECOND)
        return self.bucket.take()

    def handler_for(self, kind: str) -> Callable[[dict[str, Any]], Awaitable[None]] | None:
        """What answers a browser's message of this "kind": the feature that claims it (a consumer answers its
        own kinds ahead of the features: the table socket's moves)."""
        handler = _message_handlers.get(kind)
        return None if handler is None else partial(handler, self)

    async def unclaimed(self, reason: str | None) -> None:
        """The answer to a message no feature took (`reason`: why it could not be read, if it could not)."""

    async def feature_event(self, event: dict[str, Any]) -> None:
        """A feature's group event, to its handler. A failed one closes with "come back" (as a failed board does):
        the fresh socket gets every feature's state again from the `on_connect` hooks."""
        handler = _event_handlers.get(str(event.get("feature", "")))
        if handler is None:
            log.warning("socket %s: no handler for feature event %r", self.channel_name, event.get("feature"))
            return
        try:
            await handler(self, event)
        except Exception:
            log.exception("socket %s: feature event %r failed", self.channel_name, event.get("feature"))
            await self.close(code=CLOSE_TRY_AGAIN)

    async def features_on_connect(self) -> str:
        """Each feature's first state, to go out with the socket's own. One that fails is left out and logged:
        the socket's own state still goes, and the feature's next event or the next reconnect brings it."""
        parts = []
        for hook in _connect_hooks:
            try:
                parts.append(await hook(self))
            except Exception:
                log.exception("socket %s: a connect hook failed", self.channel_name)
        return "".join(parts)

    async def leave(self) -> None:
        """Undo what the socket recorded and joined (its member's presence, its groups); called by `disconnect`
        and again however the socket ended, so it must do its work once. A browser that closes while `connect`
        still runs makes connect's next send raise, and then no disconnect comes (seen: lobby presence rows left
        behind, counting a member online who had gone)."""
        await self.leave_session_groups()

    async def stop_tasks(self) -> None:
        tasks = [task for field in self.task_fields if (task := getattr(self, field)) is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def admit(self, user: Any) -> bool:
        """Take a place among the member's sockets and join the groups that can end this one. Over the cap
        the socket is accepted and closed with 4429: refused at the handshake it would reach the browser as
        1006, which htmx retries."""
        if not socket_quota.take(user_id=user.pk, channel_name=self.channel_name, limit=settings.SOCKETS_PER_MEMBER):
            await self.refuse(CLOSE_TOO_MANY)
            return False
        self.admitted = True
        await self.join_session_groups(user)
        return True

    async def refuse(self, code: int) -> None:
        """Accept, then close with `code`: a socket refused at the handshake reaches the browser as 1006, which
        htmx retries for ever, and the page could not say why (signed out, no such table, too many tabs)."""
        await self.accept()
        await self.close(code=code)

    def _release_place(self) -> None:
        if self.admitted:
            self.admitted = False
            socket_quota.release(user_id=self.scope["user"].pk, channel_name=self.channel_name)

    async def join_session_groups(self, user: Any) -> None:
        """The member is read once, at connect: these groups are how a log-out of this session, or a new
        password or deactivation of the member, reaches the socket afterwards (from any process)."""
        groups = [push.account_group(user.pk)]
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if session_key:
            groups.append(push.session_group(session_key))
        self.session_groups = tuple(groups)
        for group in self.session_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave_session_groups(self) -> None:
        for group in self.session_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.session_groups = ()

    async def session_ended(self, event: dict[str, Any]) -> None:
        """Logged out, new password or account deactivated: stop at once, and for good (4401)."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """Events keep coming until the disconnect arrives; once closed, nothing more goes out (Daphne
        raises on a send to a closing socket, and a closed session's socket must not get another board)."""
        if not self.closing:
            await super().send(text_data, bytes_data, close)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        if not self.closing:
            await super().close(code, reason)
            self.closing = True  # only once it went out: Daphne refuses some codes (it raises), the socket stays


class _RateGate:
    """Where a club socket's frames are charged to its rate: as they arrive, before anything reads them.

    Channels hands a consumer its next frame only once the handler before it is done, and a table socket's `connect`
    takes a few trips to the database. A client that floods from the moment the handshake completes had Daphne
    queue tens of thousands of frames in that time (each Daphne read of 64 KiB is thousands of one-byte frames),
    every one to be read, answered or dropped after it: the socket was closed seconds late, if ever. So the frames
    are taken from Daphne's queue as they come, by a task of the socket's own beside its handlers: each is charged
    to the bucket, a frame over the rate closes the socket (CLOSE_TOO_FAST), and frames of a closing socket are
    dropped. Only what the bucket allowed waits for the handlers, so what a socket can have queued is bounded too.
    Everything else (connect, disconnect) passes through as it came."""

    def __init__(self, consumer: ClubConsumer, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self.consumer, self.upstream = consumer, receive
        self.passed: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.pump: asyncio.Task[None] | None = None
        self.over = False  # the socket went over its rate: nothing it sends is read any more

    async def receive(self) -> dict[str, Any]:
        """The consumer's `receive`: the next message that passed the gate."""
        if self.pump is None:  # started by the consumer's first read, once it can send (to close)
            self.pump = asyncio.create_task(self._pump())
        return await self.passed.get()

    async def _pump(self) -> None:
        try:
            while True:
                message = await self.upstream()
                if message.get("type") == "websocket.receive" and not await self._admits():
                    continue
                self.passed.put_nowait(message)
                if message.get("type") == "websocket.disconnect":
                    return
        except Exception:  # the consumer must not wait for ever on a gate that is gone: it ends as if disconnected
            log.exception("socket %s: its frames could not be read", self.consumer.channel_name)
            self.passed.put_nowait({"type": "websocket.disconnect", "code": 1011})

    async def _admits(self) -> bool:
        """Whether a frame goes on to the handlers: not once the socket is closing or over its rate (the first frame
        over it closes the socket)."""
        consumer = self.consumer
        if self.over or consumer.closing:
            return False
        if consumer.within_rate():
            return True
        self.over = True
        log.warning("socket %s of member %s: over its message rate, closed", consumer.channel_name,
                    getattr(consumer.scope.get("user"), "pk", None))
        try:
            await consumer.close(code=CLOSE_TOO_FAST)
        except Exception:  # the connection is gone already: its disconnect is on its way
            log.exception("socket %s: could not close it", consumer.channel_name)
        return False

    async def stop(self) -> None:
        if self.pump is not None:
            self.pump.cancel()
            await asyncio.gather(self.pump, return_exceptions=True)


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Every socket path the site does not serve: refused with 4404, where the router would have raised
    (a traceback in the log for each stray or probing client)."""

    async def connect(self) -> None:
        await self.accept()  # then close: the browser sees 4404 (refused at the handshake it would retry)
        await self.close(code=CLOSE_NOT_FOUND)
