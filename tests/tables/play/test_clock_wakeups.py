"""The table clock's wake-ups: a commit that made something due sooner wakes this process's clock through
tables.play.wakeups, and no wake-up is lost when two come at once (from two threads, or while the clock plans
its next look after a pass): the clock's `planned` time is read, compared and written under one lock.

The races are forced: a clock whose `planned` time, read by one side, waits (half a second at most) for the other
side's wake to finish first. Without the lock the other wake finishes meanwhile and the first side then writes
over it with the later time it computed; with the lock the other wake waits its turn and comes after."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from datetime import datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tables.play import background, wakeups

OTHER_SIDE = 0.5  # seconds one side waits for the other's wake to finish (it never does under the lock)


class PausingClock(background.Clock):
    """A clock whose `planned` time, read once by the thread `pausing`, first lets `meanwhile` (another thread's
    wake) run to its end, as a thread switch at that moment would."""

    def __init__(self, **kwargs: object) -> None:
        self._value: datetime | None = None
        self.pausing: threading.Thread | None = None
        self.meanwhile: threading.Thread | None = None
        self.reading = threading.Event()
        super().__init__(**kwargs)  # type: ignore[arg-type]

    @property  # type: ignore[override]
    def planned(self) -> datetime | None:
        value = self._value
        if self.pausing is not None and threading.current_thread() is self.pausing:
            self.pausing = None
            self.reading.set()
            if self.meanwhile is not None:
                self.meanwhile.start()
                self.meanwhile.join(OTHER_SIDE)
        return value

    @planned.setter
    def planned(self, value: datetime | None) -> None:
        self._value = value


@pytest.mark.asyncio
async def test_of_two_wakes_at_once_the_sooner_one_stands() -> None:
    clock = PausingClock(sweep=lambda: None, seconds=3600, loop=asyncio.get_running_loop())
    now = timezone.now()
    clock.planned = now + timedelta(hours=1)
    later, sooner = now + timedelta(minutes=10), now + timedelta(minutes=1)
    first = threading.Thread(target=clock.wake, args=(later,))
    clock.pausing, clock.meanwhile = first, threading.Thread(target=clock.wake, args=(sooner,))

    def both() -> None:
        first.start()
        first.join(10)
        clock.meanwhile.join(10)

    await asyncio.to_thread(both)
    assert clock.reading.is_set()
    assert clock.planned == sooner


async def _passes(clock: background.Clock, count: int, timeout: float = 10) -> None:
    async def done() -> None:
        while clock.passes < count:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(done(), timeout)


@pytest.mark.asyncio
async def test_a_wake_while_the_clock_plans_its_next_look_is_not_lost() -> None:
    """After a pass the clock plans when to look next (in an hour here); a commit's wake for now, made on another
    thread at that moment, must still bring the next pass forward."""
    loop = asyncio.get_running_loop()
    clock: PausingClock

    def sweep() -> None:
        if clock.passes == 0:  # the first pass: its plan, read on the loop's thread, lets a wake in meanwhile
            clock.meanwhile = threading.Thread(target=clock.wake, args=(timezone.now(),))
            clock.pausing = loop_thread
        return None

    loop_thread = threading.current_thread()
    clock = PausingClock(sweep=sweep, seconds=3600, loop=loop)
    task = loop.create_task(clock.run())
    try:
        await _passes(clock, 1)
        await asyncio.wait_for(asyncio.to_thread(clock.reading.wait), 10)
        await _passes(clock, 2, timeout=OTHER_SIDE + 5)  # not in an hour
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.mark.django_db(transaction=True)
def test_a_commit_wakes_the_listening_clock_once_committed_and_a_rollback_wakes_nobody() -> None:
    heard: list[datetime] = []
    at = timezone.now()
    wakeups.listen(heard.append)
    try:
        with transaction.atomic():
            wakeups.after_commit(at)
            assert heard == []  # not before the commit: it might be rolled back
        assert heard == [at]
        with contextlib.suppress(RuntimeError), transaction.atomic():
            wakeups.after_commit(at + timedelta(seconds=1))
            raise RuntimeError("rolled back")
        assert heard == [at]
    finally:
        wakeups.listen(None)
    wakeups.wake(at)  # nobody listens: nothing happens, nothing fails
    assert heard == [at]
