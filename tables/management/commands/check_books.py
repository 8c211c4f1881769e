"""`manage.py check_books [--game G]`: replay every finished round, re-add every balance, report every difference.

The work is tables.treasury.services.books.check_books. It exits with an error when anything differs, so a
nightly job (or a restore) can be followed by it and fail loudly.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine import registry
from tables.treasury.services.books import check_books


class Command(BaseCommand):
    help = "Check the books: finished rounds replayed from seed and moves, the ledger against them, balances re-added."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=registry.GAME_KEYS, help="Check only this game.")

    def handle(self, *args: Any, **options: Any) -> None:
        check = check_books(game=options.get("game"))
        self.stdout.write(
            f"checked {check.rounds} finished rounds, {check.in_person} in-person results, "
            f"{check.corrections} correction entries, {check.balances} balances in {check.seconds:.2f} s"
        )
        for difference in check.differences:
            self.stdout.write(str(difference))
        if not check.ok:
            raise CommandError(f"The books have {len(check.differences)} difference(s); see above.")
        self.stdout.write(self.style.SUCCESS("The books agree with the rounds, the records and the balances."))
