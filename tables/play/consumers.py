"""The table socket: one table for one viewer, the whole board once and then the parts each change made (newest
version only)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.utils.translation import gettext

from tables.models import Seat, Table
from tables.play import member_actions, pace, privacy, push, snapshots
from tables.play.board_parts import Rendered, Sent, delta
from tables.play.rendering import board_html, snapshot_html
from tables.play.selectors import table_version
from tables.play.services import presence
from tables.play.services.errors import StaleVersion, TableError
from tables.play.sockets import (
    CLOSE_NOT_FOUND,
    CLOSE_PRIVATE,
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHENTICATED,
    ClubConsumer,
    apart,
    start_process_tasks,
)

log = logging.getLogger(__name__)


def _table_for(code: str, user: Any) -> tuple[Table | None, bool]:
    """The socket's table, and whether its member may watch it (a private table: tables.play.privacy)."""
    table = Table.objects.filter(code=code).first()
    return table, table is not None and privacy.may_watch(table, user)


class TableConsumer(ClubConsumer):
    """One table for one viewer. Group events say only that the table changed; this consumer renders
    what its own member may see and sends it, newest version only: the whole board when the socket opens, then only
    the parts of it that changed (tables.play.board_parts.delta; the page rebuilds the board from them,
    static/js/board_parts.js). A page that holds no board a message builds on asks for the whole board ("board").

    Moves over the socket: while the page's socket is open, the board's move and "ready" buttons send
    their fields over it (htmx's `ws-send`, as JSON: kind, table, version, move); while it is not, they POST
    the same fields (static/js/sockets.js says how, and why a move is never queued for a later socket).
    `take_action` reads such a message as the POST's view does (tables/play/member_actions.py), for the
    socket's own member (its session's user; that session's end closes the socket) and its own table only:
    one service call, in the socket's thread (its messages are handled one at a time, so nothing else of this
    socket waits for it). A refusal is answered here, into #table-error, in the POST's words, and changed
    nothing; an accepted move is not answered: its new board reaches the mover as it reaches everyone at the
    table, by the push after commit (which this process builds from the move's snapshot).
    """

    task_fields = ("heartbeat", "max_age")
    place = "table"
    table_id: int | None = None
    table_code: str = ""
    sent_version: int = -1
    sent: Sent | None = None  # the board the page holds, as this socket sent it (None: send the whole board next)
    present: bool = False  # its row in TableSocket is written: the member counts as at the table
    heartbeat: asyncio.Task[None] | None = None
    max_age: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        table, may_watch = await database_sync_to_async(_table_for)(code, user)
        if table is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if not may_watch:  # before any group, presence or board: nothing of the table reaches this socket
            await self.refuse(CLOSE_PRIVATE)
            return
        if not await self.admit(user):
            return
        self.table_id, self.table_code = table.pk, table.code
        await self.channel_layer.group_add(push.table_group(table.pk), self.channel_name)
        await self.accept()
        start_process_tasks()
        await database_sync_to_async(presence.socket_opened)(
            table_id=table.pk, user=user, channel_name=self.channel_name)
        self.present = True
        self.heartbeat = asyncio.create_task(self._keep_present())
        await self._send_board(extra=await self.features_on_connect())
        if settings.TABLE_SOCKET_MAX_AGE:
            self.max_age = asyncio.create_task(self._close_when_old(settings.TABLE_SOCKET_MAX_AGE))

    async def disconnect(self, code: int) -> None:
        await self.stop_tasks()
        await self.leave()

    async def leave(self) -> None:
        if self.present:
            self.present = False
            try:
                await database_sync_to_async(presence.socket_closed)(channel_name=self.channel_name)
            except Exception:  # its row goes stale and is swept: the member is taken for gone a little later
                log.exception("table %s: could not record that %s closed", self.table_id, self.channel_name)
        if self.table_id is not None:
            table_id, self.table_id = self.table_id, None
            await self.channel_layer.group_discard(push.table_group(table_id), self.channel_name)
        await self.leave_session_groups()

    def handler_for(self, kind: str) -> Callable[[dict[str, Any]], Awaitable[None]] | None:
        if kind == "board":
            return self.whole_board
        return self.take_action if kind in member_actions.KINDS else super().handler_for(kind)

    async def whole_board(self, message: dict[str, Any]) -> None:
        """The page holds no board the last message built on (static/js/board_parts.js): it gets the whole board as
        the table is now. Charged to the socket's rate as every message is."""
        self.sent, self.sent_version = None, -1
        await self._send_board()

    async def take_action(self, message: dict[str, Any]) -> None:
        """A member's move or "ready" from the board's buttons (see the class's docstring). A message that cannot be
        one (no table, another table, no version) is refused before any trip to a thread or the database."""
        try:
            member_actions.check_socket_message(table_code=self.table_code, message=message)
            await database_sync_to_async(member_actions.act_from_socket)(
                table_id=self.table_id, table_code=self.table_code, user=self.scope["user"], message=message)
        except StaleVersion as error:
            await self._say(str(error))
            # The page moved from a version it had missed (see `_alive`): it gets the board as it now is.
            version = await database_sync_to_async(table_version)(self.table_id)
            if version is not None and version > self.sent_version:
                await self._caught_up(version)
        except TableError as error:
            await self._say(str(error))

    async def unclaimed(self, reason: str | None) -> None:
        """A message that is neither a move nor a feature's (chat): say so, keep the socket open."""
        await self._say(reason or gettext("That message is not one this page sends; reload the page."))

    async def _say(self, message: str) -> None:
        """Into the page's #table-error, as a refused POST's answer goes there."""
        await self.send(text_data=render_to_string("tables/play/table_error.html", {"message": message, "oob": True}))

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

    async def _send_board(self, version: int | None = None, extra: str = "") -> None:
        """`extra`: the features' state sent with the first board (tables.play.sockets.on_connect)."""
        snapshot = snapshots.recall_here(self.table_code, version) if version is not None else None
        if snapshot is not None:
            # A transaction of this process left this version: its board needs no database and no thread
            # (a hop to a thread and back, per socket and per move, cost more than rendering the board). If
            # the mover's POST is rendering this very board in its thread, this waits for it: one render.
            board = snapshot_html(snapshot, self.scope["user"], oob=True)
        else:
            board, version = await database_sync_to_async(self._render)(version)
        if version <= self.sent_version:  # a newer board went out while this one was rendered
            return
        changes = delta(board, version=version, sent=self.sent)
        self.sent_version = version
        self.sent = Sent(version=version, frame=board.frame, parts=board.parts)
        await self.send(text_data=(changes if changes is not None else board.html) + extra)

    def _render(self, version: int | None) -> tuple[Rendered, int]:
        """In a worker thread, when this process did not make `version`: the board at `version` if another
        process left its snapshot in the shared cache, else as the database has it now."""
        snapshot = snapshots.recall(self.table_code, version) if version is not None else None
        if snapshot is not None:
            return snapshot_html(snapshot, self.scope["user"], oob=True), version
        user = self.scope["user"]
        # with the member's premove count (tables.play.rendering: a card chosen ahead makes no version)
        own = Seat.objects.filter(table=OuterRef("pk"), user_id=user.pk).values("premove_serial")[:1]
        table = Table.objects.annotate(own_premove_serial=Subquery(own)).get(pk=self.table_id)
        return board_html(table, user, oob=True, version_checked=True,
                          premove_serial=table.own_premove_serial), table.version

    async def _keep_present(self) -> None:
        """Say the socket is alive now and then, so its row is not taken for one a dead process left; if it was
        (heartbeats held up past `pace.SOCKET_STALE`), record the socket again, and its member is back."""
        while True:
            await asyncio.sleep(pace.HEARTBEAT_SECONDS)
            try:
                seen, version = await apart(self._alive)
                if not seen:
                    await apart(presence.socket_opened, table_id=self.table_id, user=self.scope["user"],
                                channel_name=self.channel_name)
                if version is not None and version > self.sent_version:
                    await self._caught_up(version)
            except Exception:
                log.exception("table %s: heartbeat failed", self.table_id)

    def _alive(self) -> tuple[bool, int | None]:
        """In a worker thread: the heartbeat, and the table's version as the database has it.

        Why the version: a push can be lost after its commit (the process that made the version killed between
        the commit and the send, the channel layer away). Nothing else would tell this page (the member may
        wait for a bot's card that is already on the table), so each heartbeat compares, and a page that missed
        a version gets the board within `pace.HEARTBEAT_SECONDS` (found by the chaos soak, bench/chaos.py)."""
        return presence.socket_seen(channel_name=self.channel_name), table_version(self.table_id)

    async def _caught_up(self, version: int) -> None:
        log.warning("table %s: %s showed version %s of %s (a push was lost): sending the board", self.table_id,
                    self.channel_name, self.sent_version, version)
        await self._send_board(version)

    async def _close_when_old(self, seconds: float) -> None:
        """Close, to come back, before Daphne's own timeout would (with 1000, after which nothing retries)."""
        await asyncio.sleep(seconds)
        await self.close(code=CLOSE_TRY_AGAIN)
