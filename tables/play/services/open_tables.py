"""Tables still filling that nobody attends close by themselves (`TABLE_OPEN_IDLE_CLOSE_MINUTES`; 0: never).

Why: a table nobody joins stayed in the lobby for ever and held one of its creator's `TABLES_OPEN_PER_MEMBER`
(tables.play.services.table_limits) after the creator had long gone. A running table whose members are all gone
closes on the table clock (`Live.close_for_nobody`); an open one now does too, here, called by the clock's step for
open tables (tables.play.services.clock).

Who counts as there: a member seated at the table with a page of it open (a live `TableSocket`, as presence counts
it), or with the club's lobby open (a live lobby `Presence`: the lobby lists the member's own tables and shows when
one fills, so a creator waiting there is waiting for this table). A spectator does not count, nor a page of another
table (a member playing elsewhere cannot start this one anyway). A member not there has been away since their last
page of the table closed (`Seat.offline_since`, or `gone_at` while that is still to come), else since they sat down
(a creator who never opened the table's page is away from its creation). The table closes once every member seated
there has been away this long, counted from the last of them to go; a member who has left the table no longer
counts (they gave their seat up). A table with no member seated at all is the club's own (the demo's, `manage.py
seed`: bots waiting for someone to sit down) and stays open.

The lobby does not tell tables when it closes: a member found in the lobby when the clock looks puts the close off
by the whole idle time from that look (the close then comes at most that long after they left the lobby, and
never less than that long after the last page of the table closed).

A pending invitation to the table (tables.invitations) keeps it open until it ends: its creator asked someone to
come, and the invitation's own time (`INVITATION_MINUTES`) may be longer. The clock then looks again when it runs
out; one answered sooner leaves the table to close at that look.

Quick play never has an open table (it forms its tables full and starts them at once), so nothing here is about it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max
from django.utils.translation import gettext_noop

from tables.models import Invitation, Presence, Seat, Table, TableSocket
from tables.play import pace, push
from tables.play.signals import table_stopped_waiting

log = logging.getLogger(__name__)

# Kept on the table (English; translated where it is shown, as the other reasons a table closed by itself).
IDLE_CLOSED = gettext_noop(
    "Nobody had been at this table for a while and it was still waiting for players: it closed without a game.")


def idle_time(*, correspondence: bool = False) -> timedelta | None:
    """How long an open table may go unattended (None: for ever). A correspondence table's members are not expected
    to sit at its page while it fills: it waits days (`CORRESPONDENCE_OPEN_CLOSE_DAYS`), not minutes."""
    if correspondence:
        days = settings.CORRESPONDENCE_OPEN_CLOSE_DAYS
        return timedelta(days=days) if days > 0 else None
    minutes = settings.TABLE_OPEN_IDLE_CLOSE_MINUTES
    return timedelta(minutes=minutes) if minutes > 0 else None


def first_due(now: datetime, *, correspondence: bool = False) -> datetime | None:
    """When a table created `now` is first looked at: its creator may never open its page."""
    after = idle_time(correspondence=correspondence)
    return now + after if after is not None else None


def closes_at(table: Table, *, now: datetime, seats: Sequence[Seat] | None = None) -> datetime | None:
    """When the open table closes unless a member comes (a time past: it may close now); None while a member is
    at its page (their page closing makes the table due again: tables.play.services.presence) or when open tables
    never close. `seats`: the table's seats, if the caller has read them under its lock."""
    after = idle_time(correspondence=table.correspondence)
    if after is None:
        return None
    members = [s for s in (seats if seats is not None else Seat.objects.filter(table=table)) if s.user_id is not None]
    if not members:
        return None  # the club's own (the demo's tables, bots waiting for a member): nobody's absence to count
    ids = [s.user_id for s in members]
    alive_since = now - pace.SOCKET_STALE
    if TableSocket.objects.filter(table=table, user_id__in=ids, last_seen__gte=alive_since).exists():
        return None
    if Presence.objects.filter(user_id__in=ids, last_seen__gte=alive_since).exists():
        away_since = now  # in the lobby: seen now
    else:
        away_since = max(s.gone_at or s.offline_since or s.joined_at or table.created_at for s in members)
    closing = away_since + after
    invited = (Invitation.objects.filter(table=table, status=Invitation.Status.PENDING, expires_at__gt=now)
               .aggregate(last=Max("expires_at"))["last"])
    return max(closing, invited) if invited is not None else closing


def next_due(table: Table, *, now: datetime) -> datetime | None:
    """When the clock next has something to do at the open table: a member's absence starting to show
    (`Seat.gone_at`), or the table closing (`closes_at`), whichever comes first."""
    return _looked_at(table, now=now)[1]


def close_or_next_due(table: Table, *, now: datetime) -> tuple[bool, datetime | None]:
    """Under the table's lock (the caller's transaction: the clock's step, once it has shown who is offline now):
    close the open table if nobody has been at it for the idle time; (whether it closed, when it is next due).

    It closes as a table its last member leaves does, with its reason: no longer open, so it leaves the lobby (the
    lobby's sockets are told), holds nobody (its members' seats stay on it as a record, but a closed table counts
    for no one: neither as a seat held nor as its creator's open table) and ends its invitations (play's
    `table_stopped_waiting`); its page says why to whoever looks."""
    closing, due_at = _looked_at(table, now=now)
    if closing is None or closing > now:
        return False, due_at
    version = table.version + 1
    closed = Table.objects.filter(pk=table.pk, status=Table.Status.OPEN).update(
        status=Table.Status.ABANDONED, finished_at=now, close_reason=IDLE_CLOSED, due_at=None, version=version)
    if not closed:
        return False, None
    table.status, table.finished_at, table.close_reason, table.due_at, table.version = (
        Table.Status.ABANDONED, now, IDLE_CLOSED, None, version)
    Seat.objects.filter(table=table).update(gone_at=None)  # no absence is still to show at a closed table
    log.info("table clock: open table %s closed, nobody at it for %s", table.code,
             idle_time(correspondence=table.correspondence))
    table_stopped_waiting.send(sender=Table, table=table, ending="closed")
    push.table_changed(table)
    push.lobby_changed()
    return True, None


def _looked_at(table: Table, *, now: datetime) -> tuple[datetime | None, datetime | None]:
    """(when the table closes, when the clock next has something to do there), from one read of its seats."""
    seats = list(Seat.objects.filter(table=table))
    closing = closes_at(table, now=now, seats=seats)
    times = [s.gone_at for s in seats if s.gone_at is not None] + ([closing] if closing is not None else [])
    return closing, min(times) if times else None
