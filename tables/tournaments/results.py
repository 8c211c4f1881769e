"""An online tournament table's result, taken from its play table's match when that match is played out.

Play sends `match_ended` inside its own transaction, holding the play table's row lock; every tournament service
locks the tournament's row first. Recording there would take the two locks in the other order (a deadlock on
PostgreSQL beside a staff action that locks the tournament and then a play table). So the receiver only notes the
table and records in `transaction.on_commit`, in a transaction of its own that locks the tournament first; and the
tournament's clock job (tables.tournaments.clock) looks for played-out tables still without a result, so a process
that died, or a recording that failed, between the match's commit and the record is repaired on the next pass.
Recording is idempotent: a result already there (recorded, or corrected by staff) is left as it is.

What is recorded: a session, each member's points (`scoring.hand_points` of the seat's match total, the money
game's settlement in stakes); a Swiss or round-robin pairing, the match's winner. A Hawsker match cannot end level
(level totals play another round, rules.engine.hawsker.matches), so a played-out match has one winner; should a
game ever end one with several, nothing is recorded and the organiser decides (voids or records by hand). The
result goes to whoever holds each seat at the end (a member who replaced another: tables.tournaments.replacing).
A match closed before its end (`ending` "closed": an admin closed the table, or every member left) records nothing:
the organiser voids the table or seats it again.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction

from tables.models import Match, Seat, Table, Tournament, TournamentRound, TournamentTable
from tables.tournaments import scoring
from tables.tournaments.services import _locked_table, set_points, set_winner

log = logging.getLogger(__name__)

PLAYED = "played"


def on_match_ended(sender: Any, *, table: Table, ending: str, **kwargs: Any) -> None:
    """Play's `match_ended`: a tournament table played out is recorded once play's transaction has committed."""
    if ending != PLAYED:
        return
    ids = list(TournamentTable.objects.filter(table_id=table.pk).values_list("pk", flat=True))
    for table_id in ids:
        transaction.on_commit(lambda table_id=table_id: record_online_result(table_id=table_id), robust=True)


def record_online_result(*, table_id: int) -> TournamentTable | None:
    """The tournament table's result from its play table's finished match, in one transaction under the
    tournament's lock; None when there is nothing to record (not played out yet, closed, void, a round done,
    or the result is there already)."""
    with transaction.atomic():
        tournament, table = _locked_table(table_id)
        if (table.table_id is None or table.void or table.round.status == TournamentRound.Status.DONE
                or table.winner_id is not None or table.points is not None):
            return None
        match = Match.objects.filter(table_id=table.table_id, over=True,
                                     table__status=Table.Status.FINISHED).first()
        if match is None:
            return None
        holders = dict(Seat.objects.filter(table_id=table.table_id).values_list("position", "user_id"))
        if tournament.format == Tournament.Format.SESSIONS:
            totals = scoring.tournament_points(match, tournament.game, match.config.get("options", {}),
                                               seats=len(holders))
            points = {holders[position]: total for position, total in enumerate(totals)}
            return set_points(tournament, table, points=points)
        winners = list(match.winners or [])
        if len(winners) != 1:
            log.warning("tournament table %s: match %s ended with winners %s; left to the organiser",
                        table.pk, match.pk, winners)
            return None
        return set_winner(tournament, table, winner_id=holders[winners[0]])


def missing_results(*, now: datetime | None = None) -> list[int]:
    """The online tables of rounds being played whose play match is over but whose result is not recorded."""
    return list(TournamentTable.objects.filter(
        round__status=TournamentRound.Status.PLAYING, voided_at__isnull=True, table__isnull=False,
        table__status=Table.Status.FINISHED, winner__isnull=True, points__isnull=True,
    ).values_list("pk", flat=True))
