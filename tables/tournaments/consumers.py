"""The tournament page's socket: the live part of the page (rounds, tables, standings, a pause or cancellation)
sent whole on connect and again after each change (tables.tournaments.push).

What it sends is public (who sits where, results, standings), the same for every member, so a member needs only be
signed in, as for the page; a burst of changes becomes one render per socket (TOURNAMENT_REFRESH_DELAY), and a
message of the group carries nothing but "changed": the socket reads the database afresh, so a lost message is
made good by the next, and a reconnect by the send on connect."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.db import database_sync_to_async

from tables.models import Tournament
from tables.play.sockets import CLOSE_NOT_FOUND, CLOSE_TRY_AGAIN, CLOSE_UNAUTHENTICATED, ClubConsumer
from tables.tournaments import rendering
from tables.tournaments.push import tournament_group

log = logging.getLogger(__name__)

TOURNAMENT_REFRESH_DELAY = 0.1


def _visible(tournament_id: int, user: Any) -> bool:
    """A tournament in preparation is the organisers' until its entries open (as its page is)."""
    status = Tournament.objects.filter(pk=tournament_id).values_list("status", flat=True).first()
    return status is not None and (status != Tournament.Status.DRAFT or user.is_staff)


class TournamentConsumer(ClubConsumer):
    task_fields = ("refresh",)
    place = "tournament"
    tournament_id: int = 0
    group: str = ""
    refresh: asyncio.Task[None] | None = None
    event_at: float = 0.0

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(_visible)(self.tournament_id, user):
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if not await self.admit(user):
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_live()

    async def leave(self) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = ""
        await super().leave()

    async def unclaimed(self, reason: str | None) -> None:
        """The page sends nothing; whatever comes is ignored (answered by nothing, changing nothing)."""

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        self.event_at = time.monotonic()
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.create_task(self._refresh())

    async def _refresh(self) -> None:
        sent_for = -1.0
        while sent_for < self.event_at:
            await asyncio.sleep(TOURNAMENT_REFRESH_DELAY)
            sent_for = self.event_at
            if not await self._send_live():
                return

    async def _send_live(self) -> bool:
        try:
            html = await database_sync_to_async(rendering.live_html)(self.tournament_id, self.scope["user"])
        except Exception:
            log.exception("tournament %s: could not render the live part", self.tournament_id)
            await self.close(code=CLOSE_TRY_AGAIN)
            return False
        await self.send(text_data=html)
        return True
