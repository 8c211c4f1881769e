"""`manage.py bench_matchmaking`: how fast quick play seats a crowd (see tables/quickplay/bench.py)."""

from __future__ import annotations

from tables.quickplay.bench import BenchMatchmaking


class Command(BenchMatchmaking):
    pass
