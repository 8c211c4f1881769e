"""`manage.py seed`: load the demo data in `seeds/` (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tables.ledger.services.results import record_past_matches
from tables.seeding import seed_finished_matches, seed_members, seed_open_tables
from tables.seeding_tournaments import seed_tournaments


class Command(BaseCommand):
    help = "Load the demo members (and, as they exist, tables and finished games) from seeds/."

    def handle(self, *args: Any, **options: Any) -> None:
        report = seed_members()
        self.stdout.write(
            f"members: {report.members_created} created, {report.members_existing} already there"
        )
        tables = seed_open_tables()
        self.stdout.write(f"open practice tables: {len(tables)} created")
        finished = seed_finished_matches()
        self.stdout.write(
            f"finished demo matches (with their ledger entries): {finished.created} played, "
            f"{finished.existing} already there"
        )
        for reason in finished.skipped:
            self.stdout.write(f"  skipped {reason}")
        tournaments = seed_tournaments()
        self.stdout.write(f"demo tournaments: {tournaments.created} made, {tournaments.existing} already there")
        for reason in tournaments.skipped:
            self.stdout.write(f"  skipped {reason}")
        recorded, _empty = record_past_matches()  # a club seeded before match results were kept
        self.stdout.write(f"match results of earlier matches: {recorded} recorded")
