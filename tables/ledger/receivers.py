"""The ledger's side of play's signals: a finished round's entries, written in the round's own transaction.

Play may not import the ledger, so play sends `round_finished` and this receiver, connected when the app
is ready (`TablesConfig.ready`), writes the entries. It raises as `record_round` does, so a round whose
entries would break the books is rolled back with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.dispatch import receiver

from tables.ledger.services import ledger
from tables.models import Round, Seat, Table
from tables.play.signals import round_finished


@receiver(round_finished, dispatch_uid="tables.ledger.record_finished_round")
def record_finished_round(sender: Any, *, round: Round, table: Table, seats: Sequence[Seat], **kwargs: Any) -> None:
    ledger.record_round(round=round, table=table, seats=seats)
