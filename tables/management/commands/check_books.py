"""`manage.py check_books [--game G]`: replay every finished round, verify the ledger's hash chains, re-price the
in-person hands, re-add every settlement and balance, and report every difference by its kind.

The work is tables.treasury.services.books.check_books. It exits with an error when anything differs, so a
nightly job (or a restore) can be followed by it and fail loudly.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine import registry
from tables.treasury.services.books import check_books


class Command(BaseCommand):
    help = ("Check the books: finished rounds replayed from seed and moves, the ledger against them and its hash "
            "chains, in-person hands re-priced, settlements and balances re-added.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=registry.GAME_KEYS, help="Check only this game.")

    def handle(self, *args: Any, **options: Any) -> None:
        check = check_books(game=options.get("game"))
        self.stdout.write(
            f"checked {check.rounds} finished rounds, {check.in_person} in-person results, "
            f"{check.corrections} correction entries, {check.tournaments} tournaments' fees and prizes, "
            f"{check.settlements} settlements, {check.balances} balances "
            f"in {check.seconds:.2f} s"
        )
        for game, (length, digest) in sorted(check.chains.items()):  # note the heads down: a rewrite changes them
            self.stdout.write(f"chain {game}: {length} entries, head {digest or '-'}")
        for difference in check.differences:
            self.stdout.write(str(difference))
        if not check.ok:
            for kind in check.kinds:
                count = sum(1 for difference in check.differences if difference.kind == kind)
                self.stdout.write(f"found: {kind} ({count})")
            raise CommandError(f"The books have {len(check.differences)} difference(s) of {len(check.kinds)} "
                               f"kind(s); see above.")
        self.stdout.write(self.style.SUCCESS("The books agree with the rounds, the records and the balances."))
