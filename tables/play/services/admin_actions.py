"""What the club's admins may do to play in progress: close a table, void the round being played.

The admin never edits tables, seats, matches, rounds or moves (a changed game or option breaks a
running table); these two services are the only ways in. Each takes the table's row lock, refuses
with a `TableError` and changes nothing when it cannot act, and keeps who did it, when and why on
the rows themselves, so the record outlives the admin's log. A voided round is over (its seed and
moves may then be reviewed) but pays nobody: it has no result and writes no ledger entries.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Match, Round, Seat, Table
from tables.play import push
from tables.play.services.errors import NotAllowed, StaleVersion, TableError
from tables.play.services.play import Live, deal_in_place_of_voided, locked_table, seats_at
from tables.play.signals import match_ended, table_stopped_waiting

REASON_MAX = 300
ENDED = (Table.Status.FINISHED, Table.Status.ABANDONED)


def close_table(*, table_id: int, admin: User, reason: str) -> Table:
    """End an open or running table: the round in play is voided, the match ends, the members are free
    to sit elsewhere (an abandoned table holds nobody), and everyone watching sees it at once."""
    reason = _checked(admin, reason)
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status in ENDED:
            raise TableError(gettext("Table %(code)s has already ended (%(status)s).") % {
                "code": table.code, "status": table.get_status_display()})
        now = timezone.now()
        current = Round.objects.filter(match__table=table, over=False).first()
        if current is not None:
            _void(current, admin=admin, reason=reason, now=now)
        Match.objects.filter(table=table, over=False).update(over=True, finished_at=now)
        match = Match.objects.filter(table=table).first() if table.status == Table.Status.RUNNING else None
        Seat.objects.filter(table=table).update(ready=False)
        closed = Table.objects.filter(pk=table.pk, version=table.version).update(
            status=Table.Status.ABANDONED, finished_at=now, closed_by=admin, close_reason=reason,
            version=F("version") + 1,
        )
        if closed != 1:
            raise StaleVersion(gettext("The table changed while it was being closed; nothing was changed. Try again."))
        table.refresh_from_db()
        if match is not None:  # an open table had no match to end
            match_ended.send(sender=Match, match=match, table=table, seats=seats_at(table), ending="closed", now=now)
        table_stopped_waiting.send(sender=Table, table=table, ending="closed")
        push.table_changed(table)
        push.lobby_changed()
    return table


def void_round(*, round_id: int, admin: User, reason: str) -> Round:
    """Void the round being played: nobody is paid and, at a running table, the next round is dealt
    from the match as it stood before the voided one. A finished round is corrected in the ledger."""
    reason = _checked(admin, reason)
    table_id = Round.objects.filter(pk=round_id).values_list("match__table_id", flat=True).first()
    if table_id is None:
        raise TableError(gettext("There is no such round."))
    with transaction.atomic():
        table = locked_table(table_id)
        found = Round.objects.select_related("match").get(pk=round_id)
        if found.voided:
            raise TableError(gettext("%(round)s was voided already.") % {"round": found})
        if found.over:
            raise TableError(gettext("%(round)s is over: a finished round is corrected through the ledger, not voided.")
                             % {"round": found})
        now = timezone.now()
        if table.status == Table.Status.RUNNING:
            live = Live.load(table)
            if live.round.pk != found.pk:
                raise TableError(gettext("%(round)s is not the round being played at table %(code)s.") % {
                    "round": found, "code": table.code})
            _void(live.round, admin=admin, reason=reason, now=now)
            deal_in_place_of_voided(live)  # a new version, announced after commit
        else:  # a table that ended mid-round (everyone left): void the round, deal nothing
            _void(found, admin=admin, reason=reason, now=now)
            Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
            table.refresh_from_db(fields=["version"])
            push.table_changed(table)
        found.refresh_from_db()
    return found


def _checked(admin: User, reason: str) -> str:
    if not (admin.is_active and admin.is_staff):
        raise NotAllowed(gettext("Only the club's admins may close tables or void rounds."))
    reason = (reason or "").strip()
    if not reason:
        raise TableError(gettext("Give a reason: it is kept with the record of what was done."))
    if len(reason) > REASON_MAX:
        raise TableError(gettext("Keep the reason under %(count)s characters.") % {"count": REASON_MAX})
    return reason


def _void(round: Round, *, admin: User, reason: str, now: datetime) -> None:
    round.over, round.finished_at, round.result, round.deadline = True, now, None, None
    round.voided_at, round.voided_by, round.void_reason = now, admin, reason
    round.save(update_fields=["over", "finished_at", "result", "deadline", "voided_at", "voided_by", "void_reason"])
