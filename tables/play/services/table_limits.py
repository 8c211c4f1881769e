"""How many tables one member may hold open and start: the club's limits, read from the database.

Why it is built this way: one member making tables in a loop filled the lobby (110 open tables in 2.5 s) and
the books (517 bot tables a minute). The limits are counted from the `Table` rows themselves, inside the
transaction that would add one, after the member's row lock (`ensure_free_to_sit` takes it on PostgreSQL;
SQLite's IMMEDIATE transactions let one writer in at a time), so two requests of one member, in two tabs or two
Daphne processes, are counted one after the other and cannot both slip under a limit. A table counts against
the member who created it (`Table.created_by`): quick play's tables against the member who asked first.

Staff are held to the same limits: the admin's tools never create tables, and a staff member at a table plays
as any member does; an exemption would only make a staff account the one worth stealing for spam.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import ngettext

from accounts.models import User
from tables.models import Table
from tables.play.services.errors import NotAllowed


class TooManyTables(NotAllowed):
    """The member holds as many open tables, or has started as many tables lately, as the club allows."""

    status = 429


def ensure_may_open(creator: User) -> None:
    """Refuse a member who already holds `TABLES_OPEN_PER_MEMBER` tables that have not started (0: no cap)."""
    limit = settings.TABLES_OPEN_PER_MEMBER
    if limit <= 0:
        return
    held = Table.objects.filter(created_by=creator, status=Table.Status.OPEN).count()
    if held >= limit:
        raise TooManyTables(ngettext(
            "You already have %(count)s table waiting for players, as many as a member may have; start it, or "
            "leave it, before you open another.",
            "You already have %(count)s tables waiting for players, as many as a member may have; start one, or "
            "leave one, before you open another.",
            held) % {"count": held})


def ensure_may_start(creator: User, *, now: datetime | None = None) -> None:
    """Refuse a member who has created `TABLE_STARTS_PER_MEMBER` tables in the last `TABLE_STARTS_WINDOW_MINUTES`
    (a sliding window; 0: no limit), saying when the oldest of them leaves the window."""
    limit, minutes = settings.TABLE_STARTS_PER_MEMBER, settings.TABLE_STARTS_WINDOW_MINUTES
    if limit <= 0 or minutes <= 0:
        return
    now = now or timezone.now()
    window = timedelta(minutes=minutes)
    recent = list(
        Table.objects.filter(created_by=creator, created_at__gt=now - window)
        .order_by("-created_at").values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    frees_at = recent[-1] + window  # the oldest of the last `limit` leaves the window then
    wait_minutes = max(1, math.ceil((frees_at - now).total_seconds() / 60))
    raise TooManyTables(ngettext(
        "You have started %(limit)s tables in the last %(window)s minutes, as many as the club allows; you may "
        "start another at %(time)s (in about %(wait)s minute).",
        "You have started %(limit)s tables in the last %(window)s minutes, as many as the club allows; you may "
        "start another at %(time)s (in about %(wait)s minutes).",
        wait_minutes) % {
            "limit": limit, "window": _minutes_text(minutes), "wait": wait_minutes,
            "time": formats.time_format(timezone.localtime(frees_at), "H:i"),
    })


def _minutes_text(minutes: float) -> str:
    """A window of whole minutes as a whole number ("10"), a fraction as it is ("0.5")."""
    return str(int(minutes)) if float(minutes).is_integer() else formats.number_format(minutes)

