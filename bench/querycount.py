"""Count the queries of the lobby, a table page and a move at full size: before and after 10,000 finished rounds.

The unit tests (tests/tables/play/test_query_counts.py) show the counts do not grow with a few hundred rows; this
does the same on a real bench database (SQLite or PostgreSQL, whatever DATABASE_URL names) with the numbers
the issue asks for. Every request goes through the site's views (Django's test client); the rendered-board
cache is emptied before each one, so the counts are those of a board rendered from the database.

    DATABASE_URL=... python -m bench.querycount --rounds 10000 --members 1000 --open-tables 300
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10000)
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--open-tables", type=int, default=300)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Its own tables answer with instant bots whatever speed the bench runs at: the member counted is then always
    # the one to act (a paced bot could hold the turn), and a move is counted as measured before.
    os.environ["TABLE_BOT_SPEED"] = "instant"
    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.history import bulk_finished_history, bulk_members
    from rules.engine import registry
    from tables.models import Round, Seat, Table
    from tables.play.services.tables import add_bot, create_table, join_table

    run = f"qc{int(time.time()) % 100000}"
    rng = random.Random(1)

    def running_table(tag: str) -> tuple[Table, list[Any]]:
        first, second = bulk_members(f"{run}-{tag}-", 2)
        table = create_table(creator=first, game="puskiyon", players=4, turn_seconds=600)
        join_table(table_id=table.pk, user=second)
        add_bot(table_id=table.pk, user=first)
        add_bot(table_id=table.pk, user=first)
        table.refresh_from_db()
        return table, [first, second]

    def counted(client: Client, method: str, path: str, data: dict[str, Any] | None = None) -> tuple[int, int]:
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(path) if method == "GET" else client.post(path, data or {})
        return len(captured), response.status_code

    def measure(label: str) -> dict[str, int]:
        table, members = running_table(label)
        game = registry.game(table.game)
        current = Round.objects.filter(match__table=table).order_by("-number").first()
        seat = game.to_act(game.from_json(current.state))
        mover = members[seat]
        clients = {}
        for member in members:
            client = Client(HTTP_HX_REQUEST="true", HTTP_HOST="127.0.0.1")
            client.force_login(member)
            clients[member.pk] = client
        move = str(rng.choice(game.legal_moves(game.from_json(current.state), seat)))
        counts = {}
        counts["lobby"], status = counted(clients[mover.pk], "GET", "/lobby/")
        assert status == 200, status
        counts["table page"], status = counted(clients[mover.pk], "GET", f"/t/{table.code}/")
        assert status == 200, status
        counts["move"], status = counted(clients[mover.pk], "POST", f"/t/{table.code}/move/",
                                         {"move": move, "version": table.version})
        assert status == 200, status
        return counts

    def sizes() -> str:
        return (f"{Table.objects.count()} tables, {Seat.objects.exclude(user=None).count()} member seats, "
                f"{Round.objects.filter(over=True).count()} finished rounds")

    before = measure("small")
    print(f"before ({sizes()}): {before}")
    started = time.monotonic()
    members = bulk_members(f"{run}-crowd-", args.members)
    opened = Table.objects.bulk_create(
        [Table(game="hawk", seat_count=4, created_by=members[i % len(members)]) for i in range(args.open_tables)])
    Seat.objects.bulk_create(
        [Seat(table=t, position=p, user=members[i % len(members)] if p == 0 else None, is_bot=p == 3)
         for i, t in enumerate(opened) for p in range(4)])
    per_table = 50
    written = bulk_finished_history(members=members, tables=max(1, args.rounds // per_table),
                                    rounds_per_table=per_table)
    print(f"added {args.members} members, {args.open_tables} open tables, {written} finished rounds "
          f"in {time.monotonic() - started:.0f}s")
    after = measure("large")
    print(f"after ({sizes()}): {after}")
    same = before == after
    print("the same counts before and after" if same else "THE COUNTS GREW")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
