"""Django's ASGI handler, with the middleware and the view run in one worker thread per request, and
those threads kept from one request to the next.

Why one hop: WhiteNoise's middleware is synchronous only, the other middleware can be either, and the
views are synchronous. Left to itself, Django runs the chain in both modes and switches between them at
every boundary: the event loop hands the request to a thread (Security, WhiteNoise), which hands it back
to the loop (Session ... allauth, whose synchronous hooks each go out to a thread and back again), which
hands the view to a thread once more. Under load every one of those switches costs CPU and waits. Here
the chain is built synchronous, as under WSGI, and the loop hands each request to its thread exactly once.

Why kept threads: Django gives every request a `ThreadSensitiveContext` of its own, and asgiref makes a
new single-thread executor for each such context, so every request started a thread and joined it at the
end (about a tenth of the CPU of a Daphne process serving nothing else, measured with py-spy on
bench/floor_app.py). asgiref lets the caller own the context's executor; here idle executors wait in a
free list and the next request takes one. A request still has one thread to itself from start to end
(its database connection, closed at its end as before, lives there), and a thread serves one request at
a time. Nothing else changes: the same middleware in the same order; WebSockets do not pass here, but
their consumers take their threads from the same pool (`kept_threads`, see tables/play/sockets.py).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler

IDLE_THREADS_KEPT = 64  # more at once are started as before and stopped after their request (or socket)


class KeptThreads:
    """Single-thread executors waiting for their next user: a request, a socket, a background call.

    Only the event loop's thread takes and gives back (no lock needed). An executor runs one user at a time:
    taken, it is out of the list until given back."""

    def __init__(self, *, keep: int = IDLE_THREADS_KEPT) -> None:
        self._idle: list[ThreadPoolExecutor] = []
        self._keep = keep

    @asynccontextmanager
    async def own_thread(self) -> AsyncIterator[None]:
        """Thread-sensitive calls (`sync_to_async`, `database_sync_to_async`) made in this block, and by
        tasks started in it, run on one thread, which nothing else uses meanwhile. Such tasks must end
        before the block does (asgiref refuses their later calls). A block ended by an exception (cancelled,
        mostly) may leave its call running on the thread: that thread is let go, not kept for the next."""
        executor = self._idle.pop() if self._idle else ThreadPoolExecutor(1, thread_name_prefix="worker")
        ended_well = False
        try:
            async with ThreadSensitiveContext(executor=executor):
                yield
            ended_well = True
        finally:
            if ended_well and len(self._idle) < self._keep:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)


kept_threads = KeptThreads()  # the process's: requests and sockets share it


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self, *, threads: KeptThreads = kept_threads) -> None:
        super().__init__()
        self._threads = threads

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        async with self._threads.own_thread():
            await self.handle(scope, receive, send)


def freeze_startup_objects() -> None:
    """Move everything loaded so far (Django, the apps, URLs, Twisted) out of the garbage collector's sight.

    It lives as long as the process; left tracked, every full collection walks those hundreds of thousands
    of objects again, and under load the process paused for 100-250 ms every few seconds (the p99 of the
    bench's floor at 200 tables fell from 127-154 to 54 ms with this alone). Call it once the application
    is built, before serving.
    """
    gc.collect()
    gc.freeze()
