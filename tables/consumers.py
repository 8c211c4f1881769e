"""WebSocket consumers: thin, they check who is asking, call a service, and render fragments."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from tables import push
from tables.models import Table
from tables.selectors import board_for, lobby_tables
from tables.services import play, presence

log = logging.getLogger(__name__)

# Close codes: 4401 tells the browser not to retry (not logged in); htmx's ws extension only
# reconnects after 1006/1011/1012/1013, which is what a server-side failure should send.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TRY_AGAIN = 1012
CLOSE_NOT_FOUND = 4404


class LobbyConsumer(AsyncWebsocketConsumer):
    """The lobby socket: live count of members online (and, later, the list of open tables)."""

    heartbeat_task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.channel_layer.group_add(push.LOBBY_GROUP, self.channel_name)
        await self.accept()
        count = await database_sync_to_async(presence.arrive)(user_id=user.pk, channel_name=self.channel_name)
        await self._send_online(count)
        self.heartbeat_task = asyncio.create_task(self._heartbeat())

    async def disconnect(self, code: int) -> None:
        if self.heartbeat_task is not None:
            self.heartbeat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat_task
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        await self.channel_layer.group_discard(push.LOBBY_GROUP, self.channel_name)
        await database_sync_to_async(presence.depart)(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby socket takes no commands; anything sent is answered with a short error."""
        error = render_to_string("tables/socket_error.html", {"message": "The lobby takes no messages."})
        await self.send(text_data=error)

    async def lobby_online(self, event: dict[str, Any]) -> None:
        if event.get("origin") != self.channel_name:
            await self._send_online(int(event["count"]))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """A table was created, filled, started or finished: send the fresh list."""
        try:
            html = await database_sync_to_async(self._render_tables)()
        except Exception:
            log.exception("lobby: could not render the table list")
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        await self.send(text_data=html)

    def _render_tables(self) -> str:
        return render_to_string("tables/lobby.html#table-list", {"tables": list(lobby_tables()), "oob": True})

    async def _send_online(self, count: int) -> None:
        html = render_to_string("tables/lobby.html#online-count", {"online_count": count, "oob": True})
        await self.send(text_data=html)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            try:
                await database_sync_to_async(presence.heartbeat)(channel_name=self.channel_name)
            except Exception:  # a failed beat must not kill the socket; the next one retries
                log.exception("presence heartbeat failed")


class TableConsumer(AsyncWebsocketConsumer):
    """One table for one viewer. Group events say only that the table changed; this consumer renders
    what its own member may see and sends it, the whole board each time, newest version only."""

    table_id: int | None = None
    sent_version: int = -1
    timer: asyncio.Task[None] | None = None
    max_age: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        table = await database_sync_to_async(Table.objects.filter(code=code).first)()
        if table is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.table_id = table.pk
        await self.channel_layer.group_add(push.table_group(table.pk), self.channel_name)
        await self.accept()
        await self._send_board()
        if settings.TABLE_SOCKET_MAX_AGE:
            self.max_age = asyncio.create_task(self._close_when_old(settings.TABLE_SOCKET_MAX_AGE))

    async def disconnect(self, code: int) -> None:
        for task in (self.timer, self.max_age):
            if task is not None:
                task.cancel()
        if self.table_id is not None:
            await self.channel_layer.group_discard(push.table_group(self.table_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves go by POST with a version; the socket only listens. Say so, keep the socket open."""
        message = "Moves are sent with the buttons on the page, not over the socket."
        await self.send(text_data=render_to_string("tables/table_error.html", {"message": message, "oob": True}))

    async def table_changed(self, event: dict[str, Any]) -> None:
        try:
            version = int(event["version"])
            if version > self.sent_version:
                await self._send_board()
        except Exception:
            # A failed render must not strand the browser: close with "service restart" so htmx
            # reconnects, and the fresh connection sends the whole table again.
            log.exception("table %s: could not push to %s", self.table_id, self.channel_name)
            await self.close(code=CLOSE_TRY_AGAIN)

    async def _send_board(self) -> None:
        html, version, deadline = await database_sync_to_async(self._render)()
        self.sent_version = version
        await self.send(text_data=html)
        self._arm_timer(version, deadline)

    def _render(self) -> tuple[str, int, datetime | None]:
        table = Table.objects.get(pk=self.table_id)
        board = board_for(table, self.scope["user"])
        deadline = board.round.deadline if board.round is not None else None
        html = render_to_string("tables/board.html", {"board": board, "oob": True, "user": self.scope["user"]})
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
            await database_sync_to_async(play.expire_turn)(table_id=self.table_id, expected_version=version)
        except Exception:
            log.exception("table %s: turn time-out failed", self.table_id)

    async def _close_when_old(self, seconds: float) -> None:
        """Close before Daphne's own timeout would (with 1000, which htmx does not retry)."""
        await asyncio.sleep(seconds)
        await self.close(code=CLOSE_TRY_AGAIN)
