"""The tournaments' work on each pass of the table clock (`add_job("tournaments", ...)` in TablesConfig.ready).

1. No-shows: at an online table of a round being played, a member who has not opened their play table within the
   tournament's `no_show_minutes` of the table's start (of their taking the seat, for one who replaced another) is
   written into `TournamentTable.no_shows`. Their seat is meanwhile played by the bot after the table's grace, by
   play's own rule for an offline member; this only keeps the record. Whether a member came is play's
   `Seat.joined_at`, filled when they first open the table (tables.play.services.presence.socket_opened).
2. Results left behind: a played-out table whose result is missing (the on-commit recording failed, or the process
   died in between) is recorded (tables.tournaments.results).

The job looks at most every `LOOK_EVERY`, sooner when a no-show falls due: the clock passes every second in every
process, and a look costs a few queries even when no tournament is playing. A result left behind waits at most that
long (the on-commit recording is the path that normally records it at once). A look that fails leaves the job due,
so the next pass looks again.

Everything due is read from the database, so a restart loses nothing; each write is made under the tournament's
row lock and re-checked there (a member already written down is not written again), so two processes' passes, or
a pass and a staff action, change each table once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tables.models import Seat, TournamentRound, TournamentTable
from tables.tournaments import results
from tables.tournaments.services import _locked_table

log = logging.getLogger(__name__)

LOOK_EVERY = timedelta(seconds=30)


def _playing_online() -> list[TournamentTable]:
    return list(TournamentTable.objects.filter(
        round__status=TournamentRound.Status.PLAYING, where=TournamentTable.Where.ONLINE, voided_at__isnull=True,
        table__isnull=False, started_at__isnull=False,
    ).select_related("round__tournament"))


def arrival_deadlines(table: TournamentTable) -> dict[int, datetime]:
    """By member now seated at the play table: by when they must have opened it (the table's start, or their
    replacing another, plus the tournament's minutes)."""
    assert table.started_at is not None
    allowed = timedelta(minutes=table.round.tournament.no_show_minutes)
    since: dict[int, datetime] = {}
    for replacement in table.replacements or []:
        at = parse_datetime(str(replacement.get("at", "")))
        if replacement.get("during") and at is not None:
            since[int(replacement["in"])] = at
    seated = Seat.objects.filter(table_id=table.table_id, user__isnull=False).values_list("user_id", flat=True)
    return {member: max(since.get(member, table.started_at), table.started_at) + allowed for member in seated}


def not_come(table: TournamentTable) -> set[int]:
    """The members seated at the play table who have never opened it."""
    return set(Seat.objects.filter(table_id=table.table_id, user__isnull=False, joined_at__isnull=True)
               .values_list("user_id", flat=True))


def mark_no_shows(*, now: datetime | None = None) -> datetime | None:
    """Write down the no-shows now due; returns when the next one may be due (None: none pending)."""
    now = now or timezone.now()
    soonest: datetime | None = None
    for table in _playing_online():
        missing = not_come(table) - set(table.no_shows or [])
        if not missing:
            continue
        deadlines = arrival_deadlines(table)
        due = {member for member in missing if deadlines.get(member, now) <= now}
        for member in missing - due:
            soonest = deadlines[member] if soonest is None else min(soonest, deadlines[member])
        if due:
            _mark(table.pk, now=now)
    return soonest


def _mark(table_id: int, *, now: datetime) -> None:
    with transaction.atomic():
        tournament, table = _locked_table(table_id)
        if table.void or table.round.status != TournamentRound.Status.PLAYING or table.table_id is None:
            return
        table.round.tournament = tournament  # the locked row, for arrival_deadlines
        deadlines = arrival_deadlines(table)
        marked = list(table.no_shows or [])
        new = sorted(member for member in not_come(table) - set(marked) if deadlines.get(member, now) <= now)
        if new:
            table.no_shows = marked + new
            table.save(update_fields=["no_shows"])


class TournamentJob:
    """A look (the no-shows due, then the results left behind) when one is due; a pass in between costs nothing.
    `now` is for tests; the clock calls it without."""

    def __init__(self) -> None:
        self.next_look: datetime | None = None

    def __call__(self, *, now: datetime | None = None) -> datetime:
        now = now or timezone.now()
        if self.next_look is not None and now < self.next_look:
            return self.next_look
        self.next_look = None  # due until this look has succeeded
        due = mark_no_shows(now=now)
        for table_id in results.missing_results():
            try:
                results.record_online_result(table_id=table_id)
            except Exception:  # one table's trouble does not hold up the others; it is tried again next look
                log.exception("tournaments: the result of table %s could not be recorded", table_id)
        self.next_look = now + LOOK_EVERY if due is None else min(due, now + LOOK_EVERY)
        return self.next_look
