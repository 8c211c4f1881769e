"""The load generator: simulated members playing at live tables, timing every pushed board at every socket.

Why it works this way (see bench/README.md for the commands):
- Open loop: every table has a fixed tick (one move every `--interval` seconds) with a random phase, so a
  slow server does not slow the load down. A tick whose previous move is still unanswered is counted as
  skipped, not queued (a table cannot take two moves against one version).
- As a person would: at a tick the member whose own board (as pushed to their socket) offers moves posts one
  of them, by an htmx POST with the board's version; when the round is over each member posts "ready".
  With `--move-path socket` the same fields go over the member's open table socket instead, as the page sends
  them while its socket is open (htmx's ws-send).
- Timing at the client: a move's latency at a socket is the time from just before its POST (or its socket
  frame) was written to the moment that socket received a board whose data-version is at least the version
  the move produced (the POST's reply carries it; a socket move's is the first newer board at the mover's
  socket). Every socket of the table (the mover's too) must receive it; a socket that never does within the
  run counts as an undelivered fragment.
- Stepped load: tables are added step by step (10, 25, ... by default); each step runs a warm-up, then a
  measured window; the server processes' CPU seconds and RSS are read from /proc at the window's edges.
- `--mode baseline` drives bench/baseline_server.py with the same pattern: the move is a socket message
  (the POST's stand-in), acknowledged with the new version, then the board is broadcast to the table.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.board_on_page import BoardOnPage
from bench.httpc import Pool

VERSION = re.compile(r'data-version="(\d+)"')
MOVE = re.compile(r'data-move="([^"]+)"')
ROUND = re.compile(r"round (\d+)</span>")
REFUSAL = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)
GRACE_SECONDS = 3.0


def now() -> float:
    return time.perf_counter()


@dataclass
class Member:
    username: str
    session: str
    server: int
    html: str = ""
    page: BoardOnPage = field(default_factory=BoardOnPage)  # the board its socket sent, rebuilt (django mode)
    version: int = -1
    arrivals_v: list[int] = field(default_factory=list)
    arrivals_t: list[float] = field(default_factory=list)
    readied_round: str | None = None
    ws: ClientConnection | None = None
    ack: asyncio.Future[int] | None = None
    answer: asyncio.Future[int | str] | None = None  # --move-path socket: the board after its move, or a refusal
    answer_after: int = -1  # the version that move was made against
    connected: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Post:
    table: TableRun
    kind: str
    t0: float
    t1: float = 0.0
    version: int | None = None
    error: str | None = None


@dataclass
class TableRun:
    code: str
    game: str
    members: list[Member]
    outstanding: bool = False
    finished: bool = False
    turn: int = 0  # baseline: who moves next
    version: int = 0  # baseline: the table's version as the client knows it


@dataclass
class Counters:
    skipped: int = 0
    idle: int = 0
    socket_errors: list[str] = field(default_factory=list)
    frames: int = 0
    frame_bytes: int = 0


def cpu_and_rss(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and resident memory in bytes of one process, from /proc."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = 0
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) * 1024
    return cpu, rss


def _processes() -> Iterator[tuple[int, str, list[str]]]:
    """Every process now: its id, its command name and the fields of /proc/<pid>/stat after the name."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                raw = handle.read()
        except OSError:
            continue
        yield int(entry), raw[raw.index("(") + 1:raw.rindex(")")], raw.rsplit(")", 1)[1].split()


def cpu_of_named(names: tuple[str, ...]) -> float:
    """Total CPU seconds of every process whose command name is one of `names` (PostgreSQL's backends, Redis),
    with the CPU of their children that have exited (a PostgreSQL backend lives one connection, and Django opens
    one per request here: its CPU shows up in the postmaster's reaped-children counters when it ends)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(sum(int(f) for f in fields[11:15]) / ticks for _pid, comm, fields in _processes()
               if comm.split(":")[0].strip() in names or comm in names)


def cpu_of_tree(pid: int) -> float:
    """CPU seconds of a process and of its living children, with its reaped children's (nginx: the master and its
    workers, a worker that ended included)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for found, _comm, fields in _processes():
        if found == pid:
            total += sum(int(f) for f in fields[11:15]) / ticks
        elif int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def service_counters() -> dict[str, int]:
    """Counters of the services behind the site, read at a window's edges (PostgreSQL and Redis configurations
    only): Redis commands processed (the channel layer's group sends and receives, the snapshot cache, sessions),
    PostgreSQL transactions committed and rows written in the site's database. What the "on paper" estimate
    scales to 10,000 tables (bench/README.md)."""
    found: dict[str, int] = {}
    database, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if redis_url:
        where = urlsplit(redis_url)
        out = subprocess.run(["redis-cli", "-h", where.hostname or "127.0.0.1", "-p", str(where.port or 6379),
                              "info", "stats"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("total_commands_processed:"):
                found["redis_commands"] = int(line.split(":", 1)[1])
    if database.startswith("postgres"):
        where = urlsplit(database)
        sql = ("select xact_commit, tup_inserted + tup_updated + tup_deleted from pg_stat_database "
               f"where datname = '{where.path.lstrip('/')}'")
        out = subprocess.run(["psql", "-h", where.hostname or "127.0.0.1", "-p", str(where.port or 5432), "-U",
                              where.username or "postgres", "-d", where.path.lstrip("/"), "-At", "-c", sql],
                             capture_output=True, text=True, check=False).stdout.strip()
        if "|" in out:
            commits, written = out.split("|")
            found.update(pg_commits=int(commits), pg_rows_written=int(written))
    return found


def newest_seen(members: list[Member], moment: float) -> int:
    """The newest board version any of these sockets had received before `moment` (-1: none yet)."""
    best = -1
    for member in members:
        index = bisect.bisect_left(member.arrivals_t, moment)
        if index:
            best = max(best, max(member.arrivals_v[:index]))
    return best


def next_action(members: list[Any], rng: random.Random) -> tuple[str, Any, str, int] | None:
    """What a person at a table would do now, from the newest boards its members' sockets show: a move from the
    board that offers one, else "ready" once per finished round (`members`: anything with version, html and
    readied_round; the chaos soak's members too)."""
    current = max(m.version for m in members)
    if current < 0:
        return None
    fresh = [m for m in members if m.version == current]
    for member in fresh:
        moves = MOVE.findall(member.html)
        if moves:
            return "move", member, rng.choice(moves), current
    for member in fresh:
        if "/ready/" in member.html:
            found = ROUND.search(member.html)
            key = found.group(1) if found else "?"
            if member.readied_round != key:
                member.readied_round = key
                return "ready", member, "", current
    return None


def match_over(members: list[Any]) -> bool:
    current = max(m.version for m in members)
    fresh = [m for m in members if m.version == current]
    return bool(fresh) and "The match is over" in fresh[0].html


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class LoadGen:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.mode: str = args.mode
        self.servers = [urlsplit(url) for url in args.servers.split(",")]
        self.pools = [Pool(s.hostname or "127.0.0.1", s.port or 80, size=args.pool) for s in self.servers]
        self.rng = random.Random(args.seed)
        self.csrf = ""
        self.tables: list[TableRun] = []
        self.posts: list[Post] = []
        self.counters = Counters()
        self.running = True
        self.tasks: list[asyncio.Task[Any]] = []
        self.pids = [int(p) for p in args.pids.split(",") if p] if args.pids else []
        self.logs = [Path(p) for p in args.logs.split(",") if p] if args.logs else []
        self.nginx_pid: int | None = args.nginx_pid
        self.connect_gate = asyncio.Semaphore(args.connect_concurrency)
        self._load_tables()

    # -- the tables and members --------------------------------------------------------------------------
    def _load_tables(self) -> None:
        max_tables = max(int(s) for s in self.args.steps.split(","))
        if self.mode == "django":
            data = json.loads(Path(self.args.tables_file).read_text())
            self.csrf = data["csrf"]
            rows = data["tables"][:max_tables]
            if len(rows) < max_tables:
                raise SystemExit(f"{self.args.tables_file} has {len(rows)} tables; the steps need {max_tables}")
        else:
            rows = [{"code": f"b{i:04d}", "game": "baseline",
                     "members": [{"username": f"b{i:04d}-{k}", "session": ""} for k in range(2)]}
                    for i in range(max_tables)]
        counter = 0
        for row in rows:
            members = []
            for member in row["members"]:
                # Round-robin of clients over the servers: with two processes, a table's two members sit on
                # different processes, so every move crosses from one process to the other through Redis.
                members.append(Member(member["username"], member["session"], counter % len(self.servers)))
                counter += 1
            self.tables.append(TableRun(row["code"], row["game"], members))

    # -- sockets -----------------------------------------------------------------------------------------
    def _ws_url(self, table: TableRun, member: Member) -> tuple[str, str]:
        server = self.servers[member.server]
        origin = f"http://{server.hostname}:{server.port}"
        return f"ws://{server.hostname}:{server.port}/ws/table/{table.code}/", origin

    async def _socket(self, table: TableRun, member: Member) -> None:
        url, origin = self._ws_url(table, member)
        headers = {"Cookie": f"sessionid={member.session}"} if member.session else {}
        first = True
        while self.running:
            try:
                async with self.connect_gate if first else _nothing():
                    ws = await connect(url, origin=origin, additional_headers=headers, compression=None,
                                       max_size=1 << 22, ping_interval=None, proxy=None, open_timeout=60)
                first = False
                member.ws = ws
                member.connected.set()
                async for message in ws:
                    arrived = now()
                    text = message if isinstance(message, str) else message.decode()
                    if text.startswith("ack "):
                        if member.ack is not None and not member.ack.done():
                            member.ack.set_result(int(text[4:]))
                        continue
                    found = VERSION.search(text, 0, 600)
                    if found is None:
                        refused = REFUSAL.search(text, 0, 600)
                        if refused and member.answer is not None and not member.answer.done():
                            member.answer.set_result(refused.group(1))
                        continue
                    version = int(found.group(1))
                    if member.answer is not None and not member.answer.done() and version > member.answer_after:
                        member.answer.set_result(version)
                    self.counters.frames += 1
                    self.counters.frame_bytes += len(text)
                    member.arrivals_v.append(version)
                    member.arrivals_t.append(arrived)
                    # the site sends the parts a version changed: the whole board is rebuilt as the page does
                    board = member.page.take(text) if self.mode == "django" else text
                    if version > member.version:
                        member.version = version
                        if self.mode == "django":
                            member.html = board
                if self.running:
                    self.counters.socket_errors.append(f"{now():.3f} {member.username}: closed {ws.close_code}")
            except (TimeoutError, OSError, ConnectionClosed) as error:
                if not self.running:
                    return
                self.counters.socket_errors.append(f"{now():.3f} {member.username}: {type(error).__name__} {error}")
                first = False
            member.connected.clear()
            member.ws = None
            if self.running:
                await asyncio.sleep(1.0)

    # -- moves -------------------------------------------------------------------------------------------
    def _choose(self, table: TableRun) -> tuple[str, Member, str, int] | None:
        """The next action a person at this table would take, from the boards their sockets show them."""
        if self.mode == "baseline":
            member = table.members[table.turn % len(table.members)]
            table.turn += 1
            return "move", member, "", table.version
        action = next_action(table.members, self.rng)
        if action is None and match_over(table.members):
            table.finished = True
        return action

    async def _post(self, table: TableRun, kind: str, member: Member, move: str, version: int) -> None:
        post = Post(table, kind, now())
        self.posts.append(post)
        try:
            if self.mode == "baseline":
                assert member.ws is not None
                member.ack = asyncio.get_running_loop().create_future()
                post.t0 = now()
                await member.ws.send(f"move {version}")
                post.version = await asyncio.wait_for(member.ack, 30)
                table.version = post.version
            elif self.args.move_path == "socket":
                await self._send_over_socket(post, table, kind, member, move, version)
            else:
                server = self.servers[member.server]
                fields = {"version": str(version)}
                if kind == "move":
                    fields["move"] = move
                headers = {
                    "Cookie": f"sessionid={member.session}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf,
                    "Origin": f"http://{server.hostname}:{server.port}", "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded",
                }
                post.t0 = now()
                response = await self.pools[member.server].request(
                    "POST", f"/t/{table.code}/{kind}/", headers=headers, body=urlencode(fields).encode())
                if response.status != 200:
                    snippet = re.sub(r"<[^>]+>|\s+", " ", response.text)[:160].strip()
                    post.error = f"HTTP {response.status}: {snippet}"
                else:
                    found = VERSION.search(response.text, 0, 600)
                    if found is None:
                        post.error = "reply without a board"
                    else:
                        post.version = int(found.group(1))
                        if post.version > member.version:
                            member.version = post.version
                            member.html = response.text
        except Exception as error:  # every failure is counted, none stops the run
            post.error = f"{type(error).__name__}: {error}"
        finally:
            post.t1 = now()
            table.outstanding = False

    async def _send_over_socket(self, post: Post, table: TableRun, kind: str, member: Member, move: str,
                                version: int) -> None:
        """The move as the page sends it over its open socket (htmx's ws-send: the button's hx-vals and htmx's
        headers, as JSON). It has no answer of its own: the mover's new board is the push every member's socket
        gets, so the move's "reply" time is the mover's board, and a refusal comes back into #table-error."""
        if member.ws is None:
            raise ConnectionError("the mover's socket is not open")
        server = self.servers[member.server]
        fields = {"kind": kind, "table": table.code, "version": str(version)}
        if kind == "move":
            fields["move"] = move
        fields["HEADERS"] = {  # what htmx adds (the page's CSRF header rides along, unused by the socket)
            "HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": None, "HX-Target": "board",
            "HX-Current-URL": f"http://{server.hostname}:{server.port}/t/{table.code}/", "X-CSRFToken": self.csrf,
        }
        frame = json.dumps(fields)
        member.answer_after = version
        member.answer = asyncio.get_running_loop().create_future()
        post.t0 = now()
        await member.ws.send(frame)
        answer = await asyncio.wait_for(member.answer, 30)
        if isinstance(answer, str):
            words = re.sub(r"<[^>]+>|\s+", " ", answer)[:160].strip()
            post.error = f"refused: {words}"
        else:
            post.version = answer

    async def _table_loop(self, table: TableRun) -> None:
        interval = self.args.interval
        tick = now() + self.rng.uniform(0, interval)
        while self.running:
            delay = tick - now()
            if delay > 0:
                await asyncio.sleep(delay)
            tick += interval
            if not self.running:
                return
            if table.finished:
                continue
            if table.outstanding:
                self.counters.skipped += 1
                continue
            action = self._choose(table)
            if action is None:
                self.counters.idle += 1
                continue
            kind, member, move, version = action
            table.outstanding = True
            self.tasks.append(asyncio.create_task(self._post(table, kind, member, move, version)))

    # -- measuring ---------------------------------------------------------------------------------------
    def _sample(self) -> dict[str, Any]:
        sample: dict[str, Any] = {"t": now(), "procs": {}, "logs": [], "loadgen_cpu": cpu_and_rss(os.getpid())[0]}
        for pid in self.pids:
            try:
                sample["procs"][pid] = cpu_and_rss(pid)
            except OSError:
                sample["procs"][pid] = (0.0, 0)
        sample["postgres_cpu"] = cpu_of_named(("postgres",))
        sample["redis_cpu"] = cpu_of_named(("redis-server",))
        sample["nginx_cpu"] = cpu_of_tree(self.nginx_pid) if self.nginx_pid else None
        sample["logs"] = [path.stat().st_size if path.exists() else 0 for path in self.logs]
        sample["services"] = service_counters()
        return sample

    def _log_lines(self, start: list[int], end: list[int]) -> dict[str, int]:
        found = {"over_capacity": 0, "errors": 0}
        for path, a, b in zip(self.logs, start, end, strict=True):
            if b <= a or not path.exists():
                continue
            with path.open("rb") as handle:
                handle.seek(a)
                text = handle.read(b - a).decode(errors="replace")
            found["over_capacity"] += text.count("over capacity")
            found["errors"] += len(re.findall(r"Traceback|ERROR|Exception", text))
        return found

    def _step_result(self, step: dict[str, Any]) -> dict[str, Any]:
        start, end = step["window"]
        posts = [p for p in self.posts if start <= p.t0 < end]
        latencies: list[float] = []
        expected = delivered = anomalies = 0
        errors: dict[str, int] = {}
        slow_seconds: dict[int, int] = {}  # second of the window -> fragments that took over 100 ms
        for post in posts:
            if post.error is not None or post.version is None:
                key = post.error.split(":")[0] if post.error else "unknown"
                errors[key] = errors.get(key, 0) + 1
                continue
            for member in post.table.members:
                expected += 1
                index = bisect.bisect_left(member.arrivals_v, post.version)
                if index >= len(member.arrivals_v):
                    continue
                latency = member.arrivals_t[index] - post.t0
                if latency < 0:
                    anomalies += 1
                    continue
                delivered += 1
                latencies.append(latency * 1000)
                if latency > 0.1:
                    second = int(post.t0 - start)
                    slow_seconds[second] = slow_seconds.get(second, 0) + 1
        ok = [p for p in posts if p.error is None]
        versions = self._versions_made(start, end)
        a, b = step["sample_start"], step["sample_end"]
        seconds = b["t"] - a["t"]
        procs = {}
        for pid in self.pids:
            cpu = b["procs"][pid][0] - a["procs"][pid][0]
            procs[str(pid)] = {
                "cpu_s": round(cpu, 3), "cpu_util": round(cpu / seconds, 3),
                "cpu_ms_per_move": round(1000 * cpu / len(ok), 3) if ok else None,
                "rss_mb": round(b["procs"][pid][1] / 2**20, 1),
                "rss_before_connect_mb": round(step["sample_before_connect"]["procs"][pid][1] / 2**20, 1),
                "rss_after_connect_mb": round(step["sample_after_connect"]["procs"][pid][1] / 2**20, 1),
            }
        post_times = [(p.t1 - p.t0) * 1000 for p in ok]
        return {
            "tables": step["tables"], "sockets": step["tables"] * 2, "seconds": round(seconds, 2),
            "actions": len(posts), "ok": len(ok), "moves": sum(1 for p in ok if p.kind == "move"),
            "readies": sum(1 for p in ok if p.kind == "ready"), "moves_per_s": round(len(ok) / seconds, 2),
            "versions": versions,
            "errors": sum(errors.values()), "error_kinds": errors, "expected": expected, "delivered": delivered,
            "delivered_pct": round(100 * delivered / expected, 3) if expected else None,
            "anomalies": anomalies,
            "p50_ms": _r(percentile(latencies, 50)), "p95_ms": _r(percentile(latencies, 95)),
            "p99_ms": _r(percentile(latencies, 99)), "max_ms": _r(max(latencies) if latencies else None),
            "post_p50_ms": _r(percentile(post_times, 50)), "post_p99_ms": _r(percentile(post_times, 99)),
            "skipped_ticks": step["skipped"], "idle_ticks": step["idle"],
            "socket_errors": step["socket_errors"],
            "procs": procs,
            "postgres_cpu_s": round(b["postgres_cpu"] - a["postgres_cpu"], 3),
            "redis_cpu_s": round(b["redis_cpu"] - a["redis_cpu"], 3),
            # PostgreSQL's backends report to pg_stat_database up to seconds late: read over windows of 30 s or more
            "services_per_s": {key: round((b["services"][key] - a["services"][key]) / seconds, 1)
                               for key in b["services"] if key in a["services"]},
            "nginx_cpu_s": round(b["nginx_cpu"] - a["nginx_cpu"], 3) if self.nginx_pid else None,
            "loadgen_cpu_util": round((b["loadgen_cpu"] - a["loadgen_cpu"]) / seconds, 3),
            "log": self._log_lines(a["logs"], b["logs"]),
            "connect_seconds": step["connect_seconds"],
            "slow_seconds": dict(sorted(slow_seconds.items())),
        }

    def _versions_made(self, start: float, end: float) -> int:
        """Board versions the tables made in the window, as their members' sockets saw them: a member's move,
        a bot's, "ready", a seat's presence, each its own version (the table-life issue), so the server's CPU
        per version compares with the floor's CPU per move, where one POST makes one version."""
        made = 0
        for table in self.tables:
            before, after = newest_seen(table.members, start), newest_seen(table.members, end)
            if after > before >= 0:
                made += after - before
        return made

    def _passes(self, result: dict[str, Any]) -> bool:
        return bool(result["expected"]) and result["delivered"] == result["expected"] and not result["errors"] \
            and result["p99_ms"] is not None and result["p99_ms"] < self.args.p99_limit_ms \
            and not result["log"]["over_capacity"] and not result["socket_errors"]

    def _overloaded(self, result: dict[str, Any]) -> bool:
        """Far past capacity: a larger step would only queue more work (and take minutes to drain)."""
        ticks = result["actions"] + result["skipped_ticks"]
        return (result["delivered_pct"] or 0) < 99 or (result["p99_ms"] or 0) > 2000 \
            or result["errors"] > 0.01 * max(1, result["actions"]) or result["skipped_ticks"] > 0.05 * max(1, ticks)

    async def run(self) -> dict[str, Any]:
        steps = [int(s) for s in self.args.steps.split(",")]
        results: list[dict[str, Any]] = []
        active = 0
        started = now()
        for target in steps:
            before_connect = self._sample()
            t_connect = now()
            new = self.tables[active:target]
            for table in new:
                for member in table.members:
                    self.tasks.append(asyncio.create_task(self._socket(table, member)))
            # Wait (at most a minute) for every new socket to open and show its first board.
            deadline = now() + 60
            while now() < deadline and any(m.version < 0 for t in new for m in t.members):
                await asyncio.sleep(0.05)
            connect_seconds = round(now() - t_connect, 2)
            after_connect = self._sample()
            for table in new:
                self.tasks.append(asyncio.create_task(self._table_loop(table)))
            active = target
            await asyncio.sleep(self.args.warmup)
            skipped, idle, sock_err = self.counters.skipped, self.counters.idle, len(self.counters.socket_errors)
            sample_start = self._sample()
            await asyncio.sleep(self.args.step_seconds)
            sample_end = self._sample()
            step = {
                "tables": target, "window": (sample_start["t"], sample_end["t"]),
                "sample_before_connect": before_connect, "sample_after_connect": after_connect,
                "sample_start": sample_start, "sample_end": sample_end, "connect_seconds": connect_seconds,
                "skipped": self.counters.skipped - skipped, "idle": self.counters.idle - idle,
                "socket_errors": self.counters.socket_errors[sock_err:],
            }
            await asyncio.sleep(GRACE_SECONDS)  # let the window's last fragments arrive (the load goes on)
            result = self._step_result(step)
            results.append(result)
            print(json.dumps(_brief(result)), file=sys.stderr, flush=True)
            if self.args.stop_when_overloaded and self._overloaded(result):
                print(f"step {target} overloaded the server; no larger step is run", file=sys.stderr, flush=True)
                break
        self.running = False
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for table in self.tables:
            for member in table.members:
                if member.ws is not None:
                    await member.ws.close()
        for pool in self.pools:
            await pool.close()
        for result in results:
            result["sustained"] = self._passes(result)
        return {
            "mode": self.mode, "move_path": self.args.move_path, "servers": self.args.servers,
            "interval": self.args.interval,
            "step_seconds": self.args.step_seconds, "warmup": self.args.warmup, "steps": results,
            "frame_bytes_mean": round(self.counters.frame_bytes / self.counters.frames) if self.counters.frames else 0,
            "finished_tables": sum(1 for t in self.tables if t.finished), "total_seconds": round(now() - started, 1),
            "socket_errors_all": self.counters.socket_errors[:50],
        }


class _nothing:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _brief(result: dict[str, Any]) -> dict[str, Any]:
    keys = ("tables", "ok", "moves_per_s", "errors", "delivered_pct", "p50_ms", "p99_ms", "max_ms", "skipped_ticks",
            "loadgen_cpu_util")
    brief = {k: result[k] for k in keys}
    brief["cpu_util"] = {pid: p["cpu_util"] for pid, p in result["procs"].items()}
    return brief


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["django", "baseline"], default="django")
    parser.add_argument("--move-path", choices=["post", "socket"], default="post",
                        help="django mode: members send moves by htmx POST, or over their open table socket "
                             "(htmx's ws-send), timed from just before the frame is sent")
    parser.add_argument("--servers", required=True, help="comma-separated base URLs; members are dealt round-robin")
    parser.add_argument("--tables-file", help="from bench.setup_tables (django mode)")
    parser.add_argument("--steps", default="10,25,50,100,200,400")
    parser.add_argument("--step-seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--pids", default="", help="server process ids to read CPU and memory of")
    parser.add_argument("--logs", default="", help="server log files to scan for 'over capacity' and errors")
    parser.add_argument("--nginx-pid", type=int, default=None,
                        help="nginx's master process: its CPU and its workers' is reported as nginx_cpu_s")
    parser.add_argument("--pool", type=int, default=32, help="keep-alive HTTP connections per server")
    parser.add_argument("--connect-concurrency", type=int, default=20)
    parser.add_argument("--p99-limit-ms", type=float, default=150.0)
    parser.add_argument("--stop-when-overloaded", action="store_true",
                        help="run no larger step after one with p99 > 2 s, < 99%% delivered, > 1%% errors or "
                             "> 5%% skipped ticks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    result = asyncio.run(LoadGen(args).run())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
