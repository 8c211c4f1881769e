"""The table clock's work: whatever is due at a table, done under its lock, one step at a time.

What is due lives in the database (`Table.due_at`, written by every save from `Live.due`), so any process
can do it, a restart picks it up, and two processes never do it twice: each step locks the table and acts
only if the table is still due, and every step is a new version (a second attempt finds nothing due).

Several processes share the work as a queue (issue 40): a pass's step claims the soonest due table that no other
process holds (its row lock taken with SKIP LOCKED on PostgreSQL; SQLite lets one writer at a time in, which
serialises the claims as well), so a table one process is stepping is left to it and the others go on to the next,
instead of waiting on the same lock in the same order and finding it done.

A bot's move at a search level (normal, strong) takes up to a fifth of a second to decide: when the locked step
finds one to act, it leases the table (due again only when the lease runs out, `SEARCH_LEASE`: no process steps it
meanwhile, so no other runs the same search) and commits without deciding; the move is decided off the lock from the
table as that step read it (its version noted), and a second locked step records it only if the table is still at
that version with the same seat to act, which ends the lease. Else it decides nothing under the lock and ends the
lease: the table is due at once and the next pass decides again from what the table has become. A process that dies
mid-search leaves the lease to run out: the table is due again then, for any process. Every other step (an easy bot's
move, a time-out, a deal, presence) is the first locked step alone: nothing is read before the lock for a search that
is not coming.

Searches are the clock's dear work, so a pass does every cheap step first and then hands searches to the process's
search threads (tables.play.search_pool), as many as are free, and goes on: a strong bot's search never holds up
another table's paced bot or a time-out. Which go is the club's search budget's choice (tables.play.search_budget: a
share of one core, the member who used least search time lately first, none waiting longer than a bound); the other
searches due wait, their tables due again when their turn is expected. Without search threads
(`TABLE_SEARCH_THREADS` 0, and the tests' passes) a pass runs one search itself, last. An instant table's
search-level bots come here like any other's (`Live.play_bots` stops at them).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from rules.engine.moves import Move as EngineMove
from tables.models import Move, Seat, Table
from tables.play import push, wakeups
from tables.play.search_budget import Search, SearchBudget
from tables.play.search_pool import SearchPool
from tables.play.services import open_tables, presence, rematch
from tables.play.services.play import Live, deal_next_round, locked_table

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(seconds=5)  # a table whose step failed is tried again this much later
STALE_SWEEP_EVERY = timedelta(seconds=15)
DUE_PER_PASS = 200
# How long a table whose bot is being searched is nobody else's: far longer than a search (a fifth of a second, a few
# on a loaded machine), short enough that a table whose process died mid-search is soon played by another.
SEARCH_LEASE = timedelta(seconds=15)
BUDGET_LOG_EVERY = 60.0  # seconds between the clock's lines about its searches
ALL_OFFLINE = gettext_noop(
    "Every player had been offline for a while: the bots finished the round and the table closed.")
_stale_swept_at: datetime | None = None


def sweep(*, now: datetime | None = None, budget: SearchBudget | None = None,
          pool: SearchPool | None = None) -> datetime | None:
    """Do what is due at every table (a step each), and say when the next thing is due (None: nothing is).

    A table whose step fails is logged and tried again `RETRY_AFTER` later; the others go on. `now` (default: the
    time it is) decides what is due; each step acts as of the time it runs (`_at`): deadlines and paces a step
    writes run from then, however late the pass began.

    One query reads the due tables and, after them, the soonest table not yet due; then each step claims the soonest
    due table no other process is stepping (`_claim_step`), as many as were due, and stops when none is left to it.
    Each step says when its own table is next due, so the pass knows when to look again without asking the database
    a second time. A commit of this process made meanwhile at a table not stepped here wakes the clock itself
    (`wakeups.after_commit`); another process's commit is that process's clock's to see, and this one's next poll
    (`TABLE_CLOCK_SECONDS`) sees it too.

    Searches go through the club's search budget (`budget`, default this process's: `club_budget`): every cheap
    step of the pass comes first, then the searches the budget chooses, one for each free thread of `pool` (this
    process's search threads; without one, a single search, run here); the other due searches wait, their tables due
    again when the budget says their turn comes (`_wait`)."""
    global _stale_swept_at
    now = now or timezone.now()
    budget = budget or club_budget()
    if _stale_swept_at is None or now - _stale_swept_at >= STALE_SWEEP_EVERY or now < _stale_swept_at:
        _stale_swept_at = now
        try:
            presence.forget_stale_sockets(now=now)
        except Exception:
            log.exception("table clock: sweeping stale sockets failed")
    # Ordered by due_at (indexed): the due tables first, then the one after them, the soonest not due yet (or, if
    # more than a pass's worth are due, one still due: the next pass starts at once).
    soonest = list(Table.objects.filter(due_at__isnull=False).order_by("due_at")
                   .values_list("pk", "due_at")[:DUE_PER_PASS + 1])
    due = [table_id for table_id, due_at in soonest[:DUE_PER_PASS] if due_at <= now]
    times = [due_at for _table_id, due_at in soonest[len(due):len(due) + 1]]
    searches: dict[int, DueSearch] = {}
    passed: set[int] = set()  # stepped (or failed) in this pass: not claimed again in it
    for _listed in due:
        at = _at(now)
        try:
            claimed = _claim_step(now=at, passed=passed)
        except StepFailed as failure:
            passed.add(failure.table_id)
            times.append(_failed(failure.table_id, at))
            continue
        if claimed is None:
            break  # the tables still due are held by other processes' steps: theirs, not this pass's
        table_id, stepped = claimed
        passed.add(table_id)
        if stepped.to_decide is None:
            times.append(stepped.due_at)
        else:
            live, seat = stepped.to_decide
            assert stepped.due_at is not None  # the lease
            searches[table_id] = DueSearch(search=Search(key=table_id, payers=payers(live)), live=live, seat=seat,
                                           lease=stepped.due_at)
    times += _start_searches(searches, now=now, budget=budget, pool=pool)
    _log_budget(budget)
    present = [at for at in times if at is not None]
    return min(present) if present else None


@dataclass(frozen=True)
class DueSearch:
    """A search a first step found due: for `seat` at the table as `live` read it, the table leased until `lease`."""

    search: Search
    live: Live
    seat: int
    lease: datetime


def _start_searches(due: dict[int, DueSearch], *, now: datetime, budget: SearchBudget,
                    pool: SearchPool | None) -> list[datetime | None]:
    """The pass's searches: one for each free search thread (without a pool, one, run here and now), the ones the
    budget chooses, each recorded by its own locked step; the others wait their turn (`_wait`), no sooner than a
    thread is expected to be free. They are told so first: no table waits under this pass's lease while it searches
    (another process may take it). When each of the tables next needs a look."""
    slots = pool.free() if pool is not None else 1
    chosen: list[DueSearch] = []
    while due and len(chosen) < slots:
        choice = budget.choose([d.search for d in due.values()])
        if choice is None:
            break
        budget.begin(choice)  # counted from now: the next choice and the order of those waiting know of it
        chosen.append(due.pop(choice.key))
    times: list[datetime | None] = []
    if due:
        busy = pool is not None and len(chosen) >= slots  # every thread searching: one is free in about a search's time
        waits = budget.waits([d.search for d in due.values()], not_before=budget.typical if busy else 0.0)
        times += [_wait(key, lease=due[key].lease, until=now + timedelta(seconds=wait)) for key, wait in waits.items()]
    for search in chosen:
        if pool is None:
            times.append(_search(search, now=now, budget=budget))
        elif pool.submit(functools.partial(_search, search, now=now, budget=budget)):
            times.append(search.lease)  # its recording step's commit wakes the clock; if it never comes, the lease ends
        else:  # the pool stopped (the process is stopping): due again at once, for any process
            budget.cancel(search.search)
            times.append(_wait(search.search.key, lease=search.lease, until=now))
    return times


def _search(due: DueSearch, *, now: datetime, budget: SearchBudget) -> datetime | None:
    """One search, charged to the budget, and the locked step that records it (on a search thread, or on the clock's
    own); a failure is logged and the table tried again `RETRY_AFTER` later. When the table is next due."""
    try:
        return _decide_and_record(due.live, due.seat, at=lambda: _at(now), budget=budget, search=due.search,
                                  lease=due.lease).due_at
    except Exception:
        return _failed(due.search.key, _at(now), lease=due.lease)


def _at(now: datetime) -> datetime:
    """The time of a step of a pass that began at `now`: the time it is when the step runs (a step late in a pass,
    after long steps or a search, must not stamp a member's new turn, or a bot's pace, with a time already gone by),
    never before `now` (tests sweep at a time of their choosing)."""
    return max(now, timezone.now())


_logged: tuple[float, int, float, int] | None = None  # (when, searches, seconds, waits) at the last log line


def _log_budget(budget: SearchBudget) -> None:
    """Once a minute, while bots search: how many searches ran, their CPU time and how often one had to wait, so
    an operator sees the budget at work (and whether TABLE_SEARCH_SHARE is too tight)."""
    global _logged
    at = time.monotonic()
    if _logged is None or at < _logged[0] or budget.searches < _logged[1]:  # the first pass, or a new budget
        _logged = (at, budget.searches, budget.seconds, budget.waited)
        return
    when, searches, seconds, waited = _logged
    if at - when < BUDGET_LOG_EVERY or budget.searches == searches:
        return
    log.info("table clock: %d searches (%.1f s of CPU) and %d waits in the last %.0f s; budget %.2f s",
             budget.searches - searches, budget.seconds - seconds, budget.waited - waited, at - when, budget.tokens())
    _logged = (at, budget.searches, budget.seconds, budget.waited)


def _failed(table_id: int, now: datetime, *, lease: datetime | None = None) -> datetime | None:
    """A table whose step (or search, which leased it until `lease`) failed: logged, and due again `RETRY_AFTER`
    later; when it is next due."""
    log.exception("table clock: table %s failed; trying again in %s s", table_id, RETRY_AFTER.seconds)
    retry = now + RETRY_AFTER
    ours = Q(due_at__lte=now) | Q(due_at=lease) if lease is not None else Q(due_at__lte=now)
    if Table.objects.filter(ours, pk=table_id).update(due_at=retry):
        return retry
    # the table moved on meanwhile (rare): when it is due is what its row now says
    return Table.objects.filter(pk=table_id).values_list("due_at", flat=True).first()


def _wait(table_id: int, *, lease: datetime, until: datetime) -> datetime | None:
    """A search the budget keeps waiting: its table, leased by its first step until `lease`, is due again `until`
    instead, if nothing else has changed when it is due since (else when it is due is what its row now says).
    Nothing else changes: no version, no push."""
    if Table.objects.filter(pk=table_id, due_at=lease).update(due_at=until):
        return until
    return Table.objects.filter(pk=table_id).values_list("due_at", flat=True).first()


def payers(live: Live) -> tuple[int | None, ...]:
    """Whom a search at this table serves, and is charged to: the members seated there who have not left (offline
    or not: their table plays on for them), else the table's creator, else the house (None)."""
    members = sorted({s.user_id for s in live.seats if s.user_id is not None and not s.away})
    if members:
        return tuple(members)
    return (live.table.created_by_id,) if live.table.created_by_id is not None else (None,)


_budget: SearchBudget | None = None


def club_budget() -> SearchBudget:
    """This process's search budget (`TABLE_SEARCH_SHARE` of one core), kept from pass to pass: one per serving
    process, as the clock is (a new one when the setting changes, as in tests)."""
    global _budget
    share = settings.TABLE_SEARCH_SHARE
    if _budget is None or _budget.share != share:
        _budget = SearchBudget(share=share)
    return _budget


@dataclass(frozen=True)
class Planned:
    """A search-level bot move decided off the lock: for `seat`, at the table's `version`."""

    version: int
    seat: int
    move: EngineMove
    lease: datetime | None = None  # until when its first step leased the table


def bot_step(live: Live) -> tuple[int, str] | None:
    """(seat, actor) when the step at a running table whose round is on is a bot's move: the seat to act is one
    the bot plays now (a bot's, left, offline past the grace) and its pace has come, or a member's whose time
    ran out."""
    seat = live.seat_to_act()
    if seat is None:
        return None
    if live.stands_in(live.seats[seat]):
        return (seat, live.stand_in_actor(seat)) if live.bot_due() <= live.now else None
    if live.round.deadline is not None and live.round.deadline <= live.now:
        return seat, Move.Actor.TIMEOUT
    return None


@dataclass(frozen=True)
class Stepped:
    """What a locked step did: whether the table changed, when it is next due as the step left it, and, when it
    found a search-level bot to act and had no move decided for it, the table as it read it (`to_decide`: the
    table, committed and unlocked by then, and the seat), from which that move is decided off the lock."""

    changed: bool
    due_at: datetime | None  # with `to_decide`: when the table's lease runs out
    to_decide: tuple[Live, int] | None = None


class StepFailed(Exception):
    """A claimed table's step raised (and its transaction rolled back): which table, so that it is retried."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"the step at table {table_id} failed")
        self.table_id = table_id


def advance(*, table_id: int, now: datetime | None = None) -> bool:
    """One step at a table that is due: its members' presence as it now stands, then one of: the table closes
    (every member long gone), the next round is dealt (the pause ran out), the bot makes one move (for a bot,
    a member who left, or one offline past the grace), or the bot plays for a member whose time ran out.
    A search-level bot's move is decided outside any transaction, from the table as the locked step read it (the
    table leased meanwhile), and recorded by a second locked step only if the table has not moved since; else the
    table is due at once and the next pass decides again. Returns whether the table changed."""
    return _advance(table_id=table_id, now=now or timezone.now()).changed


def _advance(*, table_id: int, now: datetime) -> Stepped:
    """`advance`, saying also when the table is next due. Its search is not the budget's: `advance` is one step at
    one table, for tests and tools; the clock's passes (`sweep`) go through the budget."""
    stepped = _step(table_id=table_id, now=now, planned=None)
    if stepped.to_decide is None:
        return stepped
    live, seat = stepped.to_decide
    recorded = _decide_and_record(live, seat, at=lambda: now, lease=stepped.due_at)
    return Stepped(changed=stepped.changed or recorded.changed, due_at=recorded.due_at)


def _decide_and_record(live: Live, seat: int, *, at: Callable[[], datetime], budget: SearchBudget | None = None,
                       search: Search | None = None, lease: datetime | None = None) -> Stepped:
    """The search for `seat` at the table as a first locked step read it, then the second locked step that records
    it, as of `at()`, read once the search is done. With a `budget`, the search's time is charged to `search`'s
    payers (even if it fails)."""
    # No transaction is open here and no lock held: the search may take a fifth of a second.
    if budget is not None and search is not None:
        with budget.spend(search):
            move = live.decide(seat)
    else:
        move = live.decide(seat)
    planned = Planned(version=live.table.version, seat=seat, move=move, lease=lease)
    return _step(table_id=live.table.pk, now=at(), planned=planned)


@push.batched
def _step(*, table_id: int, now: datetime, planned: Planned | None) -> Stepped:
    """One locked step at the table of `table_id` (see `advance`), if it is due; a recording step (`planned`) acts
    at the table its first step leased as long as it is at the plan's version or still under that lease. Its pushes
    leave when it returns: a presence change made by a first step that hands a search over is not held back while
    the bot thinks."""
    with transaction.atomic():
        table = locked_table(table_id)
        if planned is not None and table.version != planned.version:
            log.info("table clock: table %s moved on (version %s to %s) while its bot searched; the move is not "
                     "recorded", table.pk, planned.version, table.version)
        ours = planned is not None and (table.version == planned.version or table.due_at == planned.lease)
        if not ours and (table.due_at is None or table.due_at > now):
            return Stepped(changed=False, due_at=table.due_at)
        return _locked_step(table, now=now, planned=planned)


@push.batched
def _claim_step(*, now: datetime, passed: Collection[int]) -> tuple[int, Stepped] | None:
    """A first step at the soonest table due by `now` that no other process is stepping and this pass has not
    (`passed`): (its id, the step); None when there is none. The claim is the step's own row lock, taken with SKIP
    LOCKED where the database has it: a table another process holds is passed over, not waited for. (SQLite has no
    row locks and needs none: one writer at a time, and this transaction is one from its start.) A step that raises
    is rolled back whole and raises `StepFailed` with its table."""
    with transaction.atomic():
        rows = Table.objects.filter(due_at__lte=now).exclude(pk__in=list(passed)).order_by("due_at")
        table = rows.select_for_update(skip_locked=connection.features.has_select_for_update_skip_locked).first()
        if table is None:
            return None
        try:
            return table.pk, _locked_step(table, now=now, planned=None)
        except Exception as error:
            raise StepFailed(table.pk) from error


def _locked_step(table: Table, *, now: datetime, planned: Planned | None) -> Stepped:
    """The step at a table locked by the caller's transaction (see `advance`). A member's pending move (their premove,
    or their only card: tables.play.autoplay) comes before a time-out: it is due long before their time runs out."""
    if table.status == Table.Status.OPEN:
        return _open_table_presence(table, now)
    if table.status == Table.Status.FINISHED:
        changed, due_at = rematch.expire_due(table, now=now)  # a rematch whose members are no longer waited for
        return Stepped(changed=changed, due_at=due_at)
    if table.status != Table.Status.RUNNING:
        Table.objects.filter(pk=table.pk).update(due_at=None)
        return Stepped(changed=False, due_at=None)
    live = Live.load(table, now=now)
    changed = live.presence_due()
    to_decide = None
    if live.everyone_gone():
        live.close_for_nobody(ALL_OFFLINE)
    elif live.round.over:
        pause_over = live.round.deadline is not None and live.round.deadline <= now
        # the pause (or the wait for a member who is away) ran out, or the last member not ready went offline and
        # everyone still here is ready (and nobody is waited for)
        everyone_ready = changed and not live.waiting_for_ready() and not live.waiting_for_away()
        if not live.match.over and (pause_over or everyone_ready):
            deal_next_round(live)  # deals and saves
            return Stepped(changed=True, due_at=live.table.due_at)
    elif live.play_auto():  # the member's premove or only card, its pause over (tables.play.autoplay)
        live.play_bots()
    elif (step := bot_step(live)) is not None:
        seat, actor = step
        if not live.searches(seat):
            live.bot_move(seat, actor)  # the heuristics: a millisecond, fine under the lock
            if actor == Move.Actor.TIMEOUT:
                live.missed_deadline(seat)
            live.play_bots()  # an instant table goes on at once (with its easy bots)
        elif planned is None:
            to_decide = (live, seat)  # decided off the lock (`_advance`, `sweep`), from the table as read here
        elif planned.version == live.loaded_version and planned.seat == seat:
            live.record(seat, planned.move, actor)
            if actor == Move.Actor.TIMEOUT:
                live.missed_deadline(seat)
            live.play_bots()
        # else the plan is for a table that has moved on: nothing is decided under the lock; the table is due (its
        # lease ended below) and the next pass decides from the table as it is now
    if to_decide is not None:
        if changed:
            live.save()  # the presence it found shows at once, before the bot thinks
        lease = now + SEARCH_LEASE  # no other process steps it (and searches for it) until the move is recorded
        Table.objects.filter(pk=table.pk).update(due_at=lease)
        return Stepped(changed=changed, due_at=lease, to_decide=to_decide)
    if changed or live.made or live.table.status != Table.Status.RUNNING:
        live.save()
        return Stepped(changed=True, due_at=live.table.due_at)
    due_at = live.due()
    Table.objects.filter(pk=table.pk).update(due_at=due_at)  # woken early: nothing to show yet (or a lease ends)
    if planned is not None and due_at is not None:
        wakeups.after_commit(due_at)  # a plan not recorded, on a search thread: the clock decides again when it is due
    return Stepped(changed=False, due_at=due_at)


def _open_table_presence(table: Table, now: datetime) -> Stepped:
    """At a table still filling, the clock shows who is offline now (a new version) and closes the table once
    nobody has been at it for a while (tables.play.services.open_tables); it is next due when the next member's
    absence starts to show or the table would close, whichever comes first."""
    flipped = 0
    for seat in Seat.objects.filter(table=table, gone_at__lte=now):
        flipped += Seat.objects.filter(pk=seat.pk).update(offline_since=seat.gone_at, gone_at=None)
    closed, due_at = open_tables.close_or_next_due(table, now=now)
    if closed:
        return Stepped(changed=True, due_at=None)
    if not flipped:
        Table.objects.filter(pk=table.pk).update(due_at=due_at)
        return Stepped(changed=False, due_at=due_at)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1, due_at=due_at)
    table.version += 1
    push.table_changed(table)
    return Stepped(changed=True, due_at=due_at)

