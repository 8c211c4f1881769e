"""The ledger's side of play's signals: a finished round's entries and an ended match's result, written in the
transaction that finishes the round or ends the match.

Play may not import the ledger, so play sends `round_finished` (and `match_ended`) and these receivers,
connected when the app is ready (`TablesConfig.ready`), write the entries (and the result). They raise as the
services do, so a round whose entries would break the books is rolled back with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.dispatch import receiver

from tables.ledger.services import ledger, results
from tables.models import Match, Round, Seat, Table
from tables.play.signals import match_ended, round_finished


@receiver(round_finished, dispatch_uid="tables.ledger.record_finished_round")
def record_finished_round(sender: Any, *, round: Round, table: Table, seats: Sequence[Seat], **kwargs: Any) -> None:
    ledger.record_round(round=round, table=table, seats=seats)


@receiver(match_ended, dispatch_uid="tables.ledger.record_ended_match")
def record_ended_match(sender: Any, *, match: Match, table: Table, seats: Sequence[Seat], ending: str, now: datetime,
                       **kwargs: Any) -> None:
    """The match's result, in the transaction that ends it (none for a match with no finished round)."""
    results.record_match(match=match, table=table, seats=seats, ending=ending, now=now)
