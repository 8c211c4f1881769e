"""The table clock: one task per serving process that does what is due at tables, owned by the server.

It starts when the process starts serving (config/asgi.py asks Daphne's reactor to call
`start_process_tasks` once it runs) and, failing that, with the process's first socket; it then runs with
no page open. Each pass runs the sweep (tables.play.services.clock.sweep) on a thread of its own and sleeps
until the next thing is due, or `TABLE_CLOCK_SECONDS` at most (another process may have made something
due); a commit of this process that makes something due sooner wakes it at once (tables.play.wakeups, which the
running clock listens to), which is what paces bots to the table's speed. A pass that fails is logged and the
next one retries.

Features that play may not import give the clock work of their own (`add_job`, from `TablesConfig.ready`: the
invitations end those that ran out of time and tell the invited member's lobby). Each pass runs play's sweep,
then every job, each in its own try (`run_pass`): one that fails is logged under its name and keeps none of the
others from running, and the next pass runs it again. A job says when it next needs a look, as the sweep does.

The clock is supervised, so a process never loses it silently:

- A pass that takes longer than `TABLE_CLOCK_PASS_TIMEOUT` seconds (a lock never granted, a connection that
  stopped answering) is logged as an error and given up. Its thread cannot be stopped: it is left to finish the
  pass, and the next passes run on a fresh thread. What the given-up pass does when it ends is harmless, as any
  second attempt is: every step takes its table's lock and acts only if the table is still due. At most
  `MAX_GIVEN_UP` given-up passes may still be running; then the clock waits for one to end rather than tie up
  ever more threads and database connections.
- A clock task that ends (an exception escaped, or it was cancelled by anything but `stop`) is logged and started
  again `TABLE_CLOCK_SECONDS` later (`RESTART_AFTER_MAX` at most), with no page or socket needed.
- `health` says whether a pass finished recently enough (GET /health/, config/health.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from config.asgi_handler import kept_threads
from tables.play import search_pool, wakeups
from tables.play.services.clock import sweep as tables_sweep

log = logging.getLogger(__name__)

Sweep = Callable[[], "datetime | None"]
Job = Sweep  # a feature's work on each pass: does what is due, returns when it next needs a look (None: no hurry)
_jobs: dict[str, Job] = {}

MAX_GIVEN_UP = 3  # given-up passes still running on their threads, at most, before the clock waits for one
RESTART_AFTER_MAX = 5.0  # seconds: a clock task that ended starts again after TABLE_CLOCK_SECONDS, this at most
SLOW_PART = 2.0  # seconds: a part of a pass that takes longer is logged (a paced bot's card is a second or two)
HEALTHY_WITHIN_POLLS = 3  # healthy: a pass finished within this many TABLE_CLOCK_SECONDS plus the pass timeout


def add_job(name: str, job: Job) -> None:
    """Have every pass of this process's clock run `job` too (once per name; called at startup)."""
    _jobs[name] = job


def jobs() -> dict[str, Job]:
    return dict(_jobs)


def run_pass(sweep: Sweep, *, jobs: dict[str, Job] | None = None,
             monotonic: Callable[[], float] = time.monotonic) -> datetime | None:
    """One pass: play's sweep ("tables"), then each job; returns the soonest time any of them asked to look again.
    A part that raises is logged with its name and left for the next pass; the others run all the same. A part that
    takes longer than SLOW_PART is logged with its time: every paced bot of the process waits for the pass."""
    soonest: datetime | None = None
    for name, work in [("tables", sweep), *(_jobs if jobs is None else jobs).items()]:
        began = monotonic()
        try:
            due = work()
        except Exception:  # what is due stays due: the next pass (TABLE_CLOCK_SECONDS at most) runs it again
            log.exception("table clock: %s failed; the next pass tries again", name)
            continue
        finally:
            took = monotonic() - began
            if took > SLOW_PART:
                log.warning("table clock: %s took %.1f s of a pass", name, took)
        if due is not None and (soonest is None or due < soonest):
            soonest = due
    return soonest


class _GaveUp(Exception):
    """A pass ran out of time: the block that owns its thread ends with this, so the thread is let go."""


class Pass:
    """One pass, run on the clock's thread (`run`); `work` is the loop's side of it, done when the thread is."""

    def __init__(self, sweep: Sweep) -> None:
        self.sweep = sweep
        self.began = time.monotonic()
        self.given_up = False
        self.work: asyncio.Future[datetime | None] | None = None

    def run(self) -> datetime | None:
        try:
            return self.sweep()
        finally:
            if self.given_up:
                log.warning("table clock: a pass it gave up on ended after %.1f s", time.monotonic() - self.began)

    def ended(self) -> bool:
        return self.work is not None and self.work.done()


def _retrieve(work: asyncio.Future[datetime | None]) -> None:
    """A given-up pass's end: nobody waits for its result, but an exception out of it is logged."""
    if not work.cancelled() and (error := work.exception()) is not None:
        log.error("table clock: a pass it gave up on failed", exc_info=error)


class Clock:
    def __init__(self, *, sweep: Sweep, seconds: float, loop: asyncio.AbstractEventLoop,
                 pass_timeout: float = 60.0) -> None:
        self.sweep = sweep
        self.seconds = seconds
        self.pass_timeout = pass_timeout
        self.loop = loop
        self.alarm = asyncio.Event()
        # `planned` is read, compared and written under this lock, from the loop's thread and any thread that
        # commits: else a wake-up could be overwritten by a later time computed from what was planned before it.
        self._lock = threading.Lock()
        self.planned: datetime | None = None  # when it next looks unless woken
        self.passes = 0  # passes that finished (a failed one too)
        self.given_up: list[Pass] = []  # passes given up on whose thread may still be running them
        self.hung = 0  # passes given up on, ever
        self.restarts = 0
        self.started = time.monotonic()
        self.last_pass: float | None = None  # time.monotonic() when the last pass finished
        self.running: Pass | None = None  # the pass under way, if any
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        self._restart: asyncio.TimerHandle | None = None

    # --- the task and its supervision (on the loop's thread) ---------------------------------------------------

    def start(self) -> None:
        """Run the clock's task, if it is not running (a restart due is brought forward), watched by `_ended`."""
        if self._restart is not None:
            self._restart.cancel()
            self._restart = None
        if self.stopped or self.loop.is_closed() or (self.task is not None and not self.task.done()):
            return
        # Not in the context of whoever starts it: the clock outlives that socket or request.
        self.task = self.loop.create_task(self.run(), context=contextvars.Context())
        self.task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """The supervisor: a task that ended though the clock was not stopped is logged and started again soon."""
        if self.stopped or task is not self.task or self.loop.is_closed():
            return
        delay = min(self.seconds, RESTART_AFTER_MAX)
        if task.cancelled():
            log.error("table clock: its task was cancelled; it starts again in %.1f s", delay)
        else:
            log.error("table clock: its task ended; it starts again in %.1f s", delay, exc_info=task.exception())
        self.restarts += 1
        self._restart = self.loop.call_later(delay, self.start)

    def stop(self) -> None:
        """For good (the process, or a test, is done with it): no restart, and its task is cancelled."""
        self.stopped = True
        if self.loop.is_closed():
            return
        if self._restart is not None:
            self._restart.cancel()
        if self.task is not None:
            self.task.cancel()

    # --- the passes ----------------------------------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            try:
                async with kept_threads.own_thread():
                    while True:
                        await self._pass()
                        await self._sleep()
            except _GaveUp:
                continue  # own_thread let the hung pass's thread go; the next pass starts at once, on a fresh one

    async def _pass(self) -> None:
        await self._room_for_a_pass()
        with self._lock:
            self.planned = None  # while it sweeps, any wake counts (it may be for a commit the sweep missed)
        current = self.running = Pass(self.sweep)
        work = current.work = asyncio.ensure_future(database_sync_to_async(current.run)())
        try:
            done, _ = await asyncio.wait({work}, timeout=self.pass_timeout or None)  # 0: no limit
        except BaseException:  # the clock is cancelled: the pass's call is let go with it
            work.cancel()
            raise
        finally:
            self.running = None
        if not done:
            # Not cancelled: the call ends when its thread does (a push it makes on the way still goes out).
            current.given_up = True
            work.add_done_callback(_retrieve)
            self.given_up.append(current)
            self.hung += 1
            log.error("table clock: a pass has run for %.1f s (TABLE_CLOCK_PASS_TIMEOUT is %g s); it is left to "
                      "finish on its thread and the next pass starts on a fresh one",
                      time.monotonic() - current.began, self.pass_timeout)
            raise _GaveUp
        next_due: datetime | None = None
        try:
            next_due = work.result()
        except Exception:  # the clock must not stop: what is due stays due, the next pass retries
            log.exception("table clock: a pass failed")
        self.passes += 1
        self.last_pass = time.monotonic()
        with self._lock:
            times = [timezone.now() + timedelta(seconds=self.seconds), next_due, self.planned]
            self.planned = min(t for t in times if t is not None)

    async def _room_for_a_pass(self) -> None:
        """Given-up passes still running hold a thread and a database connection each: at most MAX_GIVEN_UP."""
        self.given_up = [p for p in self.given_up if not p.ended()]
        if len(self.given_up) < MAX_GIVEN_UP:
            return
        log.error("table clock: %d passes it gave up on are still running; it waits for one to end",
                  len(self.given_up))
        await asyncio.wait({p.work for p in self.given_up if p.work is not None},
                           return_when=asyncio.FIRST_COMPLETED)
        self.given_up = [p for p in self.given_up if not p.ended()]

    async def _sleep(self) -> None:
        """Until `planned`, which a `wake` from any thread may bring forward while it sleeps."""
        while True:
            with self._lock:
                planned = self.planned
            if planned is None:
                return
            ahead = (planned - timezone.now()).total_seconds()
            if ahead <= 0:
                return
            self.alarm.clear()  # a wake's alarm is set from the loop, after this, so it is never missed
            try:
                await asyncio.wait_for(self.alarm.wait(), ahead)
            except TimeoutError:
                return

    def wake(self, at: datetime) -> None:
        """From any thread: look at `at` rather than later."""
        with self._lock:
            planned = self.planned
            if planned is not None and planned <= at:
                return
            self.planned = at
        with contextlib.suppress(RuntimeError):  # its loop has closed (the process, or a test, is ending)
            self.loop.call_soon_threadsafe(self.alarm.set)

    def health(self, *, now: float | None = None) -> str | None:
        """What is wrong with this clock, in words anyone may read (None: nothing): a pass must have finished (or the
        clock started) within HEALTHY_WITHIN_POLLS times its seconds plus the pass timeout."""
        now = time.monotonic() if now is None else now
        quiet = now - (self.last_pass if self.last_pass is not None else self.started)
        if quiet <= HEALTHY_WITHIN_POLLS * self.seconds + self.pass_timeout:
            return None
        problem = f"no pass has finished for {quiet:.0f} s"
        running = self.running
        if running is not None:
            return f"{problem}; the pass under way began {now - running.began:.0f} s ago"
        still = sum(1 for p in self.given_up if not p.ended())
        if still:
            return f"{problem}; {still} passes it gave up on are still running"
        if self.task is None or self.task.done():
            return f"{problem}; its task is not running"
        return problem


_clock: Clock | None = None


def start(sweep: Sweep) -> Clock | None:
    """Start this process's clock on the running event loop (once; again on a new loop, as in tests), and have it
    listen to the process's wake-ups."""
    global _clock
    seconds = settings.TABLE_CLOCK_SECONDS
    if not seconds:
        return None
    loop = asyncio.get_running_loop()
    if _clock is not None and _clock.loop is loop and not _clock.stopped:
        _clock.start()  # running: nothing to do; ended and waiting for its restart: at once
        return _clock
    if _clock is not None:
        _clock.stopped = True  # a clock of an earlier loop (tests): it never starts again
    clock = Clock(sweep=sweep, seconds=seconds, loop=loop, pass_timeout=settings.TABLE_CLOCK_PASS_TIMEOUT)
    clock.start()
    _clock = clock
    wakeups.listen(clock.wake)
    return clock


def start_table_clock() -> None:
    """What the process starts when it serves (registered in `TablesConfig.ready`): the clock, whose passes hand
    bots' searches to this process's search threads (tables.play.search_pool)."""
    start(functools.partial(run_pass, functools.partial(tables_sweep, pool=search_pool.start())))


def health() -> str | None:
    """What is wrong with this process's table clock, if anything (None too when it is off: TABLE_CLOCK_SECONDS 0)."""
    if not settings.TABLE_CLOCK_SECONDS:
        return None
    clock = _clock
    if clock is None or clock.stopped:
        return "the table clock is not running in this process"
    return clock.health()


def stop() -> None:
    """Tests: the clock of a finished event loop is forgotten."""
    global _clock
    if _clock is not None:
        _clock.stop()
    wakeups.listen(None)
    _clock = None
    search_pool.stop()
