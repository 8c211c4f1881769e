"""Run the whole campaign: each configuration of the site, then the bare baseline, and write the results.

Why one runner: every figure must come from the same schedule on the same machine, with the server pinned to
core 0 and the load generator to core 1 (`taskset`), so the figures can be compared with each other.

    python -m bench.run                                  # everything, 60 s steps (about 40 minutes)
    python -m bench.run --configs sqlite --steps 10,25 --step-seconds 10 --warmup 3     # a smoke test
    python -m bench.run --configs sqlite,pg1 --move-path socket     # moves over the members' table sockets

Configurations:
  sqlite    one Daphne process, SQLite (a fresh file), the in-memory channel layer
  pg1       one Daphne process, PostgreSQL (a fresh `cardclub_bench` database) and Redis (db 3)
  pg2       two Daphne processes on the same PostgreSQL and Redis; the load generator deals members to the
            two ports round-robin (no proxy in front), so a table's two members sit on different processes
  nginx2    as pg2, behind nginx (bench/nginx.py: deploy/nginx/cardclub.conf on plain HTTP, one worker pinned with
            the servers) and Daphne's --proxy-headers, as production runs; the load generator speaks to nginx only,
            which deals requests and sockets round robin; nginx's CPU (master and worker) is counted apart
  floor     bench/floor_app.py: Daphne + Django's handler + Channels doing nothing but the pattern (no database,
            middleware, templates or engine), same schedule, boards of the site's size: the framework's floor
  baseline  bench/baseline_server.py (websockets, no Django), same schedule, boards of the site's size

Writes bench/results/<timestamp>/: results.md, steps.csv, latency.png, one JSON per configuration (the load
generator's raw step results), the servers' logs and the tables files.

`--move-path socket`: in the site's configurations (sqlite, pg1, pg2) members send their moves over their open
table socket (htmx's ws-send) instead of by POST; floor and baseline keep their own pattern.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.nginx import start_nginx, stop_nginx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SERVER_CORE = "0"
LOADGEN_CORE = "1"
PG_DB = "cardclub_bench"
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_DB}"
REDIS_URL = "redis://127.0.0.1:6379/3"
BASE_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdefghijkl",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "INFO",
    "PYTHONUNBUFFERED": "1",
}
# How fast the bots move (`--bot-speed`). At the club's paced speeds (the default, brisk) each bot move is its own
# board version, made by the server's table clock, as members see it; `instant` puts the bots' moves inside the
# member's move (one version for all), as the campaign measured before tables were paced. The tables get it when
# bench.setup_tables makes them; the servers for any table they make themselves.
DEFAULT_BOT_SPEED = "brisk"
DESCRIPTIONS = {
    "sqlite": "1 Daphne, SQLite, in-memory channel layer",
    "pg1": "1 Daphne, PostgreSQL + Redis",
    "pg2": "2 Daphne, PostgreSQL + Redis (clients round-robin over 2 ports, no proxy)",
    "nginx2": "nginx (plain HTTP) in front of 2 Daphne (--proxy-headers), PostgreSQL + Redis",
    "floor": "1 Daphne, Django + Channels doing nothing but the pattern (no database, middleware or templates)",
    "baseline": "bare websockets broadcast server (no Django)",
}


def log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {port} after {timeout}s")


def run(cmd: list[str], env: dict[str, str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def environment(config: str, out: Path, bot_speed: str = DEFAULT_BOT_SPEED, label: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(BASE_ENV)
    env["TABLE_BOT_SPEED"] = bot_speed
    if config == "sqlite":
        path = out / (label or config).replace("+", "-") / "bench.sqlite3"  # "+" in a URL reads as a space
        path.parent.mkdir(parents=True, exist_ok=True)
        env["DATABASE_URL"] = f"sqlite:///{path}"
    else:
        env["DATABASE_URL"] = PG_URL
        env["REDIS_URL"] = REDIS_URL
    return env


def prepare_database(config: str, env: dict[str, str], out: Path, tables: int, finished_rounds: int,
                     label: str = "") -> Path:
    label = label or config
    if config != "sqlite":
        run(["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", PG_DB], env)
        run(["createdb", "-h", "127.0.0.1", "-U", "postgres", PG_DB], env)
        run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "-n", "3", "flushdb"], env)
    run([PYTHON, "manage.py", "migrate", "-v", "0"], env)
    if finished_rounds:
        # The query counts of the lobby, a table page and a move, before and after the finished rounds are
        # written (they stay in the database behind the run). DEBUG renders pages without collectstatic.
        counted = run([PYTHON, "-m", "bench.querycount", "--rounds", str(finished_rounds)], {**env, "DEBUG": "true"},
                      check=False)
        (out / f"{label}-querycount.txt").write_text(counted.stdout + ("" if counted.returncode == 0 else
                                                                        "\n" + counted.stderr[-3000:]))
        log(f"{label}: query counts: {counted.stdout.strip().splitlines()[-1] if counted.stdout else 'failed'}")
    tables_file = out / f"{label}-tables.json"
    started = time.monotonic()
    run([PYTHON, "-m", "bench.setup_tables", "--tables", str(tables), "--out", str(tables_file)], env)
    settle_database(config, env, out)
    log(f"{label}: database ready ({tables} tables, {finished_rounds} finished rounds) "
        f"in {time.monotonic() - started:.0f}s")
    return tables_file


def settle_database(config: str, env: dict[str, str], out: Path) -> None:
    """Let the database finish with the bulk writes before anything is measured, as a database in service
    would have: otherwise PostgreSQL's autovacuum and checkpoints (after 10,000 rounds and their moves) run on
    the cores during the first steps, and SQLite's write-ahead log is checkpointed into them."""
    if config == "sqlite":
        path = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
        code = ("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                "db.execute('PRAGMA wal_checkpoint(TRUNCATE)'); db.execute('ANALYZE'); db.close()")
        run([PYTHON, "-c", code, str(path)], env)
    else:
        for sql in ("VACUUM ANALYZE", "CHECKPOINT"):
            run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", PG_DB, "-q", "-c", sql], env)
    time.sleep(5)


def start_server(cmd: list[str], env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen[bytes]:
    handle = log_path.open("ab")
    process = subprocess.Popen(["taskset", "-c", SERVER_CORE, *cmd], cwd=ROOT, env=env, stdout=handle,
                               stderr=subprocess.STDOUT)
    wait_for_port(port, process)
    return process


def stop_servers(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run_config(label: str, args: argparse.Namespace, out: Path, board_bytes: int) -> dict[str, Any]:
    """`label`: a configuration, or one with "+socket" (its members' moves over their sockets, whatever
    --move-path says), so both ways of moving are measured in one run."""
    config, _, variant = label.partition("+")
    move_path = "socket" if variant == "socket" else args.move_path
    env = environment(config, out, args.bot_speed, label)
    processes: list[subprocess.Popen[bytes]] = []
    proxy: subprocess.Popen[bytes] | None = None
    logs: list[Path] = []
    ports: list[int] = []
    load_before = loadavg()
    max_tables = max(int(s) for s in args.steps.split(","))
    try:
        if config == "baseline":
            port = free_port()
            logs.append(out / "baseline.log")
            processes.append(start_server([PYTHON, "-m", "bench.baseline_server", "--port", str(port),
                                           "--board-bytes", str(board_bytes)], env, port, logs[-1]))
            ports.append(port)
            mode, extra = "baseline", []
        elif config == "floor":
            tables_file = out / "floor-tables.json"
            run([PYTHON, "-m", "bench.floor_app", "--tables", str(max_tables), "--out", str(tables_file)], env)
            port = free_port()
            logs.append(out / "floor.log")
            processes.append(start_server([PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                           "bench.floor_app:application"],
                                          {**env, "FLOOR_BOARD_BYTES": str(board_bytes)}, port, logs[-1]))
            ports.append(port)
            mode, extra = "django", ["--tables-file", str(tables_file)]
        else:
            tables_file = prepare_database(config, env, out, max_tables, args.finished_rounds, label)
            # Behind nginx the client's address is nginx's X-Forwarded-For (--proxy-headers), as in production.
            options = ["--proxy-headers"] if config == "nginx2" else []
            for _ in range(2 if config in ("pg2", "nginx2") else 1):
                port = free_port()
                logs.append(out / f"{label}-daphne-{port}.log")
                processes.append(start_server([PYTHON, "-m", "daphne", *options, "-b", "127.0.0.1", "-p", str(port),
                                               "config.asgi:application"], env, port, logs[-1]))
                ports.append(port)
            mode, extra = "django", ["--tables-file", str(tables_file), "--move-path", move_path]
            if config == "nginx2":
                proxy, nginx_port = start_nginx(daphne_ports=ports, workdir=out / "nginx2-nginx", core=SERVER_CORE)
                ports = [nginx_port]  # the load generator sees nginx only
                extra += ["--nginx-pid", str(proxy.pid)]
        time.sleep(1)
        result_file = out / f"{label}.json"
        cmd = ["taskset", "-c", LOADGEN_CORE, PYTHON, "-m", "bench.loadgen", "--mode", mode,
               "--servers", ",".join(f"http://127.0.0.1:{p}" for p in ports), "--steps", args.steps,
               "--step-seconds", str(args.step_seconds), "--warmup", str(args.warmup), "--interval", str(args.interval),
               "--pids", ",".join(str(p.pid) for p in processes), "--logs", ",".join(str(p) for p in logs),
               "--out", str(result_file), *extra]
        if mode == "django" and not args.all_steps:
            cmd.append("--stop-when-overloaded")
        socket_moves = "--move-path" in extra and move_path == "socket"
        description = DESCRIPTIONS[config] + (", moves over the socket" if socket_moves else "")
        log(f"{label}: {description}; load generator running (load average {load_before})")
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    finally:
        if proxy is not None:
            stop_nginx(proxy)
        stop_servers(processes)
    result = json.loads(result_file.read_text())
    result.update(config=label, description=description, load_before=load_before, load_after=loadavg(),
                  processes=len(processes), command=" ".join(cmd))
    result_file.write_text(json.dumps(result, indent=1))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="sqlite,pg1,pg2,nginx2,floor,baseline")
    parser.add_argument("--steps", default="10,25,50,100,200,400")
    parser.add_argument("--step-seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--finished-rounds", type=int, default=10000,
                        help="finished rounds written behind the live tables before each run")
    parser.add_argument("--bot-speed", default=DEFAULT_BOT_SPEED, choices=["instant", "brisk", "normal", "slow"],
                        help="the tables' bot speed (brisk: each bot move its own version, made by the table clock)")
    parser.add_argument("--all-steps", action="store_true",
                        help="run every step even after one where the server was overloaded")
    parser.add_argument("--move-path", choices=["post", "socket"], default="post",
                        help="how members send moves in the site's configurations: htmx POST or the table socket")
    parser.add_argument("--note", default="", help="a line to print at the top of results.md")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)

    if shutil.which("taskset") is None:
        raise SystemExit("taskset is needed (util-linux)")
    out = args.out or ROOT / "bench" / "results" / datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out.mkdir(parents=True, exist_ok=True)
    started = datetime.now(UTC)
    results: list[dict[str, Any]] = []
    board_bytes = 5000
    for config in [c.strip() for c in args.configs.split(",") if c.strip()]:
        result = run_config(config, args, out, board_bytes)
        if config not in ("floor", "baseline") and result.get("frame_bytes_mean"):
            board_bytes = int(result["frame_bytes_mean"])
        results.append(result)
    from bench.report import write_report

    write_report(out, results, argv=sys.argv, started=started, note=args.note)
    log(f"results in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
