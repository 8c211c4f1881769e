"""The invitations' side of play's `table_stopped_waiting`: a table that starts or closes ends its pending
invitations in the same transaction, and each invited member's open lobby is told after commit (connected in
`TablesConfig.ready`). It raises as the service does, so a start or close whose invitations fail is rolled back
with them rather than leaving a seat offered that is gone."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tables.invitations.services.invitations import end_with_table
from tables.models import Table
from tables.play.signals import table_stopped_waiting


@receiver(table_stopped_waiting, dispatch_uid="tables.invitations.end_with_table")
def end_invitations_of_table(sender: Any, *, table: Table, ending: str, **kwargs: Any) -> None:
    end_with_table(table=table, ending=ending)
