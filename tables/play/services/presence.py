"""Who has a table open: a seated member whose every socket to the table has closed is offline.

Sockets are rows (`TableSocket`), so every process sees the same: a socket opens a row and closes it, and
says it is alive every `pace.HEARTBEAT_SECONDS`; rows a dead process left behind go stale and are swept.
A member whose last socket closes is marked offline a moment later (`pace.OFFLINE_AFTER`: a reload is not a
departure): `Seat.gone_at` holds that moment, and the table clock then sets `Seat.offline_since` (shown to
everyone); after the table's grace the bot plays their turns (tables.play.services.play.Live.stands_in)
until a socket is back.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from tables.models import Seat, Table, TableSocket
from tables.play import pace, push, wakeups
from tables.play.services.play import Live, locked_table


def socket_opened(*, table_id: int, user: User, channel_name: str) -> None:
    """A page of the table is open. A member shown offline is online again (a new version for everyone)."""
    now = timezone.now()
    with transaction.atomic():
        TableSocket.objects.update_or_create(
            channel_name=channel_name, defaults={"table_id": table_id, "user": user, "last_seen": now})
        if not Seat.objects.filter(table_id=table_id, user=user).exists():
            return  # a spectator: nobody's presence changes
        # The seat is read under the table's lock, held until this socket's row is committed: the clock may be
        # showing the member offline right now, and another socket of theirs closing waits to see this one.
        table = locked_table(table_id)
        # The first opening of a seat the club gave them (tables.play.services.seated): they came.
        Seat.objects.filter(table_id=table_id, user=user, joined_at__isnull=True).update(joined_at=now)
        seat = Seat.objects.filter(Q(offline_since__isnull=False) | Q(gone_at__isnull=False),
                                   table_id=table_id, user=user).first()
        if seat is None:
            return
        Seat.objects.filter(pk=seat.pk).update(offline_since=None, gone_at=None)
        if seat.offline_since is not None:  # they were shown offline: everyone sees them back
            _presence_changed(table, now, back=seat.pk)


def socket_seen(*, channel_name: str) -> bool:
    """The socket is alive (its row would otherwise go stale and the member be taken for gone). False when its
    row is no longer there (swept as stale while its process was too busy to say so): the socket records
    itself again (`socket_opened`), or its member would stay offline with the page open."""
    return bool(TableSocket.objects.filter(channel_name=channel_name).update(last_seen=timezone.now()))


def socket_closed(*, channel_name: str) -> None:
    now = timezone.now()
    with transaction.atomic():
        row = TableSocket.objects.filter(channel_name=channel_name).first()
        if row is None:
            return
        row.delete()
        _maybe_gone(table_id=row.table_id, user_id=row.user_id, now=now)


def forget_stale_sockets(*, now: datetime | None = None) -> int:
    """Rows of sockets no process has vouched for lately (their process died): gone, and their members with
    them if they have no other. Returns how many were swept."""
    now = now or timezone.now()
    stale = list(TableSocket.objects.filter(last_seen__lt=now - pace.SOCKET_STALE)
                 .values_list("pk", "table_id", "user_id"))
    for pk, table_id, user_id in stale:
        with transaction.atomic():
            if TableSocket.objects.filter(pk=pk).delete()[0]:
                _maybe_gone(table_id=table_id, user_id=user_id, now=now)
    return len(stale)


def _maybe_gone(*, table_id: int, user_id: int, now: datetime) -> None:
    """The member's socket closed: if it was their last to a table where they sit, they are offline from a
    moment from now (unless a socket comes back before), and the table clock is told to look then."""
    if not Seat.objects.filter(table_id=table_id, user_id=user_id).exists():
        return
    table = locked_table(table_id)  # first: a socket of theirs opening now holds it until its row is committed
    if TableSocket.objects.filter(table_id=table_id, user_id=user_id, last_seen__gte=now - pace.SOCKET_STALE).exists():
        return
    seat = Seat.objects.filter(table_id=table_id, user_id=user_id, offline_since__isnull=True,
                               gone_at__isnull=True).first()
    if seat is None:
        return
    if table.status not in (Table.Status.OPEN, Table.Status.RUNNING):
        return
    at = now + pace.OFFLINE_AFTER
    Seat.objects.filter(pk=seat.pk).update(gone_at=at)
    Table.objects.filter(pk=table_id).filter(Q(due_at__isnull=True) | Q(due_at__gt=at)).update(due_at=at)
    wakeups.after_commit(at)


def _presence_changed(table: Table, now: datetime, *, back: int | None = None) -> None:
    """A new version of the table, so every board shows who is there (`back`: the seat whose member came back)."""
    if table.status == Table.Status.RUNNING:
        live = Live.load(table, now=now)
        for seat in live.seats:
            if seat.pk == back:
                live.came_back(seat)
        live.save()
    elif table.status == Table.Status.OPEN:
        Table.objects.filter(pk=table.pk).update(version=table.version + 1)
        table.version += 1
        push.table_changed(table)
