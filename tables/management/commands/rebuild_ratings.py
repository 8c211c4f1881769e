"""`manage.py rebuild_ratings [--check]`: recompute every rating from the recorded matches.

Django finds commands only in an app's own `management/commands/` (the app is `tables`), so this one lives
here and calls the ratings' service. Without `--check` it makes the stored ratings and rating changes
exactly the replay's (and rates results recorded without a rating); with `--check` it only reports the
differences and exits with an error when there are any, so it can be scripted. Either way it may run while the
club plays: it holds the games' rating locks only for its short last step (see the service), and keeps the
connection's lock and statement timeouts (config/database.py).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.ratings.services.rebuild import rebuild_ratings

SHOWN = 50  # differences printed; the count says how many there are


class Command(BaseCommand):
    help = "Recompute every game's ratings from the recorded matches, in the order they were rated."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="Report how the stored ratings differ from the matches' without writing anything.")

    def handle(self, *args: Any, **options: Any) -> None:
        check = options["check"]
        rebuilt = rebuild_ratings(write=not check)
        for line in rebuilt.differences[:SHOWN]:
            self.stdout.write(line)
        if len(rebuilt.differences) > SHOWN:
            self.stdout.write(f"... and {len(rebuilt.differences) - SHOWN} more")
        found = len(rebuilt.differences)
        if check and found:
            raise CommandError(f"{found} difference(s) between the stored ratings and {rebuilt.matches} matches.")
        if rebuilt.written:
            self.stdout.write(self.style.SUCCESS(f"Rebuilt from {rebuilt.matches} matches: {found} difference(s) "
                                                 "corrected."))
        else:
            self.stdout.write(self.style.SUCCESS(f"The stored ratings are exactly those of {rebuilt.matches} matches."))
