"""WebSocket consumers: thin, they check who is asking, call a service, and render fragments."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from tables import push
from tables.services import presence

log = logging.getLogger(__name__)

# Close codes: 4401 tells the browser not to retry (not logged in); htmx's ws extension only
# reconnects after 1006/1011/1012/1013, which is what a server-side failure should send.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TRY_AGAIN = 1012


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
