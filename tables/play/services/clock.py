"""The table clock's work: whatever is due at a table, done under its lock, one step at a time.

What is due lives in the database (`Table.due_at`, written by every save from `Live.due`), so any process
can do it, a restart picks it up, and two processes never do it twice: each step locks the table and acts
only if the table is still due, and every step is a new version (a second attempt finds nothing due).

A bot's move at a search level (normal, strong) takes up to a fifth of a second to decide: the step decides
it first, with no transaction open, from the table as it stands (its version noted), and records it under
the lock only if the table is still at that version with the same seat to act. Else it decides nothing under
the lock: the table stays due and the next pass decides again from what the table has become.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext_noop

from rules.engine.moves import Move as EngineMove
from tables.models import Move, Seat, Table
from tables.play import push
from tables.play.services import presence
from tables.play.services.errors import TableError
from tables.play.services.play import Live, _next_round, locked_table, searching_bot

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(seconds=5)  # a table whose step failed is tried again this much later
STALE_SWEEP_EVERY = timedelta(seconds=15)
DUE_PER_PASS = 200
ALL_OFFLINE = gettext_noop(
    "Every player had been offline for a while: the bots finished the round and the table closed.")
_stale_swept_at: datetime | None = None


def sweep(*, now: datetime | None = None) -> datetime | None:
    """Do what is due at every table (a step each), and say when the next thing is due (None: nothing is).

    A table whose step fails is logged and tried again `RETRY_AFTER` later; the others go on."""
    global _stale_swept_at
    now = now or timezone.now()
    if _stale_swept_at is None or now - _stale_swept_at >= STALE_SWEEP_EVERY or now < _stale_swept_at:
        _stale_swept_at = now
        try:
            presence.forget_stale_sockets(now=now)
        except Exception:
            log.exception("table clock: sweeping stale sockets failed")
    due = list(Table.objects.filter(due_at__lte=now).order_by("due_at").values_list("pk", flat=True)[:DUE_PER_PASS])
    for table_id in due:
        try:
            advance(table_id=table_id, now=now)
        except Exception:
            log.exception("table clock: table %s failed; trying again in %s s", table_id, RETRY_AFTER.seconds)
            Table.objects.filter(pk=table_id, due_at__lte=now).update(due_at=now + RETRY_AFTER)
    return Table.objects.filter(due_at__isnull=False).aggregate(next=Min("due_at"))["next"]


@dataclass(frozen=True)
class Planned:
    """A search-level bot move decided off the lock: for `seat`, at the table's `version`."""

    version: int
    seat: int
    move: EngineMove


def bot_step(live: Live) -> tuple[int, str] | None:
    """(seat, actor) when the step at a running table whose round is on is a bot's move: the seat to act is one
    the bot plays now (a bot's, left, offline past the grace) and its pace has come, or a member's whose time
    ran out. The plan and the locked step ask the same question of the same table."""
    seat = live.seat_to_act()
    if seat is None:
        return None
    if live.stands_in(live.seats[seat]):
        return (seat, live.stand_in_actor(seat)) if live.bot_due() <= live.now else None
    if live.round.deadline is not None and live.round.deadline <= live.now:
        return seat, Move.Actor.TIMEOUT
    return None


def plan(*, table_id: int, now: datetime) -> Planned | None:
    """With no transaction open and no lock: the move the step at the table is about to need, when that is a
    search-level bot's (None for anything else, cheap or not a move). Read without the lock, the table may be
    a moment old or may change while this decides: the step records the move only at the version noted here."""
    table = Table.objects.filter(pk=table_id, due_at__lte=now, status=Table.Status.RUNNING).first()
    if table is None or not searching_bot(table.game):
        return None
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("position"))
    if all(seat.level_at(table) == Table.BotLevel.EASY for seat in seats):
        return None  # the usual easy table: nothing to decide ahead
    try:
        live = Live.load(table, seats, now=now)
    except TableError:  # no round yet: the step under the lock sees to that
        return None
    live.presence_due(write=False)
    if live.everyone_gone() or live.round.over or live.match.over:
        return None
    step = bot_step(live)
    if step is None or not live.searches(step[0]):
        return None
    seat = step[0]
    return Planned(version=table.version, seat=seat, move=live.decide(seat))


@push.batched
def advance(*, table_id: int, now: datetime | None = None) -> bool:
    """One step at a table that is due: its members' presence as it now stands, then one of: the table closes
    (every member long gone), the next round is dealt (the pause ran out), the bot makes one move (for a bot,
    a member who left, or one offline past the grace), or the bot plays for a member whose time ran out.
    A search-level bot's move is decided first, outside any transaction (`plan`), and recorded only if the
    table has not moved since; else the table stays due and the next pass plans again.
    Returns whether the table changed."""
    now = now or timezone.now()
    planned = plan(table_id=table_id, now=now)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.due_at is None or table.due_at > now:
            return False
        if table.status == Table.Status.OPEN:
            return _open_table_presence(table, now)
        if table.status != Table.Status.RUNNING:
            Table.objects.filter(pk=table.pk).update(due_at=None)
            return False
        live = Live.load(table, now=now)
        changed = live.presence_due()
        if live.everyone_gone():
            live.close_for_nobody(ALL_OFFLINE)
        elif live.round.over:
            pause_over = live.round.deadline is not None and live.round.deadline <= now
            # the pause ran out, or the last member not ready went offline and everyone still here is ready
            if not live.match.over and (pause_over or (changed and not live.waiting_for_ready())):
                _next_round(live)  # deals and saves
                return True
        elif (step := bot_step(live)) is not None:
            seat, actor = step
            if not live.searches(seat):
                live.bot_move(seat, actor)  # the heuristics: a millisecond, fine under the lock
                live.play_bots()  # an instant table goes on at once (with its easy bots)
            elif planned is not None and planned.version == live.loaded_version and planned.seat == seat:
                live.record(seat, planned.move, actor)
                live.play_bots()
            # else the plan is for a table that has moved on (or there was none): nothing is decided under the
            # lock; the table stays due and the next pass plans from the table as it is now
        if changed or live.made or live.table.status != Table.Status.RUNNING:
            live.save()
            return True
        Table.objects.filter(pk=table.pk).update(due_at=live.due())  # woken early: nothing to show yet
        return False


def _open_table_presence(table: Table, now: datetime) -> bool:
    """At a table still filling, presence is all the clock has to show: who is offline now (a new version),
    and when the next member's absence starts to show, if any."""
    flipped = 0
    for seat in Seat.objects.filter(table=table, gone_at__lte=now):
        flipped += Seat.objects.filter(pk=seat.pk).update(offline_since=seat.gone_at, gone_at=None)
    pending = Seat.objects.filter(table=table, gone_at__isnull=False).aggregate(next=Min("gone_at"))["next"]
    if not flipped:
        Table.objects.filter(pk=table.pk).update(due_at=pending)
        return False
    Table.objects.filter(pk=table.pk).update(version=table.version + 1, due_at=pending)
    table.version += 1
    push.table_changed(table)
    return True

