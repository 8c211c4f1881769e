"""The table clock's work: whatever is due at a table, done under its lock, one step at a time.

What is due lives in the database (`Table.due_at`, written by every save from `Live.due`), so any process
can do it, a restart picks it up, and two processes never do it twice: each step locks the table and acts
only if the table is still due, and every step is a new version (a second attempt finds nothing due).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext_noop

from tables.models import Move, Seat, Table
from tables.play import push
from tables.play.services import presence
from tables.play.services.play import Live, _next_round, locked_table

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


@push.batched
def advance(*, table_id: int, now: datetime | None = None) -> bool:
    """One step at a table that is due: its members' presence as it now stands, then one of: the table closes
    (every member long gone), the next round is dealt (the pause ran out), the bot makes one move (for a bot,
    a member who left, or one offline past the grace), or the bot plays for a member whose time ran out.
    Returns whether the table changed."""
    now = now or timezone.now()
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
        else:
            seat = live.seat_to_act()
            if seat is not None and live.stands_in(live.seats[seat]):
                if live.bot_due() <= now:
                    live.play_one_bot()
                    live.play_bots()  # an instant table goes on at once
            elif seat is not None and live.round.deadline is not None and live.round.deadline <= now:
                live.bot_move(seat, Move.Actor.TIMEOUT)
                live.play_bots()
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

