"""Several processes share the table clock as a queue, and searches run off the clock's thread (issue 40, item 3).

Each process's pass claims the due tables no other process holds; a table whose bot is being searched is leased to
the process searching it until the move is recorded (or the lease runs out: a process that died mid-search strands
nothing); and the searches run on the process's search threads, so a strong bot's long search holds up no other
table's paced bot. Two "processes" are two threads here, each with a search budget of its own, as two processes
have; the bots' searches are the easy bot's move behind a counter (`Decisions`): the tests see which table's search
ran, at which version, how often and on which thread, not the engine.

They commit (the point is what other connections see), so they run with real transactions, on SQLite by default
and on PostgreSQL with DATABASE_URL set (where SKIP LOCKED is what keeps the processes apart)."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import close_old_connections
from django.utils import timezone

from accounts.models import User
from rules.engine.hawk import bot as hawk_bot
from tables.models import Move, Seat, Table
from tables.play import background, search_pool
from tables.play.search_budget import SearchBudget
from tables.play.services import clock, play
from tables.play.services.tables import add_bot, create_table
from tests.tables.helpers import hawk_table, seat_to_act
from tests.tables.play.table_life import TICK, fake_time, moves_at

pytestmark = pytest.mark.django_db(transaction=True)

HORIZON = timedelta(seconds=10)  # a "process" sweeps until nothing is due sooner than this after it started
WAIT = 20.0  # seconds a test waits for something another thread does before it fails (never reached when it works)


class Decisions:
    """Every search-level decision (`Live.decide` for a seat the bot searches), by (table, version, seat) and by
    thread; the move is the easy bot's (fast). `hold_first`: the first search waits until `release` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[tuple[int, int, int], str]] = []
        self.lock = threading.Lock()
        self.searching = threading.Event()
        self.release = threading.Event()
        self.hold_first = False
        real_chooser = hawk_bot.chooser
        real_decide = play.Live.decide
        monkeypatch.setattr(hawk_bot, "chooser", lambda level, seed: real_chooser("easy", seed))

        def decide(live: play.Live, seat: int, level: str | None = None) -> Any:
            if level is None and live.searches(seat):
                with self.lock:
                    first = not self.made
                    self.made.append(((live.table.pk, live.table.version, seat), threading.current_thread().name))
                if first and self.hold_first:
                    self.searching.set()
                    self.release.wait(WAIT * 2)
            return real_decide(live, seat, level)

        monkeypatch.setattr(play.Live, "decide", decide)

    def counts(self) -> Counter[tuple[int, int, int]]:
        return Counter(key for key, _thread in self.made)

    def of(self, table: Table) -> list[tuple[int, int, int]]:
        return [key for key, _thread in self.made if key[0] == table.pk]


@pytest.fixture
def decisions(monkeypatch: pytest.MonkeyPatch) -> Decisions:
    return Decisions(monkeypatch)


def process(name: str, start: datetime, done: threading.Event, errors: list[BaseException]) -> threading.Thread:
    """A serving process's clock, as a thread: passes from `start`, each at the time the last one said, until nothing
    is due before `start + HORIZON`; a search budget of its own, searches on its own thread (no pool)."""

    def run() -> None:
        budget = SearchBudget(share=0.0)
        now = start
        try:
            for _ in range(500):
                next_due = clock.sweep(now=now, budget=budget)
                if next_due is None or next_due > start + HORIZON:
                    return
                now = max(now, next_due)
            raise AssertionError(f"{name} never ran out of work")
        except BaseException as error:
            errors.append(error)
        finally:
            done.set()
            close_old_connections()

    return threading.Thread(target=run, name=name, daemon=True)


def test_two_processes_sweeping_together_run_each_search_once(make_member, decisions, monkeypatch) -> None:
    """The first search waits until the other process has swept all it could: before the lease, that process found
    the table still due (its first step claimed nothing) and ran the very same search again, one of the two results
    thrown away."""
    strong = [hawk_table(make_member(f"s{i}"), level="strong", speed="instant") for i in range(3)]
    easy = [hawk_table(make_member(f"e{i}"), level="easy", speed="brisk") for i in range(3)]
    time = fake_time(monkeypatch)
    start = time.to(max([time.now, *(t.due_at for t in [*strong, *easy])]))
    for table in strong:  # due: the searches go in table order, the same in both budgets
        Table.objects.filter(pk=table.pk).update(due_at=start - timedelta(seconds=1))
    before = {t.pk: moves_at(t).count() for t in [*strong, *easy]}
    decisions.hold_first = True
    done = {"one": threading.Event(), "two": threading.Event()}
    errors: list[BaseException] = []
    threads = {name: process(name, start, done[name], errors) for name in done}

    threads["one"].start()
    assert decisions.searching.wait(WAIT), "the first process never searched"
    threads["two"].start()
    assert done["two"].wait(WAIT), "the second process is stuck behind the first's search"
    decisions.release.set()
    for thread in threads.values():
        thread.join(WAIT)
    assert not errors, errors

    assert [key for key, n in decisions.counts().items() if n > 1] == []  # no search ran twice
    first_search = decisions.made[0]
    assert first_search[1] == "one" and [thread for key, thread in decisions.made if key == first_search[0]] == ["one"]
    for table in [*strong, *easy]:
        moved = list(moves_at(table)[before[table.pk]:])
        assert moved and all(m.actor == Move.Actor.BOT for m in moved), table  # each table's bots played
        assert [m.table_version for m in moved] == sorted({m.table_version for m in moved})
        assert seat_to_act(table) == 0  # up to the member's turn: nothing left undone
    searched = {key[0] for key in decisions.counts()}
    assert searched == {t.pk for t in strong}
    assert {thread for _key, thread in decisions.made} == {"one", "two"}  # both processes searched


class DeadPool:
    """A process's search threads that took the search and died with the process: nothing runs."""

    def __init__(self) -> None:
        self.taken: list[Callable[[], object]] = []

    def free(self) -> int:
        return 1

    def submit(self, job: Callable[[], object]) -> bool:
        self.taken.append(job)
        return True


def test_a_table_leased_by_a_process_that_died_mid_search_is_due_again_when_the_lease_runs_out(
        make_member, decisions, monkeypatch) -> None:
    table = hawk_table(make_member("alice"), level="strong", speed="normal")
    time = fake_time(monkeypatch)
    start = time.to(max(time.now, table.due_at))
    version, before = table.version, moves_at(table).count()

    dead = DeadPool()
    clock.sweep(now=start, budget=SearchBudget(share=0.0), pool=dead)  # type: ignore[arg-type]
    assert len(dead.taken) == 1 and decisions.made == []
    table.refresh_from_db()
    assert table.version == version and table.due_at == start + clock.SEARCH_LEASE  # leased, nothing else

    other = SearchBudget(share=0.0)
    assert clock.sweep(now=start, budget=other) == start + clock.SEARCH_LEASE  # another process leaves it
    time.to(start + clock.SEARCH_LEASE - TICK)
    clock.sweep(now=time.now, budget=other)
    assert decisions.made == [] and moves_at(table).count() == before

    time.to(start + clock.SEARCH_LEASE)  # the lease ran out: any process plays it
    clock.sweep(now=time.now, budget=other)
    assert [key for key, _thread in decisions.made] == [(table.pk, version, seat_to_act_at(table, before))]
    assert [m.actor for m in moves_at(table)[before:]] == [Move.Actor.BOT]


def seat_to_act_at(table: Table, moves_before: int) -> int:
    return moves_at(table)[moves_before].seat


class FakePool:
    """Search threads that take `threads` searches and run none (the test looks at which were handed over)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.taken: list[clock.DueSearch] = []

    def free(self) -> int:
        return self.threads - len(self.taken)

    def submit(self, job: Any) -> bool:
        self.taken.append(job.args[0])
        return True


def test_a_pass_hands_the_budgets_choices_to_the_free_search_threads_and_the_rest_wait(make_member,
                                                                                      decisions) -> None:
    """With two threads free, the two searches the budget puts first go (the member who used least first), each
    table leased, and the third waits until a thread is expected to be free (about a search's time) at the soonest."""
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    tables = {m.username: hawk_table(m, level="strong", speed="instant") for m in (alice, bob, carol)}
    budget = SearchBudget(share=0.0)
    budget.charge(clock.Search(key=0, payers=(alice.pk,)), 5.0)  # Alice searched a lot lately: she goes last
    now = timezone.now() + timedelta(seconds=1)
    pool = FakePool(2)

    clock.sweep(now=now, budget=budget, pool=pool)  # type: ignore[arg-type]

    assert {d.live.table.pk for d in pool.taken} == {tables["bob"].pk, tables["carol"].pk}
    for due in pool.taken:
        assert Table.objects.get(pk=due.live.table.pk).due_at == due.lease >= now + clock.SEARCH_LEASE
    waiting = Table.objects.get(pk=tables["alice"].pk).due_at
    assert waiting is not None and waiting >= now + timedelta(seconds=budget.typical)
    assert decisions.made == []  # nothing searched on the clock's thread


@pytest.fixture
def clock_settings(settings) -> None:
    settings.TABLE_CLOCK_SECONDS = 0.2
    settings.TABLE_SEARCH_THREADS = 1


def offline_easy_table(member: User) -> Table:
    """A brisk table of easy bots whose one member is offline with no grace: the bots play every seat, one move every
    brisk pace, as long as the test runs."""
    table = create_table(creator=member, game="hawk", players=4, bot_level="easy", bot_speed="brisk")
    for _ in range(3):
        add_bot(table_id=table.pk, user=member)
    Seat.objects.filter(table=table, user=member).update(offline_since=timezone.now() - timedelta(seconds=1),
                                                          gone_at=None)
    Table.objects.filter(pk=table.pk).update(grace_seconds=0, due_at=timezone.now())
    return table


def bot_moves(table_id: int) -> int:
    return Move.objects.filter(round__match__table_id=table_id).exclude(actor=Move.Actor.MEMBER).count()


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(int(WAIT / 0.05)):
        if await database_sync_to_async(condition)():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {WAIT:.0f} s")


@pytest.mark.asyncio
async def test_a_long_search_holds_up_no_other_tables_paced_bot(make_member, decisions, clock_settings) -> None:
    """The process's own clock, started as a serving process starts it: while a strong bot's search takes as long as
    it likes (here until the test lets it go), the brisk easy bots at another table go on at their pace."""
    alice, bob = await database_sync_to_async(make_member)("alice"), await database_sync_to_async(make_member)("bob")
    strong = await database_sync_to_async(hawk_table)(alice, level="strong", speed="instant")
    easy = await database_sync_to_async(offline_easy_table)(bob)
    decisions.hold_first = True
    strong_moves = await database_sync_to_async(bot_moves)(strong.pk)
    try:
        try:
            background.start_table_clock()
            assert await asyncio.to_thread(decisions.searching.wait, WAIT), "the strong bot never searched"
            searching_since = await database_sync_to_async(bot_moves)(easy.pk)
            await until(lambda: bot_moves(easy.pk) >= searching_since + 2, "two easy bot moves during the search")
            assert await database_sync_to_async(bot_moves)(strong.pk) == strong_moves  # still searching
        finally:
            decisions.release.set()
        await until(lambda: bot_moves(strong.pk) > strong_moves, "the strong bot's move, once its search ended")
        [first, *_] = decisions.made
        assert first[1].startswith("search")  # on a search thread, not the clock's
    finally:
        pool = search_pool.current()
        background.stop()
        if pool is not None:  # its last search (the table plays on) ends before the test's database goes
            assert await asyncio.to_thread(pool.wait_idle, WAIT)
