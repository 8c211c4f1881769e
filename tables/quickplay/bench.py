"""How fast quick play seats a crowd, through the real services (`manage.py bench_matchmaking` runs it).

Fills the queue with N simulated members spread over the four games (each asking for the game's
usual table or "any" count, the usual band or "any"), one `enqueue` call per member in a shuffled
order, and reports requests matched a second and the wait from the last request a table needed to
that table existing (the enqueue call that completed it, start to commit): median and 99th percentile.

By default it runs in a scratch database made like the test runner's (migrated, then dropped), so
the club's data is never touched; `--in-place` uses the configured database and removes what it
made. Pushes go to the configured channel layer, as they do on the site.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, connections

from accounts.models import User
from rules.engine import registry
from tables.models import QueueRequest, Table
from tables.quickplay.services import matchmaking

PREFIX = "bench-qp-"


@dataclass
class Call:
    game: str
    seconds: float
    state: str
    formed: bool  # this call's request completed a table (so `seconds` is that table's wait)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def plan_requests(count: int, rng: random.Random, any_share: float) -> list[tuple[int, dict[str, Any]]]:
    """(member index, enqueue kwargs) in arrival order: the four games in turn, then shuffled."""
    plans = []
    for index in range(count):
        spec = registry.all_specs()[index % len(registry.game_keys())]
        players = None if spec.min_players < spec.max_players and rng.random() < any_share else spec.default_players
        game_bands = matchmaking.bands(spec.key)
        band = "" if not game_bands or rng.random() < any_share else game_bands[0].key
        plans.append((index, {"game": spec.key, "players": players, "band": band}))
    rng.shuffle(plans)
    return plans


class BenchMatchmaking(BaseCommand):
    help = "Benchmark quick play: N simulated members asking at once; matched a second and wait to a table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--members", type=int, default=1000, help="simulated members (default 1000)")
        parser.add_argument("--threads", type=int, default=1, help="members asking at the same time (default 1)")
        parser.add_argument("--any-share", type=float, default=0.3,
                            help="share of requests with any player count / any band (default 0.3)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--in-place", action="store_true",
                            help="use the configured database instead of a scratch one (cleans up after)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["members"] < 2 or options["threads"] < 1:
            self.stderr.write("Need at least 2 members and 1 thread.")
            return
        creation = connection.creation
        scratch = None
        if not options["in_place"]:
            scratch = creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            self._bench(options)
        finally:
            if options["in_place"]:
                self._clean_up()
            elif scratch is not None:
                connections.close_all()
                creation.destroy_test_db(scratch, verbosity=0)

    def _bench(self, options: dict[str, Any]) -> None:
        count, threads = options["members"], options["threads"]
        rng = random.Random(options["seed"])
        password = make_password(None)
        User.objects.bulk_create(
            [User(username=f"{PREFIX}{i}", email=f"{PREFIX}{i}@bench.invalid", password=password)
             for i in range(count)], batch_size=500,
        )
        users = {int(u.username.removeprefix(PREFIX)): u for u in User.objects.filter(username__startswith=PREFIX)}
        plans = plan_requests(count, rng, options["any_share"])
        calls: list[Call] = []
        errors: list[str] = []

        def ask(plan: tuple[int, dict[str, Any]]) -> None:
            index, kwargs = plan
            try:
                started = time.perf_counter()
                made = matchmaking.enqueue(user=users[index], **kwargs)
                seconds = time.perf_counter() - started
            except Exception as error:  # report, do not stop the run
                errors.append(f"{type(error).__name__}: {error}")
                return
            calls.append(Call(game=kwargs["game"], seconds=seconds, state=made.state,
                              formed=made.state == QueueRequest.State.MATCHED))

        elapsed, cpu = asyncio.run(self._arrive(plans, ask, threads))
        connections.close_all()

        requests = QueueRequest.objects.filter(user__username__startswith=PREFIX)
        states = Counter(requests.values_list("state", flat=True))
        matched = states.get(QueueRequest.State.MATCHED, 0)
        tables = Table.objects.filter(queue_requests__user__username__startswith=PREFIX).distinct()
        waits = [c.seconds * 1000 for c in calls if c.formed]
        all_calls = [c.seconds * 1000 for c in calls]
        db = connection.settings_dict
        layer = type(get_channel_layer()).__name__
        self.stdout.write(f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({db['NAME']}); channel layer: {layer}; "
                          f"threads: {threads}")
        self.stdout.write(f"members: {count}  requests: {sum(states.values())}  matched: {matched}  "
                          f"still waiting: {states.get(QueueRequest.State.WAITING, 0)}  errors: {len(errors)}")
        self.stdout.write(f"tables formed: {tables.count()}  "
                          + "  ".join(f"{g}: {n}" for g, n in sorted(Counter(tables.values_list('game', flat=True))
                                                                     .items())))
        self.stdout.write(f"elapsed: {elapsed:.2f} s (CPU {cpu:.2f} s)  matched a second: {matched / elapsed:.0f}  "
                          f"requests a second: {len(calls) / elapsed:.0f}")
        if waits:
            self.stdout.write(
                f"wait from the last needed request to its table: median {statistics.median(waits):.1f} ms, "
                f"p99 {percentile(waits, 0.99):.1f} ms, max {max(waits):.1f} ms (over {len(waits)} tables)"
            )
        if all_calls:
            self.stdout.write(f"every enqueue call: median {statistics.median(all_calls):.1f} ms, "
                              f"p99 {percentile(all_calls, 0.99):.1f} ms")
        for message, n in Counter(errors).most_common(5):
            self.stdout.write(f"error x{n}: {message}")

    @staticmethod
    async def _arrive(plans: list[tuple[int, dict[str, Any]]], ask: Any, threads: int) -> tuple[float, float]:
        """Every member asks, in arrival order, at most `threads` at once, the way the site calls the
        service: sync code under a running event loop (so pushes go out as they do under Daphne)."""
        pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
        call = sync_to_async(ask, thread_sensitive=pool is None, executor=pool)
        gate = asyncio.Semaphore(threads)

        async def one(plan: tuple[int, dict[str, Any]]) -> None:
            async with gate:
                await call(plan)

        started, cpu_started = time.perf_counter(), time.process_time()
        await asyncio.gather(*(one(plan) for plan in plans))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        # Each worker thread closes its own database connection (a barrier makes each take one).
        barrier = threading.Barrier(threads)

        def close() -> None:
            if threads > 1:
                barrier.wait(timeout=30)
            connection.close()

        closer = sync_to_async(close, thread_sensitive=pool is None, executor=pool)
        await asyncio.gather(*(closer() for _ in range(threads)))
        if pool is not None:
            pool.shutdown()
        return elapsed, cpu

    def _clean_up(self) -> None:
        tables = Table.objects.filter(queue_requests__user__username__startswith=PREFIX).distinct()
        Table.objects.filter(pk__in=list(tables.values_list("pk", flat=True))).delete()
        QueueRequest.objects.filter(user__username__startswith=PREFIX).delete()
        User.objects.filter(username__startswith=PREFIX).delete()
