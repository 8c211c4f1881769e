"""Turning the load generator's step results into results.md, steps.csv and latency.png.

Kept apart from the runner so a report can be written again from the JSON files of an earlier run:
    python -m bench.report bench/results/<timestamp>
"""

from __future__ import annotations

import csv
import json
import os
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MOVE_RATE_NOTE = "one move every {interval:g} s per table"
CONFIG_ORDER = ["sqlite", "pg1", "pg2", "nginx2", "floor", "baseline"]


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def server_cpu_ms_per_move(step: dict[str, Any]) -> float | None:
    """All server processes' CPU over the window, per successful action (move or ready)."""
    if not step["ok"]:
        return None
    return 1000 * sum(p["cpu_s"] for p in step["procs"].values()) / step["ok"]


def server_cpu_ms_per_version(step: dict[str, Any]) -> float | None:
    """All server processes' CPU over the window, per board version the tables made (older results: None)."""
    if not step.get("versions"):
        return None
    return 1000 * sum(p["cpu_s"] for p in step["procs"].values()) / step["versions"]


def whole_cpu_ms_per_move(step: dict[str, Any]) -> float | None:
    """Everything the site runs on, per successful action: every Daphne process, nginx (when in front),
    PostgreSQL and Redis."""
    if not step["ok"]:
        return None
    seconds = sum(p["cpu_s"] for p in step["procs"].values()) + (step.get("nginx_cpu_s") or 0.0)
    return 1000 * (seconds + step["postgres_cpu_s"] + step["redis_cpu_s"]) / step["ok"]


def sustained(result: dict[str, Any]) -> int:
    best = 0
    for step in result["steps"]:
        if step["sustained"]:
            best = max(best, step["tables"])
    return best


def memory_figures(result: dict[str, Any]) -> tuple[float | None, float | None]:
    """Median RSS growth (all server processes together) per newly connected socket and per added table (KiB)."""
    per_socket, per_table = [], []
    previous_end: float | None = None
    previous_tables = 0
    for step in result["steps"]:
        before = sum(p["rss_before_connect_mb"] for p in step["procs"].values())
        after = sum(p["rss_after_connect_mb"] for p in step["procs"].values())
        end = sum(p["rss_mb"] for p in step["procs"].values())
        added = step["tables"] - previous_tables
        if added >= 10:
            per_socket.append((after - before) * 1024 / (2 * added))
            start = previous_end if previous_end is not None else before
            per_table.append((end - start) * 1024 / added)
        previous_end, previous_tables = end, step["tables"]
    return (statistics.median(per_socket) if per_socket else None,
            statistics.median(per_table) if per_table else None)


def by_tables(result: dict[str, Any] | None) -> dict[int, dict[str, Any]]:
    return {s["tables"]: s for s in result["steps"]} if result else {}


def write_csv(path: Path, results: list[dict[str, Any]]) -> None:
    fields = ["config", "tables", "sockets", "seconds", "actions", "ok", "moves", "readies", "moves_per_s", "errors",
              "expected", "delivered", "delivered_pct", "p50_ms", "p95_ms", "p99_ms", "max_ms", "post_p50_ms",
              "post_p99_ms", "skipped_ticks", "idle_ticks", "socket_errors", "server_cpu_util",
              "server_cpu_ms_per_move", "versions", "server_cpu_ms_per_version",
              "server_rss_mb", "postgres_cpu_s", "redis_cpu_s", "nginx_cpu_s", "whole_cpu_ms_per_move",
              "loadgen_cpu_util", "over_capacity", "log_errors",
              "sustained"]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for result in results:
            for step in result["steps"]:
                row = {k: step.get(k) for k in fields if k in step}
                row.update(
                    config=result["config"], socket_errors=len(step["socket_errors"]),
                    server_cpu_util=round(sum(p["cpu_util"] for p in step["procs"].values()), 3),
                    server_cpu_ms_per_move=_round(server_cpu_ms_per_move(step)),
                    server_cpu_ms_per_version=_round(server_cpu_ms_per_version(step)),
                    whole_cpu_ms_per_move=_round(whole_cpu_ms_per_move(step)),
                    server_rss_mb=round(sum(p["rss_mb"] for p in step["procs"].values()), 1),
                    over_capacity=step["log"]["over_capacity"], log_errors=step["log"]["errors"],
                )
                writer.writerow(row)


TARGET_TABLES = 10_000
CORE_BUDGET = 0.7  # a core kept at 70 %
POOL_SIZE = 20  # DATABASE_POOL_SIZE's default (config/settings.py)


def ten_thousand(add: Any, results: list[dict[str, Any]]) -> None:
    """Target 6 of issue 21: 10,000 live tables, scaled from one measured step of each PostgreSQL configuration
    (the largest with every fragment delivered): actions a second, and per action the CPU of each tier, the
    commits and rows PostgreSQL wrote and the commands Redis processed."""
    rows = []
    for result in results:
        if result["config"] not in ("pg1", "pg2", "nginx2"):
            continue
        # A sustained step: an overloaded one answers fewer actions than its tables ask for, and would scale down
        # the demand. Its rates per action are the figures; the demand is what a table asks for when served.
        good = [s for s in result["steps"] if s.get("sustained") and s["ok"] and s.get("services_per_s")] or \
            [s for s in result["steps"] if s["delivered_pct"] == 100 and s["ok"] and s.get("services_per_s")]
        if not good:
            continue
        step = good[-1]
        per_table = step["ok"] / step["seconds"] / step["tables"]  # member actions a second per table
        actions = per_table * TARGET_TABLES
        versions = (step.get("versions") or step["ok"]) / step["seconds"] / step["tables"] * TARGET_TABLES
        ms = {
            "Daphne": 1000 * sum(p["cpu_s"] for p in step["procs"].values()) / step["ok"],
            "nginx": 1000 * (step.get("nginx_cpu_s") or 0.0) / step["ok"],
            "PostgreSQL": 1000 * step["postgres_cpu_s"] / step["ok"],
            "Redis": 1000 * step["redis_cpu_s"] / step["ok"],
        }
        cores = {tier: actions * value / 1000 / CORE_BUDGET for tier, value in ms.items()}
        rate = {key: value / step["ok"] * step["seconds"] * actions for key, value in step["services_per_s"].items()}
        rows.append((result["config"], step, actions, versions, ms, cores, rate))
    if not rows:
        return
    add("")
    add(f"## On paper: {TARGET_TABLES:,} live tables")
    add("")
    add("Scaled from the largest sustained step of each PostgreSQL configuration (the step named; else the largest "
        "fully delivered one); each tier's "
        "cores at 70 %. Daphne processes: one per core. PostgreSQL connections: processes x the pool size "
        f"({POOL_SIZE}, `DATABASE_POOL_SIZE`). Redis runs its commands on one core: past about "
        f"{CORE_BUDGET:.0%} of one core it saturates, whatever the machine.")
    add("")
    add("| config (step) | member actions / s | board versions / s | Daphne cores (= processes) | nginx cores | "
        "PostgreSQL cores | Redis cores | PG connections | PG commits / s | PG rows written / s | "
        "Redis commands / s |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for config, step, actions, versions, _ms, cores, rate in rows:
        processes = max(1, round(cores["Daphne"] + 0.5))
        add(f"| {config} ({step['tables']}) | {actions:,.0f} | {versions:,.0f} | {cores['Daphne']:.0f} | "
            f"{cores['nginx']:.1f} | {cores['PostgreSQL']:.1f} | {cores['Redis']:.2f} | {processes * POOL_SIZE:,} | "
            f"{rate.get('pg_commits', 0):,.0f} | {rate.get('pg_rows_written', 0):,.0f} | "
            f"{rate.get('redis_commands', 0):,.0f} |")
    config, step, actions, versions, ms, cores, rate = rows[-1]
    first = "Redis (one core)" if cores["Redis"] > 1 else "the Daphne processes' cores (they scale out; Redis " \
        f"would need {cores['Redis']:.2f} of its one core)"
    add("")
    add(f"What saturates first ({config}): {first}. PostgreSQL needs {cores['PostgreSQL']:.1f} cores and "
        f"{rate.get('pg_commits', 0):,.0f} commits a second (group commit on one disk; one primary), and "
        f"{max(1, round(cores['Daphne'] + 0.5)) * POOL_SIZE:,} connections from the pools: far over PostgreSQL's "
        "default max_connections (100), so a pooler (PgBouncer, transaction mode) or smaller pools per process.")


def _round(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def plot(path: Path, results: list[dict[str, Any]], limit_ms: float = 150.0) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    colours = {"sqlite": "tab:blue", "pg1": "tab:orange", "pg2": "tab:green", "nginx2": "tab:red",
               "floor": "tab:purple", "baseline": "tab:gray"}
    for result in results:
        steps = result["steps"]
        xs = [s["tables"] for s in steps]
        colour = colours.get(result["config"])
        label = f"{result['config']}: {result['description']}"
        left.plot(xs, [s["p99_ms"] for s in steps], marker="o", color=colour, label=f"{label} (p99)")
        left.plot(xs, [s["p50_ms"] for s in steps], marker=".", linestyle="--", color=colour)
        right.plot(xs, [server_cpu_ms_per_move(s) for s in steps], marker="o", color=colour, label=result["config"])
    left.axhline(limit_ms, color="red", linewidth=0.8, linestyle=":", label=f"p99 limit {limit_ms:g} ms")
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("tables (4 seats: 2 members + 2 bots), one move / 2 s each")
    left.set_ylabel("POST to pushed board at every socket (ms); solid p99, dashed p50")
    left.legend(fontsize=7)
    left.grid(True, which="both", alpha=0.3)
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("tables")
    right.set_ylabel("server CPU ms per move (all server processes)")
    right.legend(fontsize=8)
    right.grid(True, which="both", alpha=0.3)
    figure.suptitle("Card club: latency and CPU against load")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def write_report(out: Path, results: list[dict[str, Any]], *, argv: list[str] | None = None,
                 started: datetime | None = None, note: str = "") -> None:
    results = sorted(results, key=lambda r: CONFIG_ORDER.index(r["config"]) if r["config"] in CONFIG_ORDER else 9)
    write_csv(out / "steps.csv", results)
    plot(out / "latency.png", results)
    named = {r["config"]: r for r in results}
    base = by_tables(named.get("baseline"))
    first = results[0]
    lines: list[str] = []
    add = lines.append
    add(f"# Bench results {(started or datetime.now(UTC)):%Y-%m-%d %H:%M} UTC")
    add("")
    if note:
        add(f"**{note}**")
        add("")
    add(f"Machine: {os.cpu_count()} cores ({cpu_model()}); servers pinned to core 0, load generator to core 1 "
        "(`taskset`); PostgreSQL and Redis run unpinned (their CPU is reported separately).")
    add(f"Schedule: open loop, {MOVE_RATE_NOTE.format(interval=first['interval'])} with a random phase; "
        f"steps of {first['step_seconds']:g} s after a {first['warmup']:g} s warm-up per step"
        + (" (**shorter than the 60 s the issue asks for**)" if first["step_seconds"] < 60 else "") + ".")
    add("Tables of 4 seats (2 members + 2 bots), the games in turn (Puskiyon, Hawk, Sheepshead); every move is "
        "timed from just before its POST to the moment each of the table's 2 member sockets holds a board of at "
        "least the version the POST produced.")
    add("\"Sustained\" = 100 % of fragments delivered, p99 < 150 ms, no errors, no socket errors, no "
        "\"over capacity\" log lines.")
    if argv:
        add("")
        add(f"Command: `{' '.join(['python -m bench.run', *argv[1:]])}`")
    add("")
    add("| config | what | tables sustained | load average before → after |")
    add("| --- | --- | --- | --- |")
    for result in results:
        add(f"| {result['config']} | {result['description']} | {sustained(result)} | "
            f"{result.get('load_before', '?')} → {result.get('load_after', '?')} |")
    for result in results:
        add("")
        add(f"## {result['config']}: {result['description']}")
        add("")
        add(f"Load generator: `{result.get('command', '')}`")
        add("")
        add("| tables | sockets | moves/s | ok / errors | delivered | p50 | p95 | p99 | max | POST p50 / p99 | "
            "skipped ticks | server CPU (util per process) | CPU ms / move per process | RSS MB per process | "
            "PG / Redis (/ nginx) CPU s | loadgen CPU | over capacity | sustained |")
        add("| " + " | ".join(["---"] * 18) + " |")
        for step in result["steps"]:
            procs = list(step["procs"].values())
            add(" | ".join([
                f"| {step['tables']}", str(step["sockets"]), _fmt(step["moves_per_s"], 2),
                f"{step['ok']} / {step['errors']}" + (f" {step['error_kinds']}" if step["errors"] else ""),
                f"{_fmt(step['delivered_pct'], 2)} %", _fmt(step["p50_ms"]), _fmt(step["p95_ms"]),
                _fmt(step["p99_ms"]), _fmt(step["max_ms"]),
                f"{_fmt(step['post_p50_ms'])} / {_fmt(step['post_p99_ms'])}",
                str(step["skipped_ticks"]), " + ".join(_fmt(p["cpu_util"], 2) for p in procs),
                " + ".join(_fmt(p["cpu_ms_per_move"], 2) for p in procs),
                " + ".join(_fmt(p["rss_mb"]) for p in procs),
                f"{_fmt(step['postgres_cpu_s'], 2)} / {_fmt(step['redis_cpu_s'], 2)}"
                + (f" / {_fmt(step['nginx_cpu_s'], 2)}" if step.get("nginx_cpu_s") is not None else ""),
                _fmt(step["loadgen_cpu_util"], 2), str(step["log"]["over_capacity"]),
                "yes" if step["sustained"] else "no",
            ]) + " |")
        per_socket, per_table = memory_figures(result)
        add("")
        add(f"Memory (median over steps, RSS growth of all server processes): {_fmt(per_socket)} KiB per connected "
            f"socket (measured across each step's connecting), {_fmt(per_table)} KiB per running table "
            "(across the whole step: its 2 sockets plus whatever the play left behind).")
        if result.get("frame_bytes_mean"):
            add(f"Mean pushed frame: {result['frame_bytes_mean']} bytes. Tables whose match ended during the run: "
                f"{result.get('finished_tables', 0)}.")
        socket_errors = result.get("socket_errors_all") or []
        if socket_errors:
            add(f"Socket errors (first {len(socket_errors)}): " + "; ".join(socket_errors[:5]))
    if base:
        add("")
        add("## Ratios to the bare baseline at the same load")
        add("")
        add("| config | tables | p99 / baseline p99 | p50 / baseline p50 | CPU per move / baseline |")
        add("| --- | --- | --- | --- | --- |")
        for result in results:
            if result["config"] == "baseline":
                continue
            for step in result["steps"]:
                other = base.get(step["tables"])
                if not other or not other["p99_ms"] or step["p99_ms"] is None:
                    continue
                cpu, cpu_base = server_cpu_ms_per_move(step), server_cpu_ms_per_move(other)
                add(f"| {result['config']} | {step['tables']} | {step['p99_ms'] / other['p99_ms']:.1f} | "
                    f"{step['p50_ms'] / other['p50_ms']:.1f} | "
                    f"{(cpu / cpu_base) if cpu and cpu_base else float('nan'):.1f} |")
    floor = by_tables(named.get("floor"))
    if floor:
        add("")
        add("## Against the framework's floor (Daphne + Django + Channels doing nothing else)")
        add("")
        add("What a move costs the site beyond the stack it runs on: the floor serves the same POSTs and pushes "
            "with no database, middleware, templates or engine.")
        add("")
        add("| config | tables | CPU ms / move | CPU ms / version | floor CPU ms / move | the site's own ms / move | "
            "per version / floor per move (target <= 2) | p99 / floor p99 |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for result in results:
            if result["config"] in ("floor", "baseline"):
                continue
            for step in result["steps"]:
                other = floor.get(step["tables"])
                if not other:
                    continue
                cpu, cpu_floor = server_cpu_ms_per_move(step), server_cpu_ms_per_move(other)
                own = (cpu - cpu_floor) if cpu is not None and cpu_floor is not None else None
                ratio = (step["p99_ms"] / other["p99_ms"]) if step["p99_ms"] and other["p99_ms"] else float("nan")
                per_version = server_cpu_ms_per_version(step)
                to_floor = (per_version / cpu_floor) if per_version and cpu_floor else None
                add(f"| {result['config']} | {step['tables']} | {_fmt(cpu, 2)} | {_fmt(per_version, 2)} | "
                    f"{_fmt(cpu_floor, 2)} | {_fmt(own, 2)} | {_fmt(to_floor, 2)} | {ratio:.1f} |")
        floor_best = sustained(named["floor"])
        if floor_best:
            add("")
            add(f"Capacity against the floor (sustained: 100 % delivered, p99 under the limit): the floor sustained "
                f"{floor_best} tables; " + "; ".join(
                    f"{r['config']} {sustained(r)} ({100 * sustained(r) / floor_best:.0f} %)"
                    for r in results if r["config"] not in ("floor", "baseline")) + ".")
    pairs = [(name.partition("+")[0], name) for name in named if name.endswith("+socket")]
    pairs = [(post, sock) for post, sock in pairs if post in named]
    if pairs:
        add("")
        add("## Moves over the socket against by POST (issue 21, target 3)")
        add("")
        add("The same configuration twice in this run: members' moves by htmx POST, then as messages on their open "
            "table sockets (`+socket`). Server CPU per member action and per board version, and p99 from sending "
            "the move to the board at every member socket.")
        add("")
        add("| config | tables | POST: CPU ms / action | socket: CPU ms / action | socket / POST | "
            "POST: ms / version | socket: ms / version | POST p99 | socket p99 |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for post, sock in pairs:
            by_post, by_sock = by_tables(named[post]), by_tables(named[sock])
            for tables in sorted(set(by_post) & set(by_sock)):
                a, b = by_post[tables], by_sock[tables]
                ca, cb = server_cpu_ms_per_move(a), server_cpu_ms_per_move(b)
                add(f"| {post} | {tables} | {_fmt(ca, 2)} | {_fmt(cb, 2)} | "
                    f"{(cb / ca) if ca and cb else float('nan'):.2f} | {_fmt(server_cpu_ms_per_version(a), 2)} | "
                    f"{_fmt(server_cpu_ms_per_version(b), 2)} | {_fmt(a['p99_ms'])} | {_fmt(b['p99_ms'])} |")
    one, two = by_tables(named.get("pg1")), by_tables(named.get("pg2"))
    if one and two:
        add("")
        add("## Two processes against one (PostgreSQL + Redis)")
        add("")
        add("| tables | pg1 CPU ms / move | pg2 CPU ms / move (both processes) | ratio | pg2 delivered |")
        add("| --- | --- | --- | --- | --- |")
        for tables, step in sorted(two.items()):
            single = one.get(tables)
            a, b = (server_cpu_ms_per_move(single) if single else None), server_cpu_ms_per_move(step)
            add(f"| {tables} | {_fmt(a, 2)} | {_fmt(b, 2)} | {(b / a) if a and b else float('nan'):.2f} | "
                f"{_fmt(step['delivered_pct'], 2)} % |")
    behind = by_tables(named.get("nginx2"))
    if behind:
        add("")
        add("## Behind nginx (two processes) against one process, everything counted")
        add("")
        add("CPU per move of the whole: the Daphne processes, nginx's master and worker (nginx2 only), PostgreSQL "
            "and Redis. nginx speaks plain HTTP here (no TLS) and closes its connection to Daphne after every "
            "request that is not a socket, as the shipped site does.")
        add("")
        add("| tables | pg1 ms / move (Daphne + PG + Redis) | nginx2 ms / move (2 Daphne + nginx + PG + Redis) | "
            "of which nginx | ratio | nginx2 p99 | nginx2 delivered |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for tables, step in sorted(behind.items()):
            single = one.get(tables)
            a, b = (whole_cpu_ms_per_move(single) if single else None), whole_cpu_ms_per_move(step)
            proxy = 1000 * step["nginx_cpu_s"] / step["ok"] if step["ok"] and step.get("nginx_cpu_s") is not None \
                else None
            add(f"| {tables} | {_fmt(a, 2)} | {_fmt(b, 2)} | {_fmt(proxy, 2)} | "
                f"{(b / a) if a and b else float('nan'):.2f} | {_fmt(step['p99_ms'])} | "
                f"{_fmt(step['delivered_pct'], 2)} % |")
    add("")
    add("## On paper: tables a machine of N cores holds")
    add("")
    add("Per move, from the largest step each configuration ran with every fragment delivered: server CPU "
        "(all Daphne processes) plus nginx (where in front), PostgreSQL and Redis CPU; one move every 2 s per "
        "table; cores kept at 70 %.")
    add("")
    add("| config | step | Daphne CPU ms / move | + nginx + PG + Redis ms / move | tables per core | 4 cores | "
        "8 cores | 16 cores |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for result in results:
        if result["config"] in ("floor", "baseline"):
            continue
        good = [s for s in result["steps"] if s["delivered_pct"] == 100 and s["ok"]]
        if not good:
            continue
        step = good[-1]
        daphne = server_cpu_ms_per_move(step) or 0.0
        total = whole_cpu_ms_per_move(step) or 0.0
        per_core = 0.7 / (total / 1000 * (1 / first["interval"]))
        add(f"| {result['config']} | {step['tables']} | {daphne:.2f} | {total:.2f} | {per_core:.0f} | "
            f"{4 * per_core:.0f} | {8 * per_core:.0f} | {16 * per_core:.0f} |")
    ten_thousand(add, results)
    counts = sorted(out.glob("*-querycount.txt"))
    if counts:
        add("")
        add("## Queries of the lobby, a table page and a move (`python -m bench.querycount --rounds 10000`)")
        add("")
        for path in counts:
            add(f"{path.name.split('-')[0]}:")
            add("")
            add("```")
            add(path.read_text().strip())
            add("```")
    add("")
    add("Files: steps.csv (every step of every configuration), latency.png, <config>.json (raw), server logs.")
    (out / "results.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    out = Path((argv or sys.argv)[1])
    results = [json.loads(p.read_text()) for p in sorted(out.glob("*.json")) if not p.name.endswith("-tables.json")]
    write_report(out, [r for r in results if "steps" in r])
    print(out / "results.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
