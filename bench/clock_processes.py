"""The table clock shared by several processes, measured: paced tables of strong bots served by one Daphne process,
then by two, on PostgreSQL (issue 40, item 3).

    .venv/bin/python -m bench.clock_processes [--code .] [--processes 1,2] [--strong 8] [--victims 2]
                                              [--warmup 15] [--seconds 60]

Each process's table clock used to read the same due list in the same order and wait on the same table locks, and a
searching bot's first step claimed nothing: a second process added no clock capacity and ran the searches the first
was running, one result thrown away. This serves the same load from one process and from two, from each checkout
named by `--code` (e.g. `/work/main,.`), and counts:

- searches a second: search-level bot moves recorded at the strong tables (from the database), and the searches the
  processes ran (from their logs, below); the difference is searches thrown away;
- duplicate searches: searches run again for a (table, version, seat) some process had already searched (must be 0);
- the bots' spacing at other tables: members at brisk tables of easy bots, the gap at their sockets between a
  board and the next where the next is a bot's move after a bot's move (brisk's pace: 0.4 s; after a trick 1.0 s),
  median and p90; and each process's CPU.

How, and why that way:
- Each configuration: a fresh PostgreSQL database (`cardclub_clockbench`, dropped and made again, migrated by that
  checkout's own `manage.py`), a Redis server of the bench's own (a child on a free port, nothing saved, so the
  processes share pushes and snapshots as in production), and N Daphne processes from that checkout, pinned to
  `--server-cores` (core 0) while this process keeps to core 1. The servers run through bench/counted_searches.py,
  which logs every search a process starts, by table, version and seat; the bench reads the logs afterwards.
- Members (logged-in sessions) and tables are made from this process through the club's services; from then on all
  goes through the servers as a browser would (sockets and POSTs), the members dealt to the processes in turn.
- `--strong` members each play a brisk table of strong bots (Hawk, Sheepshead, Puskiyon in turn), every own move and
  "ready" at once: their bots' searches are always due, more than a process's search budget (TABLE_SEARCH_SHARE, a
  quarter of a core by default) allows, so searches a second is what the processes' clocks can do. `--victims`
  members each play a brisk Hawk table of easy bots the same way.
- After `--warmup` seconds, `--seconds` are measured. Numbers are written, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.httpc import Pool
from bench.loadgen import cpu_and_rss
from bench.search_attack import ATTACK_GAMES, Player, bot_moves, label_of, loadavg, make_table, spacing, stats
from bench.table_pace import Site, db, make_members, move_facts
from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
COUNTER = ROOT / "bench" / "counted_searches.py"
DB_NAME = "cardclub_clockbench"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
BENCH_CORE = 1
ENV = {
    "DEBUG": "true",  # as bench.search_attack: pages and boards need no collectstatic
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdefghijkl",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "INFO",
    "PYTHONUNBUFFERED": "1",
}
SEARCH_LINE = re.compile(r"bench-search ([\d.]+) (\d+) (\d+) (\d+)")
THROWN_LINE = re.compile(r"table clock: table \d+ moved on .* while its bot searched")


def now() -> float:
    return time.perf_counter()


# -- what the logs say ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchCount:
    """The searches the processes ran in a window: all of them, how many were of a (table, version, seat) searched
    already (by any process, in the window or before it), and how many each process ran."""

    searches: int
    duplicates: int
    by_process: tuple[int, ...]


def count_searches(logs: list[str], start: float, end: float) -> SearchCount:
    """From each process's log (the lines bench/counted_searches.py writes): the searches run in [start, end) (wall
    time), and of those, the ones whose (table, version, seat) some process had searched before."""
    runs: list[tuple[float, int, tuple[int, int, int]]] = []
    for process, text in enumerate(logs):
        for at, table, version, seat in SEARCH_LINE.findall(text):
            runs.append((float(at), process, (int(table), int(version), int(seat))))
    runs.sort()
    seen: Counter[tuple[int, int, int]] = Counter()
    searches, duplicates = 0, 0
    by_process = [0] * len(logs)
    for at, process, key in runs:
        seen[key] += 1
        if start <= at < end:
            searches += 1
            by_process[process] += 1
            duplicates += seen[key] > 1
    return SearchCount(searches=searches, duplicates=duplicates, by_process=tuple(by_process))


# -- the servers ------------------------------------------------------------------------------------------------


def psql_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}


def fresh_database(checkout: Path, env: dict[str, str]) -> None:
    from django.db import connections

    connections.close_all()
    connection = connections["default"]
    if hasattr(connection, "close_pool"):  # the pool's connections are to the database about to be dropped
        connection.close_pool()
    for cmd in (["dropdb", "--if-exists", "--force", "-h", "127.0.0.1", "-U", "postgres", DB_NAME],
                ["createdb", "-h", "127.0.0.1", "-U", "postgres", DB_NAME]):
        subprocess.run(cmd, env=psql_env(), check=True, capture_output=True)
    result = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=checkout,
                            env={**os.environ, **env}, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"migrate in {checkout} failed:\n{result.stdout}\n{result.stderr}")


def start_redis(port: int, log_path: Path) -> subprocess.Popen[bytes]:
    handle = log_path.open("ab")
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=handle, stderr=subprocess.STDOUT)
    wait_for_port(port, process, timeout=30)
    return process


def start_server(checkout: Path, env: dict[str, str], port: int, cores: str,
                 log_path: Path) -> subprocess.Popen[bytes]:
    handle = log_path.open("ab")
    process = subprocess.Popen(
        ["taskset", "-c", cores, sys.executable, str(COUNTER), "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=checkout, env={**os.environ, **env}, stdout=handle, stderr=subprocess.STDOUT)
    wait_for_port(port, process, timeout=60)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- one configuration ------------------------------------------------------------------------------------------


async def measure(args: argparse.Namespace, ports: list[int], pids: list[int], tag: str) -> dict[str, Any]:
    sites = [Site(port, Pool("127.0.0.1", port, size=16)) for port in ports]
    people = await db(make_members, prefix=f"{tag}-", count=args.strong + args.victims)
    rng = random.Random(args.seed)
    players: list[Player] = []
    strong_ids: list[int] = []
    for i, member in enumerate(people):
        site = sites[i % len(sites)]
        if i < args.strong:
            game, seats = ATTACK_GAMES[i % len(ATTACK_GAMES)]
            table_id, code = await db(make_table, member=member, game=game, players=seats, speed="brisk",
                                      level="strong")
            strong_ids.append(table_id)
        else:
            table_id, code = await db(make_table, member=member, game="hawk", players=4, speed="brisk",
                                      level="easy")
        players.append(Player(site, member, table_id, code, random.Random(rng.random())))
    victims = players[args.strong:]
    began = now()
    until = began + args.warmup + args.seconds
    playing = asyncio.gather(*(p.play(until) for p in players))
    await asyncio.sleep(max(0.0, began + args.warmup - now()))
    start, wall_start, load_start = now(), time.time(), loadavg()
    cpu_start = [cpu_and_rss(pid)[0] for pid in pids]
    await playing
    end, wall_end, load_end = now(), time.time(), loadavg()
    cpu = [cpu_and_rss(pid)[0] - before for pid, before in zip(pids, cpu_start, strict=True)]
    for site in sites:
        await site.pool.close()
    for player in players:
        if player.socket is not None:
            await player.socket.close()

    gaps: dict[str, list[float]] = {"bot": [], "bot_trick": []}
    for victim in victims:
        facts, _mismatched = await db(move_facts, table_id=victim.table_id)
        assert victim.socket is not None
        found = spacing(victim.socket.boards, facts, start, end)
        for kind in gaps:
            gaps[kind] += found[kind]
    since, upto = datetime.fromtimestamp(wall_start, UTC), datetime.fromtimestamp(wall_end, UTC)
    recorded = await db(bot_moves, table_ids=strong_ids, since=since, until=upto)
    victim_moves = await db(bot_moves, table_ids=[v.table_id for v in victims], since=since, until=upto)
    seconds = end - start
    return {
        "seconds": round(seconds, 1), "wall": [wall_start, wall_end],
        "recorded_searches": recorded, "recorded_per_second": round(recorded / seconds, 2),
        "victim_bot_moves_per_minute": round(victim_moves * 60 / seconds, 1),
        "victim_spacing": {kind: stats(values) for kind, values in gaps.items()},
        "server_cpu_share": [round(c / seconds, 2) for c in cpu],
        "loadavg_start": load_start, "loadavg_end": load_end,
        "http_errors": [e for site in sites for e in site.errors][:20],
    }


def run_config(args: argparse.Namespace, checkout: Path, processes: int, out: Path, index: int) -> dict[str, Any]:
    label = label_of(checkout)
    print(f"{label}: {processes} process(es)", file=sys.stderr, flush=True)
    redis_port = free_port()
    redis = start_redis(redis_port, out / f"redis-{index}.log")
    env = {**ENV, "DATABASE_URL": DB_URL, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
    if args.search_threads is not None:
        env["TABLE_SEARCH_THREADS"] = str(args.search_threads)
    servers: list[subprocess.Popen[bytes]] = []
    logs = [out / f"daphne-{index}-{n}.log" for n in range(processes)]
    try:
        fresh_database(checkout, env)
        ports = [free_port() for _ in range(processes)]
        servers = [start_server(checkout, env, port, args.server_cores, path)
                   for port, path in zip(ports, logs, strict=True)]
        result = asyncio.run(measure(args, ports, [s.pid for s in servers], f"c{index}"))
    finally:
        for server in servers:
            stop(server)
        stop(redis)
    texts = [path.read_text(errors="replace") for path in logs]
    counted = count_searches(texts, *result["wall"])
    result.update({
        "code": label, "processes": processes, "logs": [str(p) for p in logs],
        "searches": counted.searches, "searches_per_second": round(counted.searches / result["seconds"], 2),
        "duplicate_searches": counted.duplicates, "searches_by_process": list(counted.by_process),
        "plans_thrown_away": sum(len(THROWN_LINE.findall(t)) for t in texts),
        "server_log_errors": sum(len(re.findall(r"Traceback|ERROR", t)) for t in texts),
    })
    return result


# -- the report -------------------------------------------------------------------------------------------------


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def report(result: dict[str, Any]) -> str:
    args = result["args"]
    lines = [f"clock_processes {result['started']}: {args['strong']} brisk tables of strong bots and {args['victims']} "
             f"brisk tables of easy bots, members playing every turn at once; warm-up {args['warmup']:.0f} s, "
             f"measured {args['seconds']:.0f} s; PostgreSQL and Redis, servers on cores {args['server_cores']}, "
             f"the bench on core {BENCH_CORE}", "",
             "| code | processes | searches run / s | recorded / s | duplicate searches | searches by process | "
             "other tables: after a bot's move, median / p90 s (pace 0.4) | after a trick, median / p90 s (pace 1.0) "
             "| victims' bot moves / min | server CPU s/s | load avg (start -> end) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for config in result["configs"]:
        bot, trick = config["victim_spacing"]["bot"], config["victim_spacing"]["bot_trick"]
        load = " / ".join(f"{v:.2f}" for v in config["loadavg_start"]) + " -> " + " / ".join(
            f"{v:.2f}" for v in config["loadavg_end"])
        lines.append(
            f"| {config['code']} | {config['processes']} | {config['searches_per_second']:.2f} | "
            f"{config['recorded_per_second']:.2f} | {config['duplicate_searches']} | "
            f"{' + '.join(str(n) for n in config['searches_by_process'])} | {_f(bot['median'])} / {_f(bot['p90'])} "
            f"(n {bot['n']}) | {_f(trick['median'])} / {_f(trick['p90'])} (n {trick['n']}) | "
            f"{config['victim_bot_moves_per_minute']:.1f} | "
            f"{' + '.join(f'{c:.2f}' for c in config['server_cpu_share'])} | {load} |")
    lines.append("")
    for config in result["configs"]:
        lines.append(f"{config['code']}, {config['processes']} process(es): {config['plans_thrown_away']} searches "
                     f"not recorded (the table had moved on), {config['server_log_errors']} errors or tracebacks in "
                     f"the servers' logs, {len(config['http_errors'])} HTTP errors"
                     + (": " + "; ".join(config["http_errors"][:3]) if config["http_errors"] else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", default=str(ROOT), help="comma-separated checkouts to serve from, in turn")
    parser.add_argument("--processes", default="1,2", help="comma-separated: how many Daphne processes, in turn")
    parser.add_argument("--strong", type=int, default=8, help="members at brisk tables of strong bots")
    parser.add_argument("--victims", type=int, default=2, help="members at brisk tables of easy bots")
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--server-cores", default="0", help="taskset's list for the servers")
    parser.add_argument("--search-threads", type=int, default=None, help="TABLE_SEARCH_THREADS (default: the site's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    checkouts = [Path(c).resolve() for c in args.code.split(",") if c]
    counts = [int(n) for n in args.processes.split(",") if n]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = RESULTS / f"clock_processes-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    os.environ.update({**ENV, "DATABASE_URL": DB_URL})
    os.environ.pop("REDIS_URL", None)  # this process makes members and tables; it needs no layer
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    with contextlib.suppress(AttributeError, OSError):  # where it cannot pin, it runs unpinned
        os.sched_setaffinity(0, {BENCH_CORE})
    import django

    django.setup()
    started = time.monotonic()
    result: dict[str, Any] = {"started": stamp, "args": vars(args), "configs": []}
    index = 0
    for checkout in checkouts:
        for processes in counts:
            result["configs"].append(run_config(args, checkout, processes, out, index))
            index += 1
    result["total_seconds"] = round(time.monotonic() - started, 1)
    (out / "clock_processes.json").write_text(json.dumps(result, indent=1, default=str))
    text = report(result)
    (out / "clock_processes.md").write_text(text + "\n")
    print(text)
    print(f"\n{result['total_seconds']:.0f} s in all; {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
