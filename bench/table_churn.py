"""The table-churn attack of issue 39, bounded: one member "creates a table full of bots, leaves" in a loop.

Runs the loop for a fixed time through the same services the lobby's form and the table's Leave button call, in
the database DATABASE_URL names (a scratch one: the bench makes its own member and counts only that member's
tables), and prints what it left behind: tables, moves, rounds, ledger entries, match results and rating changes,
the attempts refused, the process's CPU seconds and the load average. The figures go in a note, never in an
assertion (tests/services/test_table_churn.py asserts the bounds).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/churn python -m bench.table_churn --seconds 20
"""

from __future__ import annotations

import argparse
import os
import resource
import secrets
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="sheepshead")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User
    from tables.models import LedgerEntry, MatchResult, Move, RatingChange, Round, Table
    from tables.play.services.errors import TableError
    from tables.play.services.tables import create_table, leave_table

    call_command("migrate", verbosity=0)
    member = User.objects.create_user(username=f"churn-{secrets.token_hex(4)}", password=secrets.token_hex(16))
    refused, messages = 0, set()
    started, cpu = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
    while time.monotonic() - started < args.seconds:
        try:
            table = create_table(creator=member, game=args.game, players=args.players, fill_with_bots=True)
        except TableError as error:
            refused += 1
            messages.add(str(error).split(";")[0])
            time.sleep(0.05)  # a refused attempt costs the attacker a round trip too
            continue
        leave_table(table_id=table.pk, user=member)
    elapsed = time.monotonic() - started
    used = resource.getrusage(resource.RUSAGE_SELF)
    tables = Table.objects.filter(created_by=member)
    rounds = Round.objects.filter(match__table__in=tables)
    figures = {
        "seconds": round(elapsed, 1),
        "tables": tables.count(),
        "refused": refused,
        "rounds": rounds.count(),
        "rounds voided": rounds.filter(voided_at__isnull=False).count(),
        "moves": Move.objects.filter(round__match__table__in=tables).count(),
        "ledger entries": LedgerEntry.objects.filter(round__match__table__in=tables).count(),
        "match results": MatchResult.objects.filter(table__in=tables).count(),
        "rating changes": RatingChange.objects.filter(result__table__in=tables).count(),
        "cpu seconds": round(used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime, 1),
        "database": connection.vendor,
    }
    with open("/proc/loadavg") as loadavg:
        figures["load average"] = " ".join(loadavg.read().split()[:3])
    for name, value in figures.items():
        print(f"{name}: {value}")
    for message in sorted(messages):
        print(f"refused with: {message}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
