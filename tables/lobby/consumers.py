"""WebSocket consumers: thin, they check who is asking, call a service, and render fragments."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from config.asgi_handler import kept_threads
from tables import push, rendering_lobby, rendering_quickplay, snapshots, socket_quota
from tables.models import Table
from tables.rendering import board_html, snapshot_html
from tables.selectors_quickplay import QuickStatus, cached_waiting_counts, quick_status, shared_waiting_counts
from tables.services import matchmaking, play, presence

log = logging.getLogger(__name__)

# Close codes. Daphne (autobahn's `sendClose`) sends only 1000 and 3000-4999 and raises for any other, so
# htmx's own retry codes (1006/1011/1012/1013) cannot be sent on purpose: CLOSE_TRY_AGAIN, "come back", is
# ours, and static/js/sockets.js reconnects after it. The 44xx codes mean stop: the browser does not retry.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TRY_AGAIN = 4012
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429  # the member holds SOCKETS_PER_MEMBER sockets in this process already
# Quick play: a burst of queue changes becomes one refresh per socket; a timer never fires sooner
# than this after the last one (so a due time that stays in the past cannot spin).
QUICK_REFRESH_DELAY = 0.1
QUICK_TIMER_MIN_SECONDS = 1.0
LOBBY_REFRESH_DELAY = 0.1

T = TypeVar("T")
_sweeper: asyncio.Task[None] | None = None
# What a burst of changes makes every lobby socket of the process read is read by one of them, which the
# others, on threads of their own, wait for and then take (rendering_lobby's list, the shared counts).
_table_list_read = threading.Lock()
_counts_read = threading.Lock()


def start_quick_play_sweeper() -> None:
    """One task per process (started by the first socket) that sweeps quick play every few seconds,
    so requests come due on time (bots join, requests expire and their members are told) even when
    the member who made them has left the site and no other request arrives in that game."""
    global _sweeper
    seconds = settings.QUICK_PLAY_SWEEP_SECONDS
    loop = asyncio.get_running_loop()
    if not seconds or (_sweeper is not None and not _sweeper.done() and _sweeper.get_loop() is loop):
        return
    # Not in the context of the socket that starts it: the sweeper outlives that socket and its thread.
    _sweeper = loop.create_task(_sweep_forever(seconds), context=contextvars.Context())


async def _sweep_forever(seconds: float) -> None:
    """On a thread of its own: a sweep waiting for the database (SQLite's write lock, up to its busy
    timeout) holds up no socket."""
    async with kept_threads.own_thread():
        while True:
            await asyncio.sleep(seconds)
            try:
                await database_sync_to_async(matchmaking.sweep)()
            except Exception:  # a failed sweep must not end the sweeper; the next one retries
                log.exception("quick play: sweep failed")


def _table_list_html(*, fresh_after: float) -> str:
    with _table_list_read:
        return rendering_lobby.table_list_html(fresh_after=fresh_after)


async def _apart(func: Callable[..., T], /, **kwargs: Any) -> T:
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
    """

    task_fields: tuple[str, ...] = ()  # the socket's own tasks, stopped before its thread is given back
    session_groups: tuple[str, ...] = ()
    closing: bool = False
    admitted: bool = False  # holds a place among its member's sockets (see `admit`)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The place `admit` took and the socket's thread are given back, and its tasks stopped, however the
        socket ends: closed, failed in a handler, or cancelled by Daphne when a handler overran its close
        timeout (no disconnect runs then)."""
        try:
            async with kept_threads.own_thread():
                try:
                    await super().__call__(scope, receive, send)
                finally:
                    await self.stop_tasks()
        finally:
            self._release_place()

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


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Every socket path the site does not serve: refused with 4404, where the router would have raised
    (a traceback in the log for each stray or probing client)."""

    async def connect(self) -> None:
        await self.accept()  # then close: the browser sees 4404 (refused at the handshake it would retry)
        await self.close(code=CLOSE_NOT_FOUND)


class LobbyConsumer(ClubConsumer):
    """The lobby socket: live count of members online (and, later, the list of open tables)."""

    task_fields = ("heartbeat_task", "tables_refresh", "quick_timer", "quick_refresh")
    heartbeat_task: asyncio.Task[None] | None = None
    tables_refresh: asyncio.Task[None] | None = None
    tables_event_at: float = 0.0
    quick_timer: asyncio.Task[None] | None = None
    quick_refresh: asyncio.Task[None] | None = None
    quick_dirty: bool = False
    quick_mine_dirty: bool = False  # the member's own request changed: re-render their panel
    quick_waiting: bool = False  # the member's panel last showed a waiting request
    quick_event_at: float = 0.0  # time.monotonic() of the latest queue event
    quick_timer_at: datetime | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        if not await self.admit(user):
            return
        await self.channel_layer.group_add(push.LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_add(push.user_group(user.pk), self.channel_name)
        await self.accept()
        start_quick_play_sweeper()
        count = await database_sync_to_async(presence.arrive)(user_id=user.pk, channel_name=self.channel_name)
        quick_html, due = await database_sync_to_async(self._render_quick_on_connect)()
        await self._send_online(count, extra=quick_html)
        self._arm_quick_timer(due)
        self.heartbeat_task = asyncio.create_task(self._heartbeat())

    async def disconnect(self, code: int) -> None:
        await self.stop_tasks()
        if not self.admitted:  # anonymous, or refused over the cap: it joined nothing and was never counted
            return
        user = self.scope["user"]
        await self.channel_layer.group_discard(push.LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_discard(push.user_group(user.pk), self.channel_name)
        await self.leave_session_groups()
        await database_sync_to_async(presence.depart)(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby socket takes no commands; anything sent is answered with a short error."""
        error = render_to_string("tables/socket_error.html", {"message": "The lobby takes no messages."})
        await self.send(text_data=error)

    async def lobby_online(self, event: dict[str, Any]) -> None:
        if event.get("origin") != self.channel_name:
            await self._send_online(int(event["count"]))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """A table was created, filled, started or finished: send the fresh list soon (once for a burst)."""
        self.tables_event_at = time.monotonic()
        if self.tables_refresh is None or self.tables_refresh.done():
            self.tables_refresh = asyncio.create_task(self._refresh_tables())

    async def _refresh_tables(self) -> None:
        sent_for = -1.0
        while sent_for < self.tables_event_at:
            await asyncio.sleep(LOBBY_REFRESH_DELAY)
            sent_for = self.tables_event_at
            try:
                html = await database_sync_to_async(_table_list_html)(fresh_after=sent_for)
            except Exception:
                log.exception("lobby: could not render the table list")
                await self.close(code=CLOSE_TRY_AGAIN)
                return
            await self.send(text_data=html)

    async def _send_online(self, count: int, extra: str = "") -> None:
        html = render_to_string("tables/lobby.html#online-count", {"online_count": count, "oob": True})
        await self.send(text_data=html + extra)

    # Quick play: live counts for everyone, the member's own place, notices to this member only.

    async def queue_changed(self, event: dict[str, Any]) -> None:
        """Someone's request came, went or was seated: refresh the counts soon (once for a burst), and
        this member's own panel too when they were the one who asked or cancelled."""
        self._want_quick_refresh(mine=self.scope["user"].pk in event.get("members", ()))

    async def user_notice(self, event: dict[str, Any]) -> None:
        """A notice for this member (their table is ready, their request ended or changed): sent at
        once, from the event alone; their own panel follows with the next refresh."""
        try:
            html = rendering_quickplay.render_notice(str(event.get("kind", "")), event)
        except Exception:
            log.exception("lobby: could not render a notice for %s", self.channel_name)
            html = ""
        if html:
            await self.send(text_data=html)
        self._want_quick_refresh(mine=True)

    def _want_quick_refresh(self, *, mine: bool) -> None:
        self.quick_event_at = time.monotonic()
        self.quick_dirty = True
        self.quick_mine_dirty = self.quick_mine_dirty or mine
        if self.quick_refresh is None or self.quick_refresh.done():
            self.quick_refresh = asyncio.create_task(self._refresh_quick())

    async def _refresh_quick(self) -> None:
        while self.quick_dirty:
            await asyncio.sleep(QUICK_REFRESH_DELAY)
            self.quick_dirty = False
            with_mine, self.quick_mine_dirty = self.quick_waiting or self.quick_mine_dirty, False
            counts = None if with_mine else cached_waiting_counts(fresh_after=self.quick_event_at)
            try:
                if counts is not None:  # counts another socket of this process just read: no database
                    html, status = rendering_quickplay.render_counts(counts), None
                else:
                    html, status = await database_sync_to_async(self._render_quick)(with_mine)
            except Exception:
                log.exception("lobby: could not render quick play for %s", self.channel_name)
                continue
            await self.send(text_data=html)
            if status is not None:
                self.quick_waiting = status.mine is not None
                self._arm_quick_timer(status.due)

    def _render_quick(self, with_mine: bool) -> tuple[str, QuickStatus | None]:
        """The counts (read once per burst for every socket of this process) and, for a member who
        is or was waiting, their own panel. Others keep their half-filled form."""
        with _counts_read:
            counts = shared_waiting_counts(fresh_after=self.quick_event_at)
        if not with_mine:
            return rendering_quickplay.render_counts(counts), None
        user = self.scope["user"]
        status = quick_status(user, counts=counts)
        return rendering_quickplay.render_update(user, status, with_mine=True), status

    def _render_quick_on_connect(self) -> tuple[str, datetime | None]:
        """The panel as it is now; and if quick play seated the member in the moment between their
        page and this socket, the "table is ready" notice they missed."""
        user = self.scope["user"]
        status = quick_status(user)
        html = rendering_quickplay.render_update(user, status, with_mine=True)
        self.quick_waiting = status.mine is not None
        if status.ready is not None:
            ready = {"table": status.ready.code, "game": status.ready.game}
            html += rendering_quickplay.render_notice("table_ready", ready)
        return html, status.due

    def _arm_quick_timer(self, due: datetime | None) -> None:
        """One timer per socket, for when the member's own request comes due (bots join, or it expires)."""
        if due is not None and due == self.quick_timer_at and self.quick_timer is not None:
            return
        if self.quick_timer is not None:
            self.quick_timer.cancel()
            self.quick_timer = None
        self.quick_timer_at = due
        if due is not None:
            self.quick_timer = asyncio.create_task(self._quick_due(due))

    async def _quick_due(self, due: datetime) -> None:
        await asyncio.sleep(max((due - timezone.now()).total_seconds() + 0.05, 0))
        user = self.scope["user"]
        try:
            await _apart(matchmaking.sweep_member, user_id=user.pk)
        except Exception:
            log.exception("lobby: quick-play sweep for member %s failed", user.pk)
        # Whatever happened arrives as events; if nothing did, look again a little later.
        await asyncio.sleep(QUICK_TIMER_MIN_SECONDS)
        self.quick_timer = None
        self.quick_timer_at = None
        self._want_quick_refresh(mine=True)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            try:
                await _apart(presence.heartbeat, channel_name=self.channel_name)
            except Exception:  # a failed beat must not kill the socket; the next one retries
                log.exception("presence heartbeat failed")


class TableConsumer(ClubConsumer):
    """One table for one viewer. Group events say only that the table changed; this consumer renders
    what its own member may see and sends it, the whole board each time, newest version only."""

    task_fields = ("timer", "max_age")
    table_id: int | None = None
    table_code: str = ""
    sent_version: int = -1
    timer: asyncio.Task[None] | None = None
    max_age: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        table = await database_sync_to_async(Table.objects.filter(code=code).first)()
        if table is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if not await self.admit(user):
            return
        self.table_id, self.table_code = table.pk, table.code
        await self.channel_layer.group_add(push.table_group(table.pk), self.channel_name)
        await self.accept()
        start_quick_play_sweeper()
        await self._send_board()
        if settings.TABLE_SOCKET_MAX_AGE:
            self.max_age = asyncio.create_task(self._close_when_old(settings.TABLE_SOCKET_MAX_AGE))

    async def disconnect(self, code: int) -> None:
        await self.stop_tasks()
        if self.table_id is not None:
            await self.channel_layer.group_discard(push.table_group(self.table_id), self.channel_name)
        await self.leave_session_groups()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves go by POST with a version; the socket only listens. Say so, keep the socket open."""
        message = "Moves are sent with the buttons on the page, not over the socket."
        await self.send(text_data=render_to_string("tables/table_error.html", {"message": message, "oob": True}))

    async def table_changed(self, event: dict[str, Any]) -> None:
        try:
            version = int(event["version"])
            if version > self.sent_version:
                await self._send_board(version)
        except Exception:
            # A failed render must not strand the browser: close with "come back" so the page
            # reconnects, and the fresh connection sends the whole table again.
            log.exception("table %s: could not push to %s", self.table_id, self.channel_name)
            await self.close(code=CLOSE_TRY_AGAIN)

    async def _send_board(self, version: int | None = None) -> None:
        snapshot = snapshots.recall_here(self.table_code, version) if version is not None else None
        if snapshot is not None:
            # A transaction of this process left this version: its board needs no database and no thread
            # (a hop to a thread and back, per socket and per move, cost more than rendering the board). If
            # the mover's POST is rendering this very board in its thread, this waits for it: one render.
            html, deadline = snapshot_html(snapshot, self.scope["user"], oob=True)
        else:
            html, version, deadline = await database_sync_to_async(self._render)(version)
        if version <= self.sent_version:  # a newer board went out while this one was rendered
            return
        self.sent_version = version
        await self.send(text_data=html)
        self._arm_timer(version, deadline)

    def _render(self, version: int | None) -> tuple[str, int, datetime | None]:
        """In a worker thread, when this process did not make `version`: the board at `version` if another
        process left its snapshot in the shared cache, else as the database has it now."""
        snapshot = snapshots.recall(self.table_code, version) if version is not None else None
        if snapshot is not None:
            html, deadline = snapshot_html(snapshot, self.scope["user"], oob=True)
            return html, version, deadline
        table = Table.objects.get(pk=self.table_id)
        html, deadline = board_html(table, self.scope["user"], oob=True, version_checked=True)
        return html, table.version, deadline

    def _arm_timer(self, version: int, deadline: datetime | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if deadline is not None:
            self.timer = asyncio.create_task(self._expire_at(version, deadline))

    async def _expire_at(self, version: int, deadline: datetime) -> None:
        delay = (deadline - timezone.now()).total_seconds() + 0.25
        await asyncio.sleep(max(delay, 0))
        try:
            await _apart(play.expire_turn, table_id=self.table_id, expected_version=version)
        except Exception:
            log.exception("table %s: turn time-out failed", self.table_id)

    async def _close_when_old(self, seconds: float) -> None:
        """Close, to come back, before Daphne's own timeout would (with 1000, after which nothing retries)."""
        await asyncio.sleep(seconds)
        await self.close(code=CLOSE_TRY_AGAIN)
