"""The lobby socket: who is online, the live list of tables, quick play's counts, panel and notices."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext

from tables.invitations import rendering as rendering_invitations
from tables.lobby import rendering as rendering_lobby
from tables.lobby.services import presence
from tables.play import push
from tables.play.sockets import CLOSE_TRY_AGAIN, CLOSE_UNAUTHENTICATED, ClubConsumer, apart, start_process_tasks
from tables.quickplay import rendering as rendering_quickplay
from tables.quickplay.selectors import QuickStatus, cached_waiting_counts, quick_status, shared_waiting_counts
from tables.quickplay.services import matchmaking

log = logging.getLogger(__name__)

# Quick play: a burst of queue changes becomes one refresh per socket; a timer never fires sooner
# than this after the last one (so a due time that stays in the past cannot spin).
QUICK_REFRESH_DELAY = 0.1
QUICK_TIMER_MIN_SECONDS = 1.0
LOBBY_REFRESH_DELAY = 0.1

# What a burst of changes makes every lobby socket of the process read is read by one of them, which the
# others, on threads of their own, wait for and then take (the lobby's rendered list, the shared counts).
_table_list_read = threading.Lock()
_counts_read = threading.Lock()


def _table_list_html(*, fresh_after: float) -> str:
    with _table_list_read:
        return rendering_lobby.table_list_html(fresh_after=fresh_after)


class LobbyConsumer(ClubConsumer):
    """The lobby socket: live count of members online (and, later, the list of open tables)."""

    task_fields = ("heartbeat_task", "tables_refresh", "quick_timer", "quick_refresh")
    place = "lobby"
    heartbeat_task: asyncio.Task[None] | None = None
    tables_refresh: asyncio.Task[None] | None = None
    tables_event_at: float = 0.0
    quick_timer: asyncio.Task[None] | None = None
    quick_refresh: asyncio.Task[None] | None = None
    quick_dirty: bool = False
    quick_mine_dirty: bool = False  # the member's own request changed: re-render their panel
    quick_waiting: bool = False  # the member's panel last showed a waiting request
    left: bool = False  # `leave` has run
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
        start_process_tasks()
        count = await database_sync_to_async(presence.arrive)(user_id=user.pk, channel_name=self.channel_name)
        quick_html, due = await database_sync_to_async(self._render_on_connect)()
        await self._send_online(count, extra=quick_html + await self.features_on_connect())
        self._arm_quick_timer(due)
        self.heartbeat_task = asyncio.create_task(self._heartbeat())

    async def disconnect(self, code: int) -> None:
        await self.stop_tasks()
        await self.leave()

    async def leave(self) -> None:
        if not self.admitted or self.left:  # anonymous or refused over the cap (never counted), or done already
            return
        self.left = True
        user = self.scope["user"]
        await self.channel_layer.group_discard(push.LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_discard(push.user_group(user.pk), self.channel_name)
        await self.leave_session_groups()
        await database_sync_to_async(presence.depart)(channel_name=self.channel_name)

    async def unclaimed(self, reason: str | None) -> None:
        """The lobby socket takes only the features' messages (chat); anything else gets a short error."""
        message = reason or gettext("The lobby takes no messages.")
        error = render_to_string("tables/lobby/socket_error.html", {"message": message})
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
        html = render_to_string("tables/lobby/lobby.html#online-count", {"online_count": count, "oob": True})
        await self.send(text_data=html + extra)

    # Quick play: live counts for everyone, the member's own place, notices to this member only.

    async def queue_changed(self, event: dict[str, Any]) -> None:
        """Someone's request came, went or was seated: refresh the counts soon (once for a burst), and
        this member's own panel too when they were the one who asked or cancelled."""
        self._want_quick_refresh(mine=self.scope["user"].pk in event.get("members", ()))

    async def user_notice(self, event: dict[str, Any]) -> None:
        """A notice for this member (their table is ready, their request ended or changed): sent at
        once, from the event alone; their own panel follows with the next refresh."""
        await self._send_notice(rendering_quickplay.render_notice, event)
        self._want_quick_refresh(mine=True)

    async def invitation_notice(self, event: dict[str, Any]) -> None:
        """An invitation for this member came, ended or was answered (perhaps in another tab): its notice at once,
        from the event alone, then the member's list of invitations read afresh."""
        await self._send_notice(rendering_invitations.render_notice, event)
        try:
            html = await database_sync_to_async(rendering_invitations.lobby_list_html)(self.scope["user"], oob=True)
        except Exception:
            log.exception("lobby: could not render the invitations of %s", self.channel_name)
            return
        await self.send(text_data=html)

    async def _send_notice(self, render: Callable[[str, dict[str, Any]], str], event: dict[str, Any]) -> None:
        """A feature's notice, rendered from the event alone; one that fails to render is logged and left out."""
        try:
            html = render(str(event.get("kind", "")), event)
        except Exception:
            log.exception("lobby: could not render a notice for %s", self.channel_name)
            return
        if html:
            await self.send(text_data=html)

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

    def _render_on_connect(self) -> tuple[str, datetime | None]:
        """Quick play's panel and the member's invitations as they are now (one hop to a thread for both): an
        invitation made between the page and this socket, or while it was away, is in the list."""
        html, due = self._render_quick_on_connect()
        return html + rendering_invitations.lobby_list_html(self.scope["user"], oob=True), due

    def _render_quick_on_connect(self) -> tuple[str, datetime | None]:
        """The panel as it is now; and if quick play seated the member in the moment between their
        page and this socket, the "table is ready" notice they missed."""
        user = self.scope["user"]
        status = quick_status(user)
        html = rendering_quickplay.render_update(user, status, with_mine=True)
        self.quick_waiting = status.mine is not None
        if status.ready is not None:
            ready = {"table": status.ready.code, "game": status.ready.game, "name": status.ready.name}
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
            await apart(matchmaking.sweep_member, user_id=user.pk)
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
                await apart(presence.heartbeat, channel_name=self.channel_name)
            except Exception:  # a failed beat must not kill the socket; the next one retries
                log.exception("presence heartbeat failed")
