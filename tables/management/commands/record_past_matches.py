"""`manage.py record_past_matches`: results for matches that ended before results were recorded (idempotent).

Matches ending now are recorded as they end (the ledger's `match_ended` receiver); this takes in the ones that
ended earlier, from their tables' rows, oldest first. Running it again records nothing new.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tables.ledger.services.results import record_past_matches


class Command(BaseCommand):
    help = "Record the results of finished or closed matches that have none yet (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        recorded, empty = record_past_matches()
        self.stdout.write(f"match results: {recorded} recorded, {empty} ended before any round finished (no result)")
