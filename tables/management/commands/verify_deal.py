"""`manage.py verify_deal <round id> [--seed S]`: check that a finished round was dealt from its committed seed.

It runs the same check as the fair-deal page (tables.services.fairness.verify_deal): the SHA-256 of
`seed:salt` against the commitment shown before the deal, each seat's hand dealt again by the engine
against the hands recorded at the end, and the recorded moves replayed on that deal. It exits with
an error when any check fails, so it can be scripted. `--seed` tries another seed (which must fail).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.services.errors import TableError
from tables.services.fairness import verify_deal


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
        mark = {True: "ok  ", False: "FAIL"}
        self.stdout.write(f"{check.game} table {check.table_code}, round {check.number} (id {check.round_id})")
        self.stdout.write(f"seed {check.seed}  salt {check.salt}")
        self.stdout.write(f"[{mark[check.commitment_ok]}] sha256(seed:salt) = {check.computed}")
        self.stdout.write(f"       commitment shown before the deal {check.commitment}")
        self.stdout.write(f"[{mark[check.hands_ok]}] re-dealt hands equal the recorded hands "
                          f"({sum(check.seats_ok)} of {len(check.seats_ok)} seats"
                          f"{', ' + ', '.join(check.recorded_extra) if check.recorded_extra else ''})")
        problem = f": {check.replay_problem}" if check.replay_problem else ""
        self.stdout.write(f"[{mark[check.replay_ok]}] {check.moves_checked} recorded moves replay on the re-dealt "
                          f"cards to the recorded end{problem}")
        if options["show_hands"]:
            for seat, (again, recorded) in enumerate(zip(check.redealt, check.recorded, strict=False), start=1):
                self.stdout.write(f"  seat {seat}: dealt again {' '.join(again)} | recorded {' '.join(recorded)}")
            for name in sorted(set(check.redealt_extra) | set(check.recorded_extra)):
                again = " ".join(check.redealt_extra.get(name, []))
                recorded = " ".join(check.recorded_extra.get(name, []))
                self.stdout.write(f"  {name}: dealt again {again} | recorded {recorded}")
        if not check.ok:
            raise CommandError("The deal does NOT match its commitment and record.")
        self.stdout.write(self.style.SUCCESS("The deal is the one committed to."))
