"""Profile the move path in one process: the service, the POST's reply and the boards the sockets render.

Why: the load generator says how long a move takes end to end; this says where the time goes, split the
way a move spends it on the server (the `play_move` service with its bots, the reply rendered for the
mover, one board rendered per socket of the table), with the queries each part runs and, with --profile,
the functions that cost most. It plays through the site's own views and consumer code on whatever database
DATABASE_URL names, at tables made by bench.setup_tables.

    python -m bench.profile_move --tables-file var/bench/tables.json --moves 200 [--profile] [--move-path socket]

With `--move-path socket` each move is made as the table socket takes it from the page (the consumer's
`member_actions.act_from_socket`, the same service call, no reply rendered: the mover's board is its push).

At paced tables (a tables file made with TABLE_BOT_SPEED=brisk, as `bench.run` makes them) the bots' moves are the
table clock's, each its own board version: after every member action the clock's pass (`clock.sweep`) runs at the
moment the table is due, one pass a bot move, until a member is to act again, and each socket renders the board of
every version. Each part is timed in wall time and in the process's CPU time (`time.process_time`: on a busy
machine wall time counts other processes' turns too); the last line divides the CPU of all parts (the actions,
the clock's passes and the boards) by the board versions made, the figure issue 21's first target is about.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

PACED_WITHIN = 5.0  # seconds: a table due this soon is a paced bot's move (a member's turn lasts minutes)


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages, printed beside the figures (a busy machine's CPU times run high)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables-file", type=Path, required=True)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--move-path", choices=["post", "socket"], default="post")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from tables.models import Table
    from tables.play import member_actions
    from tables.play.board_parts import Sent, delta
    from tables.play.consumers import TableConsumer
    from tables.play.services import clock
    from tables.play.services.errors import TableError

    load_before = loadavg()
    data = json.loads(args.tables_file.read_text())
    rng = random.Random(1)
    tables = []
    for row in data["tables"]:
        users = [User.objects.get(username=m["username"]) for m in row["members"]]
        clients = []
        for user in users:
            client = Client(HTTP_HX_REQUEST="true", HTTP_HOST="127.0.0.1")
            client.force_login(user)
            clients.append(client)
        tables.append((Table.objects.get(code=row["code"]), users, clients))

    sent: dict[tuple[int, int], Sent] = {}  # what each member's socket last sent (tables.play.board_parts)
    sizes = {"whole": 0, "sent": 0, "boards": 0}  # bytes of the boards pushed after versions, and of what was sent

    def socket_render(table: Table, user: User, version: int | None = None) -> str:
        """What a table socket sends: on connect (no version), or on the event announcing `version`; the whole board
        (and, after a version, the parts it changed are counted as sent)."""
        consumer = TableConsumer()
        consumer.table_id, consumer.table_code = table.pk, table.code
        consumer.scope = {"user": user}
        board, made = consumer._render(version)
        if version is not None:
            changes = delta(board, version=made, sent=sent.get((table.pk, user.pk)))
            sizes["whole"] += len(board.html.encode())
            sizes["sent"] += len((changes if changes is not None else board.html).encode())
            sizes["boards"] += 1
        sent[(table.pk, user.pk)] = Sent(version=made, frame=board.frame, parts=board.parts)
        return board.html

    timings: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    queries: dict[str, list[int]] = defaultdict(list)
    versions = 0

    def boards_of(table: Table, users: list[User], version: int) -> None:
        """Every member's socket renders the board of `version` (what its push makes it do)."""
        nonlocal versions
        versions += 1
        for user in users:
            started, started_cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as captured:
                socket_render(table, user, version)
            timings["push: one socket's board"].append(time.perf_counter() - started)
            cpu["push: one socket's board"].append(time.process_time() - started_cpu)
            queries["push: one socket's board"].append(len(captured))

    profiler = cProfile.Profile() if args.profile else None
    done = 0
    version_re = re.compile(r'data-version="(\d+)"')
    move_re = re.compile(r'data-move="([^"]+)"')
    round_re = re.compile(r"round (\d+)</span>")
    readied: set[tuple[int, int, str]] = set()
    attempts = 0
    while done < args.moves and attempts < args.moves * 20:
        attempts += 1
        table, users, clients = rng.choice(tables)
        table.refresh_from_db()
        boards = [socket_render(table, user) for user in users]
        action = None
        for index, html in enumerate(boards):
            moves = move_re.findall(html)
            if moves:
                action = ("move", index, rng.choice(moves))
                break
        if action is None:
            for index, html in enumerate(boards):
                found = round_re.search(html)
                key = (table.pk, index, found.group(1) if found else "?")
                if "/ready/" in html and key not in readied:
                    readied.add(key)
                    action = ("ready", index, "")
                    break
        if action is None:
            continue
        kind, index, move = action
        version = int(version_re.search(boards[index]).group(1))
        if profiler:
            profiler.enable()
        if args.move_path == "socket":
            name = f"{kind}: socket message (service)"
            message = {"kind": kind, "table": table.code, "move": move, "version": str(version)}
            started, started_cpu = time.perf_counter(), time.process_time()
            try:
                with CaptureQueriesContext(connection) as captured:
                    made = member_actions.act_from_socket(table_id=table.pk, table_code=table.code,
                                                          user=users[index], message=message)
                refused = None
            except TableError as error:
                refused = str(error)
        else:
            name = f"{kind}: POST (service + reply)"
            started, started_cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as captured:
                response = clients[index].post(f"/t/{table.code}/{kind}/", {"move": move, "version": version})
            refused = None if response.status_code == 200 else f"{response.status_code} {response.content[:200]!r}"
        timings[name].append(time.perf_counter() - started)
        cpu[name].append(time.process_time() - started_cpu)
        queries[name].append(len(captured))
        if refused is not None:
            print("refused:", refused, file=sys.stderr)
            if profiler:
                profiler.disable()
            continue
        if args.move_path == "post":
            made = int(version_re.search(response.content.decode()).group(1))

        boards_of(table, users, made)
        # A paced table: the clock plays each bot move when it is due (a pace away; members have minutes), one pass
        # and one version a move, until a member is to act or the round is over.
        for _ in range(100):
            if profiler:
                profiler.disable()
            table.refresh_from_db()
            if table.due_at is None or (table.due_at - timezone.now()).total_seconds() > PACED_WITHIN:
                break
            if profiler:
                profiler.enable()
            name = "clock: one pass (a bot's move)"
            started, started_cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as captured:
                clock.sweep(now=max(table.due_at, timezone.now()))
            timings[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - started_cpu)
            queries[name].append(len(captured))
            stepped = Table.objects.filter(pk=table.pk).values_list("version", flat=True).first()
            if stepped is not None and stepped > table.version:
                boards_of(table, users, stepped)
        if profiler:
            profiler.disable()
        done += 1

    print(f"{done} actions at {len(tables)} tables, {versions} board versions; load average {load_before} before, "
          f"{loadavg()} after")
    for name, values in timings.items():
        values.sort()
        q = queries[name]
        print(f"  {name:32} n={len(values):4}  mean {1000 * sum(values) / len(values):7.2f} ms  "
              f"p50 {1000 * values[len(values) // 2]:7.2f} ms  cpu {1000 * sum(cpu[name]) / len(values):7.2f} ms  "
              f"queries {min(q)}..{max(q)} (mean {sum(q) / len(q):.2f})")
    if versions:
        total_cpu = sum(sum(values) for values in cpu.values())
        total_queries = sum(sum(q) for q in queries.values())
        print(f"  per board version: cpu {1000 * total_cpu / versions:.2f} ms, queries {total_queries / versions:.2f} "
              f"(every part above, refusals included, over {versions} versions)")
    if sizes["boards"]:
        whole, sent_bytes = sizes["whole"] / sizes["boards"], sizes["sent"] / sizes["boards"]
        print(f"  bytes per viewer per version: the whole board {whole:.0f}, sent (the parts changed) {sent_bytes:.0f}")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
