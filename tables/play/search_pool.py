"""The threads bots' searches run on, off the table clock's own (issue 40).

Why: a strong bot's search takes a fifth of a second or more of pure Python. Run on the clock's thread, every other
table's paced bot, time-out and deal waited behind it, and a second process could not help (it waited on the same
table). So the clock's pass (tables.play.services.clock.sweep) leases the table, hands the search to this pool and goes
on; a search thread decides the move and records it in a locked step of its own, whose commit wakes the clock as any
commit does. Which search goes next is still the search budget's choice, made by the pass: the pool only says how many
threads are free (`free`), and the pass starts no more than that, so a search never queues here behind another (a
queue here would hold its table's lease while it waited, and run on a table read long before).

Bounded: `TABLE_SEARCH_THREADS` threads per process (default 1: a process runs one thread's Python at a time, so more
threads buy no more search, only more contention with the pages; more processes do). 0: no pool, the searches run on
the clock's thread, one a pass, as before.

Each job runs through `database_sync_to_async` on the pool's own executor, from the event loop the clock runs on:
its database connection is opened and closed around it as any request's, and its pushes reach that loop's sockets
(asgiref's threads know their loop; a bare thread's would build a loop of its own for each push).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)

Job = Callable[[], object]


class SearchPool:
    """`threads` search threads, fed from any thread (`submit`), each job run from `loop`."""

    def __init__(self, *, threads: int, loop: asyncio.AbstractEventLoop) -> None:
        if threads < 1:
            raise ValueError("a search pool has at least one thread")
        self.threads = threads
        self.loop = loop
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="search")
        self._changed = threading.Condition()
        self._running = 0
        self._stopped = False
        self._futures: set[Future[None]] = set()

    def free(self) -> int:
        """Threads with no search: how many more searches may start now."""
        with self._changed:
            return 0 if self._stopped else self.threads - self._running

    def submit(self, job: Job) -> bool:
        """Run `job` on a free search thread; False when none is free (or the pool stopped): nothing runs then."""
        with self._changed:
            if self._stopped or self._running >= self.threads:
                return False
            self._running += 1
        try:
            future = asyncio.run_coroutine_threadsafe(self._run(job), self.loop)
        except RuntimeError:  # the loop is closed: the process is stopping
            self._finished()
            return False
        with self._changed:
            self._futures.add(future)
        future.add_done_callback(self._forget)
        return True

    def wait_idle(self, timeout: float) -> bool:
        """Until no search runs (tests, and a process stopping); whether that came within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self._running == 0, timeout)

    def stop(self) -> None:
        """No more searches start; those running finish on their threads."""
        with self._changed:
            self._stopped = True
        self._executor.shutdown(wait=False)

    async def _run(self, job: Job) -> None:
        started = False

        def run() -> object:  # on a search thread: the thread is free again as soon as the job ends
            nonlocal started
            started = True
            try:
                return job()
            finally:
                self._finished()

        try:
            await database_sync_to_async(run, thread_sensitive=False, executor=self._executor)()
        except Exception:  # the clock's jobs log their own failures; this keeps one the clock missed from vanishing
            log.exception("table clock: a search thread's job failed")
            if not started:  # refused by a stopped executor
                self._finished()

    def _finished(self) -> None:
        with self._changed:
            self._running -= 1
            self._changed.notify_all()

    def _forget(self, future: Future[None]) -> None:
        with self._changed:
            self._futures.discard(future)


_pool: SearchPool | None = None


def start() -> SearchPool | None:
    """This process's pool on the running event loop (once per loop, as the clock is); None when
    `TABLE_SEARCH_THREADS` is 0 (searches on the clock's thread)."""
    global _pool
    threads = settings.TABLE_SEARCH_THREADS
    if threads <= 0:
        return None
    loop = asyncio.get_running_loop()
    if _pool is not None and _pool.loop is loop and not _pool._stopped:  # the clock on this loop holds this one
        return _pool
    if _pool is not None:
        _pool.stop()
    _pool = SearchPool(threads=threads, loop=loop)
    return _pool


def current() -> SearchPool | None:
    """The pool `start` made last, if it has not been stopped."""
    return _pool


def stop() -> None:
    """Tests: the pool of a finished event loop is stopped and forgotten."""
    global _pool
    if _pool is not None:
        _pool.stop()
    _pool = None
