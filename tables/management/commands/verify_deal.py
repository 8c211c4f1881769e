"""`manage.py verify_deal <round id> [--seed S]`: check that a finished round was dealt from its committed seed.

It runs the same check as the fair-deal page (tables.ledger.services.fairness.verify_deal): the SHA-256 of
`seed:salt` against the commitment shown before the deal, each seat's hand dealt again by the engine
against the hands recorded at the end, and the recorded moves replayed on that deal. It exits with
an error when any check fails, so it can be scripted. `--seed` tries another seed (which must fail).
The lines it prints are the ledger's (tables/ledger/deal_report.py).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.ledger.deal_report import deal_report
from tables.ledger.services.fairness import verify_deal
from tables.play.services.errors import TableError


class Command(BaseCommand):
    help = "Re-deal a finished round from its revealed seed and check it against its commitment and its record."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("round_id", type=int, help="The round's id (shown on the fair-deal page and in the admin).")
        parser.add_argument("--seed", help="Check this seed instead of the revealed one.")
        parser.add_argument("--show-hands", action="store_true", help="Print every re-dealt and recorded hand.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            check = verify_deal(round_id=options["round_id"], seed=options.get("seed"))
        except TableError as error:
            raise CommandError(str(error)) from None
        for line in deal_report(check, show_hands=options["show_hands"]):
            self.stdout.write(line)
        if not check.ok:
            raise CommandError("The deal does NOT match its commitment and record.")
        self.stdout.write(self.style.SUCCESS("The deal is the one committed to."))
