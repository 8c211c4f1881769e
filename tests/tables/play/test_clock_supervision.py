"""The table clock is supervised (tables/play/background.py): a pass that hangs is given up after
TABLE_CLOCK_PASS_TIMEOUT and the clock goes on, on a fresh thread, while the hung pass, when it ends, changes
nothing; a clock task that dies (cancelled, or an exception out of its own code) starts again with no socket to
start it. No page, no socket: the clock alone, started as a serving process starts it."""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.models import Round, Table
from tables.play import background, snapshots
from tables.play.services import clock
from tests.tables.helpers import full_table, watching

LOG = "tables.play.background"


@pytest.fixture(autouse=True)
def _no_clock_outlives_its_test() -> Iterator[None]:
    yield
    background.stop()


@pytest.fixture(autouse=True)
def _stale_sockets_swept_on_the_next_pass(monkeypatch) -> None:
    monkeypatch.setattr(clock, "_stale_swept_at", None)


def due_table(member) -> Table:
    """A running table whose member's time ran out a moment ago: due now, one step (the time-out; instant bots
    then play up to the member's next turn) and it is due again only at that turn's end."""
    table = full_table("hawk", [member], bots=3)
    watching(table, member)
    now = timezone.now()
    Round.objects.filter(match__table=table).update(deadline=now - timedelta(seconds=1))
    Table.objects.filter(pk=table.pk).update(due_at=now - timedelta(seconds=1))
    snapshots.forget_here()  # the table as this process kept it still has the old deadline
    table.refresh_from_db()
    return table


def versions(tables: list[Table]) -> list[int]:
    return [Table.objects.get(pk=t.pk).version for t in tables]


async def eventually(check: Callable[[], bool], timeout: float = 10) -> None:
    async def poll() -> None:
        while not await sync_to_async(check)():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


async def passes(ticking: background.Clock, count: int, timeout: float = 10) -> None:
    await eventually(lambda: ticking.passes >= count, timeout)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_hung_pass_is_given_up_and_the_next_pass_steps_the_due_tables_on_a_fresh_thread(
        make_member, settings, caplog) -> None:
    settings.TABLE_CLOCK_SECONDS = 0.05
    settings.TABLE_CLOCK_PASS_TIMEOUT = 1.0  # a real pass takes far less, even on a loaded machine
    tables = [await sync_to_async(due_table)(await sync_to_async(make_member)(name)) for name in ("alice", "bob")]
    before = await sync_to_async(versions)(tables)
    release, hung_pass_ended = threading.Event(), threading.Event()
    threads: list[threading.Thread] = []

    def sweep(**kwargs: object) -> datetime | None:
        threads.append(threading.current_thread())
        if len(threads) > 1:
            return clock.sweep()
        began = timezone.now()
        release.wait(30)  # stuck, as on a lock never granted
        try:  # it ends late, with the time it began, as a stuck pass does
            return clock.sweep(now=began)
        finally:
            hung_pass_ended.set()

    ticking = background.start(functools.partial(background.run_pass, sweep, jobs={}))
    assert ticking is not None
    try:
        with caplog.at_level(logging.ERROR, logger=LOG):
            await eventually(lambda: all(a > b for a, b in zip(versions(tables), before, strict=True)))
            await passes(ticking, 1)  # the pass that stepped them may still be on its way out
        stepped = await sync_to_async(versions)(tables)
        assert ticking.hung >= 1 and ticking.passes >= 1
        assert threads[1] is not threads[0]  # the next passes run on a fresh thread
        assert "table clock: a pass has run for" in caplog.text and "TABLE_CLOCK_PASS_TIMEOUT is 1 s" in caplog.text
        passed = ticking.passes
        await passes(ticking, passed + 2)  # and it goes on passing
    finally:
        background.stop()
        release.set()
        await asyncio.to_thread(hung_pass_ended.wait, 10)
    # The given-up pass ended: what it found due when it began had been done since, so it changed nothing.
    assert await sync_to_async(versions)(tables) == stepped


@pytest.mark.asyncio
async def test_passes_given_up_on_are_capped_and_the_clock_goes_on_when_one_ends(settings, monkeypatch,
                                                                                caplog) -> None:
    """Each given-up pass still holds a thread and a database connection: at most MAX_GIVEN_UP of them; then the
    clock waits for one to end rather than start another."""
    settings.TABLE_CLOCK_SECONDS = 0.01
    settings.TABLE_CLOCK_PASS_TIMEOUT = 0.05
    monkeypatch.setattr(background, "MAX_GIVEN_UP", 2)
    release = threading.Event()
    calls: list[int] = []

    def stuck() -> None:
        calls.append(1)
        release.wait(30)

    ticking = background.start(stuck)
    assert ticking is not None
    try:
        with caplog.at_level(logging.ERROR, logger=LOG):
            await eventually(lambda: "2 passes it gave up on are still running; it waits" in caplog.text)
            assert len(calls) == 2 and ticking.hung == 2 and ticking.passes == 0
            assert ticking.health(now=ticking.started + 1) == (
                "no pass has finished for 1 s; 2 passes it gave up on are still running")
            release.set()
            await passes(ticking, 1)
    finally:
        release.set()


class CountingSweep:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1


@pytest.mark.asyncio
async def test_a_cancelled_clock_task_is_started_again_with_no_socket_and_a_stopped_one_is_not(settings,
                                                                                                caplog) -> None:
    settings.TABLE_CLOCK_SECONDS = 0.02
    ticking = background.start(CountingSweep())
    assert ticking is not None
    await passes(ticking, 1)
    first = ticking.task
    assert first is not None
    with caplog.at_level(logging.ERROR, logger=LOG):
        first.cancel()  # by something other than stop()
        passed = ticking.passes
        await passes(ticking, passed + 2)
    assert ticking.task is not first and ticking.restarts == 1
    assert "table clock: its task was cancelled; it starts again" in caplog.text

    background.stop()
    await asyncio.sleep(0)
    stopped_at = ticking.passes
    await asyncio.sleep(ticking.seconds * 5)
    assert ticking.passes == stopped_at and ticking.restarts == 1 and ticking.task.done()


@pytest.mark.asyncio
async def test_a_clock_task_killed_by_an_exception_outside_its_pass_is_started_again(settings, caplog) -> None:
    settings.TABLE_CLOCK_SECONDS = 0.02
    ticking = background.start(CountingSweep())
    assert ticking is not None
    sleep, failed = ticking._sleep, []

    async def sleep_that_fails_once() -> None:
        if not failed:
            failed.append(True)
            raise RuntimeError("the clock's own code choked")
        await sleep()

    ticking._sleep = sleep_that_fails_once  # before its task first runs: the first pass's sleep fails
    with caplog.at_level(logging.ERROR, logger=LOG):
        await passes(ticking, 3)
    assert failed and ticking.restarts == 1
    assert "table clock: its task ended; it starts again" in caplog.text and "choked" in caplog.text
