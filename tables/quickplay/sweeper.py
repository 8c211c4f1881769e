"""Quick play's sweeper: one task per process, started with the first socket (any socket: play's
`start_with_sockets` runs it, registered in `TablesConfig.ready`), that sweeps the queue every few seconds."""

from __future__ import annotations

import asyncio
import contextvars
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from config.asgi_handler import kept_threads
from tables.quickplay.services import matchmaking

log = logging.getLogger(__name__)

_sweeper: asyncio.Task[None] | None = None


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
