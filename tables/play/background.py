"""The table clock: one task per serving process that does what is due at tables, owned by the server.

It starts when the process starts serving (config/asgi.py asks Daphne's reactor to call
`start_process_tasks` once it runs) and, failing that, with the process's first socket; it then runs with
no page open. Each pass runs the sweep (tables.play.services.clock.sweep) on a thread of its own and sleeps
until the next thing is due, or `TABLE_CLOCK_SECONDS` at most (another process may have made something
due); a commit of this process that makes something due sooner wakes it at once (`wake`), which is what
paces bots to the table's speed. A pass that fails is logged and the next one retries.

Features that play may not import give the clock work of their own (`add_job`, from `TablesConfig.ready`: the
invitations end those that ran out of time and tell the invited member's lobby). Each pass runs play's sweep,
then every job, each in its own try (`run_pass`): one that fails is logged under its name and keeps none of the
others from running, and the next pass runs it again. A job says when it next needs a look, as the sweep does.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from config.asgi_handler import kept_threads
from tables.play import search_pool

log = logging.getLogger(__name__)

Sweep = Callable[[], "datetime | None"]
Job = Sweep  # a feature's work on each pass: does what is due, returns when it next needs a look (None: no hurry)
_jobs: dict[str, Job] = {}


def add_job(name: str, job: Job) -> None:
    """Have every pass of this process's clock run `job` too (once per name; called at startup)."""
    _jobs[name] = job


def jobs() -> dict[str, Job]:
    return dict(_jobs)


def run_pass(sweep: Sweep, *, jobs: dict[str, Job] | None = None) -> datetime | None:
    """One pass: play's sweep ("tables"), then each job; returns the soonest time any of them asked to look again.
    A part that raises is logged with its name and left for the next pass; the others run all the same."""
    soonest: datetime | None = None
    for name, work in [("tables", sweep), *(_jobs if jobs is None else jobs).items()]:
        try:
            due = work()
        except Exception:  # what is due stays due: the next pass (TABLE_CLOCK_SECONDS at most) runs it again
            log.exception("table clock: %s failed; the next pass tries again", name)
            continue
        if due is not None and (soonest is None or due < soonest):
            soonest = due
    return soonest


class Clock:
    def __init__(self, *, sweep: Sweep, seconds: float, loop: asyncio.AbstractEventLoop) -> None:
        self.sweep = sweep
        self.seconds = seconds
        self.loop = loop
        self.alarm = asyncio.Event()
        self.planned: datetime | None = None  # when it next looks unless woken (read from other threads)
        self.passes = 0
        self.task: asyncio.Task[None] | None = None

    def wake(self, at: datetime) -> None:
        """From any thread: look at `at` rather than later."""
        planned = self.planned
        if planned is None or at < planned:
            self.planned = at
            self.loop.call_soon_threadsafe(self.alarm.set)

    async def run(self) -> None:
        async with kept_threads.own_thread():
            while True:
                next_due: datetime | None = None
                self.planned = None  # while it sweeps, any wake counts (it may be for a commit the sweep missed)
                try:
                    next_due = await database_sync_to_async(self.sweep)()
                except Exception:  # the clock must not stop: what is due stays due, the next pass retries
                    log.exception("table clock: a pass failed")
                self.passes += 1
                times = [timezone.now() + timedelta(seconds=self.seconds), next_due, self.planned]
                self.planned = min(t for t in times if t is not None)
                await self._sleep()

    async def _sleep(self) -> None:
        """Until `planned`, which a `wake` from any thread may bring forward while it sleeps."""
        while True:
            ahead = (self.planned - timezone.now()).total_seconds()
            if ahead <= 0:
                return
            self.alarm.clear()  # a wake's alarm is set from the loop, after this, so it is never missed
            try:
                await asyncio.wait_for(self.alarm.wait(), ahead)
            except TimeoutError:
                return


_clock: Clock | None = None


def start(sweep: Sweep) -> Clock | None:
    """Start this process's clock on the running event loop (once; again on a new loop, as in tests)."""
    global _clock
    seconds = settings.TABLE_CLOCK_SECONDS
    if not seconds:
        return None
    loop = asyncio.get_running_loop()
    if _clock is not None and _clock.task is not None and not _clock.task.done() and _clock.loop is loop:
        return _clock
    clock = Clock(sweep=sweep, seconds=seconds, loop=loop)
    # Not in the context of whoever starts it: the clock outlives that socket or request.
    clock.task = loop.create_task(clock.run(), context=contextvars.Context())
    _clock = clock
    return clock


def start_table_clock() -> None:
    """What the process starts when it serves (registered in `TablesConfig.ready`): the clock, whose passes hand
    bots' searches to this process's search threads (tables.play.search_pool)."""
    from tables.play.services.clock import sweep  # here, not above: the services wake this module's clock

    start(functools.partial(run_pass, functools.partial(sweep, pool=search_pool.start())))


def wake(at: datetime) -> None:
    """Called after a commit that made something due at `at`: this process's clock looks then."""
    clock = _clock
    if clock is not None and clock.task is not None and not clock.task.done() and not clock.loop.is_closed():
        clock.wake(at)


def stop() -> None:
    """Tests: the clock of a finished event loop is forgotten."""
    global _clock
    if _clock is not None and _clock.task is not None:
        _clock.task.cancel()
    _clock = None
    search_pool.stop()
