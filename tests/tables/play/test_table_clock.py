"""The table clock: deadlines, the pause between rounds and presence are the server's, done with no page open;
a table whose step fails is retried and holds up no other; the clock's task outlives a pass that fails."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from tables.models import Move, Round, Table
from tables.play import background, wakeups
from tables.play.services import clock, play, presence
from tests.tables.helpers import current_round, full_table, play_one, seat_to_act, watching
from tests.tables.play.table_life import TICK, close_page, due, fake_time, moves_at, seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _stale_sockets_swept_on_the_next_pass(monkeypatch) -> None:
    """`sweep` forgets stale sockets at most every 15 s of its own time; each test starts with none swept."""
    monkeypatch.setattr(clock, "_stale_swept_at", None)


def finished_round(game: str, members: list, bots: int, seed: int = 5) -> Table:
    table = full_table(game, members, bots=bots)
    watching(table, *members)
    rng = random.Random(seed)
    for _ in range(5000):
        if not play_one(table, dict(enumerate(members)), rng):
            break
    assert current_round(table).over and not current_round(table).match.over
    table.refresh_from_db()
    return table


def paced_bot_table(make_member, settings, name: str) -> Table:
    """A table where a bot is to act next, at normal pace."""
    settings.TABLE_BOT_SPEED = "normal"
    member = make_member(name)
    table = full_table("hawk", [member], bots=3)
    watching(table, member)
    for _ in range(10):
        if seat_to_act(table) != 0:
            return table
        clock.advance(table_id=table.pk, now=due(table))  # the member's time runs out: the bot plays for them
    raise AssertionError("a bot never came to act")


# --- deadlines and the pause, with no page open ---------------------------------------------------------------

def test_a_late_turn_is_played_at_its_deadline_with_no_socket_to_time_it(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)  # their rows, as other processes' sockets would leave them: no timer anywhere
    seat = seat_to_act(table)
    deadline = current_round(table).deadline
    assert due(table) <= deadline  # (it was due when they would have counted as offline: they are not)
    assert clock.sweep(now=deadline - TICK) == deadline  # not yet: and it says when
    assert not moves_at(table).exists()
    next_due = clock.sweep(now=deadline)
    assert [(m.seat, m.actor) for m in moves_at(table)] == [(seat, Move.Actor.TIMEOUT)]
    assert current_round(table).deadline == deadline + timedelta(seconds=table.turn_seconds)
    assert next_due == due(table) == current_round(table).deadline


def test_an_offline_member_whose_time_runs_out_before_the_grace_gets_the_timeout(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    Table.objects.filter(pk=table.pk).update(grace_seconds=120)
    seat = seat_to_act(table)
    late = [alice, bob][seat]
    close_page(table, late)
    gone = seat_of(table, late).gone_at
    assert clock.advance(table_id=table.pk, now=gone)  # offline now; the bot waits for the grace
    deadline = current_round(table).deadline
    assert deadline < gone + timedelta(seconds=120)
    assert due(table) == deadline
    assert clock.advance(table_id=table.pk, now=deadline)
    assert [(m.seat, m.actor) for m in moves_at(table)] == [(seat, Move.Actor.TIMEOUT)]


def test_the_pause_between_rounds_ends_with_the_next_deal_and_no_page_open(make_member) -> None:
    alice = make_member("alice")
    table = finished_round("hawk", [alice], bots=3)
    pause_end = current_round(table).deadline
    assert due(table) == pause_end
    clock.sweep(now=pause_end - TICK)
    assert current_round(table).number == 1
    next_due = clock.sweep(now=pause_end)
    assert current_round(table).number == 2
    assert next_due == due(table) is not None


def test_ready_deals_at_once_when_every_member_present_is_ready_and_waits_for_no_one_offline(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished_round("hawk", [alice, bob, carol], bots=1)
    # bob is online and not ready: alice's ready waits for him
    play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
    assert current_round(table).number == 1
    # bob ready, carol's page closed and her absence shown: nobody present is left to wait for
    table.refresh_from_db()
    play.ready_for_next_round(table_id=table.pk, user=bob, expected_version=table.version)
    assert current_round(table).number == 1  # carol is still online then
    close_page(table, carol)
    clock.advance(table_id=table.pk, now=seat_of(table, carol).gone_at)
    assert seat_of(table, carol).offline_since is not None
    # carol was the last one not ready: once she shows offline everyone here is ready, and the clock deals
    assert current_round(table).number == 2


def test_ready_after_an_offline_member_deals_at_once(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished_round("hawsker", [alice, bob], bots=0)
    close_page(table, bob)
    clock.advance(table_id=table.pk, now=seat_of(table, bob).gone_at)
    assert current_round(table).number == 1  # alice is not ready yet
    table.refresh_from_db()
    play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
    assert current_round(table).number == 2


def test_a_member_gone_for_a_moment_is_still_waited_for(make_member) -> None:
    """A closed page is a reload for two seconds: until the clock shows them offline, they count as present."""
    alice, bob = make_member("alice"), make_member("bob")
    table = finished_round("hawsker", [alice, bob], bots=0)
    close_page(table, bob)
    play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
    assert current_round(table).number == 1


# --- the sweep: every due table a step, a failing one retried ------------------------------------------------

def test_a_sweep_does_each_due_table_once_and_leaves_the_others(make_member, settings) -> None:
    first = paced_bot_table(make_member, settings, "alice")
    second = paced_bot_table(make_member, settings, "bob")
    later = paced_bot_table(make_member, settings, "carol")
    when = max(due(first), due(second))
    Table.objects.filter(pk=later.pk).update(due_at=when + timedelta(seconds=30))
    counts = {t.pk: moves_at(t).count() for t in (first, second, later)}
    next_due = clock.sweep(now=when)
    assert moves_at(first).count() == counts[first.pk] + 1
    assert moves_at(second).count() == counts[second.pk] + 1
    assert moves_at(later).count() == counts[later.pk]
    assert next_due == min(due(first), due(second), due(later))


def test_a_table_that_fails_is_logged_the_others_go_on_and_it_is_retried(make_member, settings, monkeypatch,
                                                                         caplog) -> None:
    broken = paced_bot_table(make_member, settings, "alice")
    fine = paced_bot_table(make_member, settings, "bob")
    time = fake_time(monkeypatch)  # the steps run at `when` (not later, on a slow machine): the retry is from then
    when = time.to(max(due(broken), due(fine), time.now))
    counts = {t.pk: moves_at(t).count() for t in (broken, fine)}
    real = clock._locked_step
    failing = {broken.pk}

    def step(table: Table, *, now: datetime, planned: clock.Planned | None) -> clock.Stepped:
        if table.pk in failing:
            raise RuntimeError("the engine choked")
        return real(table, now=now, planned=planned)

    monkeypatch.setattr(clock, "_locked_step", step)
    with caplog.at_level(logging.ERROR, logger="tables.play.services.clock"):
        clock.sweep(now=when)
    assert f"table {broken.pk} failed" in caplog.text and "the engine choked" in caplog.text
    assert moves_at(fine).count() == counts[fine.pk] + 1
    assert moves_at(broken).count() == counts[broken.pk]
    assert due(broken) == when + clock.RETRY_AFTER
    failing.clear()  # whatever it was has passed
    clock.sweep(now=when + clock.RETRY_AFTER - TICK)
    assert moves_at(broken).count() == counts[broken.pk]
    clock.sweep(now=when + clock.RETRY_AFTER)
    assert moves_at(broken).count() == counts[broken.pk] + 1


def test_a_failed_round_step_changes_nothing_at_the_table(make_member, settings, monkeypatch) -> None:
    """A failure inside the step (here the bot) rolls the whole step back: no move, no version, same round."""
    table = paced_bot_table(make_member, settings, "alice")
    table.refresh_from_db()
    time = fake_time(monkeypatch)  # the step runs at `when`, not later on a slow machine: the retry is from then
    version, when = table.version, time.to(max(table.due_at, time.now))
    rnd = current_round(table)

    def bot_fails(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the bot choked")

    monkeypatch.setattr(play.Live, "bot_move", bot_fails)
    clock.sweep(now=when)
    table.refresh_from_db()
    assert table.version == version
    assert Round.objects.get(pk=rnd.pk).moves_made == rnd.moves_made
    assert table.due_at == when + clock.RETRY_AFTER


def test_stale_sockets_failing_to_sweep_hold_up_no_table(make_member, settings, monkeypatch, caplog) -> None:
    table = paced_bot_table(make_member, settings, "alice")
    count = moves_at(table).count()

    def broken(**kwargs: object) -> int:
        raise RuntimeError("no such table: tables_tablesocket")

    monkeypatch.setattr(presence, "forget_stale_sockets", broken)
    with caplog.at_level(logging.ERROR, logger="tables.play.services.clock"):
        clock.sweep(now=due(table))
    assert "sweeping stale sockets failed" in caplog.text
    assert moves_at(table).count() == count + 1


def test_a_finished_table_is_due_no_more(make_member) -> None:
    alice = make_member("alice")
    table = full_table("hawsker", [alice], bots=1)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert not clock.advance(table_id=table.pk, now=due(table))
    assert due(table) is None


# --- the clock's task ------------------------------------------------------------------------------------------

async def _until(event: asyncio.Event) -> None:
    await asyncio.wait_for(event.wait(), 10)


async def _passes(ticking: background.Clock, count: int) -> None:
    """Until the clock has finished `count` passes (and planned the next: it does so before it next awaits)."""
    async def done() -> None:
        while ticking.passes < count:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(done(), 10)


async def _stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


class FakeSweep:
    """A sweep that counts its passes (from the clock's thread) and fails those it is told to."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, fail: frozenset[int] = frozenset(),
                 next_due: dict[int, timedelta] | None = None) -> None:
        self.loop, self.fail, self.next_due = loop, fail, next_due or {}
        self.passes = 0
        self.reached: dict[int, asyncio.Event] = {n: asyncio.Event() for n in range(1, 6)}

    def __call__(self) -> datetime | None:
        self.passes += 1
        number = self.passes
        if number in self.reached:
            self.loop.call_soon_threadsafe(self.reached[number].set)
        if number in self.fail:
            raise RuntimeError(f"pass {number} failed")
        ahead = self.next_due.get(number)
        return timezone.now() + ahead if ahead is not None else None


@pytest.mark.asyncio
async def test_the_clock_survives_a_pass_that_raises_and_calls_again(caplog) -> None:
    loop = asyncio.get_running_loop()
    sweep = FakeSweep(loop, fail=frozenset({1}))
    ticking = background.Clock(sweep=sweep, seconds=0.01, loop=loop)
    task = loop.create_task(ticking.run())
    try:
        with caplog.at_level(logging.ERROR, logger="tables.play.background"):
            await _until(sweep.reached[3])
    finally:
        await _stopped(task)
    assert "table clock: a pass failed" in caplog.text
    assert "pass 1 failed" in caplog.text
    assert ticking.passes >= 2


@pytest.mark.asyncio
async def test_a_wake_brings_the_next_pass_forward() -> None:
    loop = asyncio.get_running_loop()
    sweep = FakeSweep(loop)
    ticking = background.Clock(sweep=sweep, seconds=3600, loop=loop)  # left alone it would look in an hour
    task = loop.create_task(ticking.run())
    try:
        await _passes(ticking, 1)
        assert ticking.planned > timezone.now() + timedelta(minutes=30)
        # from another thread, as a commit in a request's thread does
        await asyncio.to_thread(ticking.wake, timezone.now())
        await _passes(ticking, 2)
        planned = ticking.planned
        await asyncio.to_thread(ticking.wake, planned + timedelta(hours=1))  # later than planned: changes nothing
        assert ticking.planned == planned
        assert sweep.passes == 2
    finally:
        await _stopped(task)


@pytest.mark.asyncio
async def test_the_clock_looks_again_when_the_sweep_says_something_is_due() -> None:
    loop = asyncio.get_running_loop()
    sweep = FakeSweep(loop, next_due={1: timedelta(milliseconds=20)})
    task = loop.create_task(background.Clock(sweep=sweep, seconds=3600, loop=loop).run())
    try:
        await _until(sweep.reached[2])
    finally:
        await _stopped(task)


@pytest.mark.asyncio
async def test_the_process_clock_starts_once_per_loop_and_is_woken_by_the_processs_wakeups(settings) -> None:
    settings.TABLE_CLOCK_SECONDS = 0
    assert background.start(lambda: None) is None  # "never"
    settings.TABLE_CLOCK_SECONDS = 3600
    loop = asyncio.get_running_loop()
    sweep = FakeSweep(loop)
    try:
        ticking = background.start(sweep)
        assert ticking is not None and background.start(sweep) is ticking
        await _until(sweep.reached[1])
        wakeups.wake(timezone.now())  # as a commit of this process does (tables.play.wakeups.after_commit)
        await _until(sweep.reached[2])
    finally:
        background.stop()
        await asyncio.sleep(0)
    wakeups.wake(timezone.now())  # a stopped clock is not woken (and nothing fails)


def test_a_slow_part_of_a_pass_is_logged_with_its_name_and_the_others_are_not(caplog) -> None:
    """Every paced bot of the process waits for the pass: a part that holds it up says so in the log."""
    moments = iter([0.0, 0.1, 10.0, 13.5])  # "tables" 0.1 s, then "slow" 3.5 s, by the clock run_pass reads
    soon = timezone.now()
    with caplog.at_level(logging.WARNING, logger="tables.play.background"):
        assert background.run_pass(lambda: None, jobs={"slow": lambda: soon},
                                   monotonic=lambda: next(moments)) == soon
    assert "table clock: slow took 3.5 s of a pass" in caplog.text
    assert "tables took" not in caplog.text
