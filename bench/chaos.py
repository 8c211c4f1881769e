"""The chaos soak: tables played for minutes while Daphne processes are killed and Redis is restarted, then
checks that nothing was lost, doubled or left stuck.

    python -m bench.chaos                                   # 100 tables, 10 minutes, nginx in front
    python -m bench.chaos --tables 10 --minutes 1 --kill-every 10,20 --front direct     # quick mode
    python -m bench.chaos --recheck bench/results/chaos-<time>    # the database checks again, on the kept database

Layout: two Daphne processes (`--proxy-headers`) on PostgreSQL (a fresh `cardclub_chaos` database, or the one
`--database` names, dropped and made again at the start, kept afterwards for a look) and a Redis server of the
soak's own (a child process on a free port, nothing saved), with nginx in front (`--front nginx`, bench/nginx.py)
or the members dealt round-robin to the two ports (`--front direct`, as bench.run's pg2).

Load: `--tables` tables of 4 seats, 2 simulated members and 2 bots, the games in turn (bench.setup_tables); each
table ticks every 2 s and at a tick the member whose newest board offers moves POSTs one with that board's version
(bench.loadgen's schedule). The bots are paced (`--bot-speed brisk` by default), not instant as in the benchmark:
the soak is about the table clock (tables/play/background.py) as much as the moves, since a bot's move due at a
process that is killed must still be played by a sweep elsewhere or after the restart. Members behave as browsers
do: a socket that closes comes back with a jittered backoff; a POST that fails is not sent again, the member moves
at a later tick from whatever board they then hold (a move whose answer was lost may or may not stand; the next
board tells).

Chaos: every `--kill-every` seconds (a random pick in the range, seeded) one Daphne is killed with SIGKILL and
started again on its port; at the middle of the run the soak's Redis is stopped and started again, empty.

Checks, once the load stops and the tables have settled (PASS/FAIL each, exit 1 on any FAIL): every accepted move is
in the database exactly once and every member's move row is explained by a POST (bench/chaos_checks.py); every
round replays from its seed and moves to its stored state; every finished Sheepshead round's ledger sums to zero;
the club's books check; no running table waits for a bot; every member's socket holds the table's version.

Writes bench/results/chaos-<time>/: chaos.json (counts, events, verdicts), summary.md, attempts.json (every POST,
for --recheck), the tables file and the servers' and Redis's logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.board_on_page import BoardOnPage
from bench.chaos_checks import Attempt, check_moves, error_kinds, stale_sockets, unplayable_time
from bench.httpc import Pool
from bench.loadgen import VERSION, match_over, next_action
from bench.run import BASE_ENV, PYTHON, ROOT, free_port, log, run, wait_for_port

DB_URL = "postgres://postgres@127.0.0.1:5432/cardclub_chaos"
BACKOFF_FIRST = 0.5  # seconds before a closed socket's first reconnect; doubled each failure, up to BACKOFF_MAX
BACKOFF_MAX = 8.0
IDLE_BLOCKED = 4  # ticks in a row with nothing to do (8 s at 2 s ticks) before a table counts as unplayable
RESTART_TRIES = 3


def now() -> float:
    return time.monotonic()


# -- the servers ---------------------------------------------------------------------------------------------------
@dataclass
class Child:
    """A server the soak runs, kept with what it takes to start it again on the same port."""

    name: str
    cmd: list[str]
    port: int
    log_path: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        handle = self.log_path.open("ab")
        self.process = subprocess.Popen(self.cmd, cwd=ROOT, env=self.env, stdout=handle, stderr=subprocess.STDOUT)
        handle.close()
        wait_for_port(self.port, self.process)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def pinned(cmd: list[str], core: str | None) -> list[str]:
    return ["taskset", "-c", core, *cmd] if core else cmd


def daphne(port: int, out: Path, env: dict[str, str], core: str | None) -> Child:
    cmd = [PYTHON, "-m", "daphne", "--proxy-headers", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    return Child(f"daphne:{port}", pinned(cmd, core), port, out / f"daphne-{port}.log", env)


def redis(port: int, out: Path) -> Child:
    cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
           "--daemonize", "no"]
    return Child(f"redis:{port}", cmd, port, out / "redis.log", dict(os.environ))


def postgres_args(url: str) -> tuple[list[str], str]:
    """dropdb/createdb's connection options for a postgres:// URL, and the database's name."""
    split = urlsplit(url)
    name = split.path.lstrip("/")
    if split.scheme not in ("postgres", "postgresql") or not name:
        raise SystemExit(f"--database must be a postgres://user@host:port/name URL, not {url!r}")
    options = ["-h", split.hostname or "127.0.0.1", "-p", str(split.port or 5432), "-U", split.username or "postgres"]
    return options, name


def prepare_database(env: dict[str, str], out: Path, tables: int, games: str, url: str) -> Path:
    """A fresh database with the tables seated, as bench.run prepares its own (drop, create, migrate, seat)."""
    options, name = postgres_args(url)
    run(["dropdb", "--if-exists", *options, name], env)
    run(["createdb", *options, name], env)
    run([PYTHON, "manage.py", "migrate", "-v", "0"], env)
    tables_file = out / "tables.json"
    run([PYTHON, "-m", "bench.setup_tables", "--tables", str(tables), "--games", games, "--prefix", "chaos",
         "--out", str(tables_file)], env)
    return tables_file


# -- the simulated members -----------------------------------------------------------------------------------------
@dataclass
class Member:
    username: str
    session: str
    base: str  # http://host:port of the front this member's browser talks to
    html: str = ""  # the newest board the member holds (from the socket or from a POST's reply)
    version: int = -1
    socket_version: int = -1  # the newest board the socket brought (the final check reads this one)
    connected: bool = False
    connects: int = 0
    readied_round: str | None = None


@dataclass
class TablePlay:
    code: str
    game: str
    members: list[Member]
    outstanding: bool = False
    finished: bool = False
    idle_since: float | None = None  # the first of the ticks in a row with nothing to do
    idle_ticks: int = 0
    seen: int = -1  # the newest version any of its sockets or replies brought
    events: list[tuple[float, str]] = field(default_factory=list)  # (time, "blocked" | "progress")


class Soak:
    def __init__(self, args: argparse.Namespace, tables_file: Path, fronts: list[str], daphnes: list[Child],
                 redis_server: Child) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.chaos_rng = random.Random(args.seed + 1)  # the kills' schedule does not depend on the moves chosen
        self.daphnes = daphnes
        self.redis = redis_server
        data = json.loads(tables_file.read_text())
        self.csrf: str = data["csrf"]
        self.pools = {base: Pool(urlsplit(base).hostname or "127.0.0.1", urlsplit(base).port or 80, size=32,
                                 timeout=args.post_timeout) for base in fronts}
        self.tables: list[TablePlay] = []
        dealt = 0
        for row in data["tables"]:
            members = []
            for member in row["members"]:
                members.append(Member(member["username"], member["session"], fronts[dealt % len(fronts)]))
                dealt += 1
            self.tables.append(TablePlay(row["code"], row["game"], members))
        self.attempts: list[Attempt] = []
        self.chaos_events: list[dict[str, Any]] = []
        self.socket_events: Counter[str] = Counter()
        self.skipped = 0
        self.idle = 0
        self.loading = True  # members move
        self.alive = True  # sockets stay open and reconnect
        self.started = now()
        self.load_end = 0.0
        self.connect_gate = asyncio.Semaphore(20)

    def event(self, what: str, **fields: Any) -> None:
        self.chaos_events.append({"t": round(now() - self.started, 2), "what": what, **fields})
        log(f"chaos: {what} {fields if fields else ''}")

    # -- sockets ---------------------------------------------------------------------------------------------------
    def _seen(self, table: TablePlay, member: Member, version: int, html: str, *, from_socket: bool) -> None:
        if from_socket and version > member.socket_version:
            member.socket_version = version
        if version > member.version:
            member.version = version
            member.html = html
        if version > table.seen:
            table.seen = version
            if self.loading:
                table.events.append((now(), "progress"))

    async def socket(self, table: TablePlay, member: Member) -> None:
        split = urlsplit(member.base)
        url = f"ws://{split.netloc}/ws/table/{table.code}/"
        headers = {"Cookie": f"sessionid={member.session}"}
        failures = 0
        while self.alive:
            opened = None
            try:
                async with self.connect_gate:
                    ws = await connect(url, origin=member.base, additional_headers=headers, compression=None,
                                       max_size=1 << 22, ping_interval=None, proxy=None, open_timeout=20)
                opened = now()
                member.connected = True
                member.connects += 1
                page = BoardOnPage()  # the socket sends the parts each version changed: rebuilt as the page does
                async for message in ws:
                    text = message if isinstance(message, str) else message.decode()
                    found = VERSION.search(text, 0, 600)
                    if found is not None:
                        self._seen(table, member, int(found.group(1)), page.take(text), from_socket=True)
                        failures = 0
                if self.alive:
                    self.socket_events[f"closed {ws.close_code}"] += 1
            except InvalidStatus as error:
                self.socket_events[f"handshake HTTP {error.response.status_code}"] += 1
            except (OSError, TimeoutError, ConnectionClosed) as error:
                if self.alive:
                    self.socket_events[type(error).__name__] += 1
            finally:
                member.connected = False
            if not self.alive:
                return
            if opened is not None and now() - opened > 10:
                failures = 0
            # As htmx's ws extension does: back off exponentially, with jitter, so a restarted server is not met
            # by every socket at the same instant.
            delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** failures) * random.uniform(0.5, 1.0)
            failures += 1
            await asyncio.sleep(delay)

    # -- moves -----------------------------------------------------------------------------------------------------
    def choose(self, table: TablePlay) -> tuple[str, Member, str, int] | None:
        """What a person at this table would do now, from the newest boards the members hold (bench.loadgen's
        rule: a move from the board that offers one, "ready" once per finished round)."""
        action = next_action(table.members, self.rng)
        if action is None and match_over(table.members):
            table.finished = True
        return action

    async def post(self, table: TablePlay, kind: str, member: Member, move: str, version: int) -> None:
        attempt = Attempt(table.code, member.username, kind, move, version, now() - self.started)
        self.attempts.append(attempt)
        fields = {"version": str(version)}
        if kind == "move":
            fields["move"] = move
        headers = {
            "Cookie": f"sessionid={member.session}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf,
            "Origin": member.base, "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
        }
        try:
            response = await self.pools[member.base].request(
                "POST", f"/t/{table.code}/{kind}/", headers=headers, body=urlencode(fields).encode())
            attempt.status = response.status
            found = VERSION.search(response.text, 0, 600) if response.status == 200 else None
            if found is not None:
                attempt.outcome = "accepted"
                attempt.reply_version = int(found.group(1))
                self._seen(table, member, attempt.reply_version, response.text, from_socket=False)
            elif 400 <= response.status < 500:
                attempt.outcome, attempt.error = "refused", f"HTTP {response.status}"
            else:  # a 5xx (the front's 502, a server error) or a 200 with no board: the move may stand or not
                attempt.outcome, attempt.error = "unknown", f"HTTP {response.status}"
        except ConnectionRefusedError:
            attempt.outcome, attempt.error = "unsent", "ConnectionRefusedError"
        except Exception as error:  # reset, closed, timed out: it may have reached a server before the failure
            attempt.outcome, attempt.error = "unknown", type(error).__name__
        finally:
            attempt.t1 = now() - self.started
            table.outstanding = False
        if attempt.outcome != "accepted":
            table.events.append((now(), "blocked"))
            member.readied_round = None  # a "ready" that failed may be sent again from a later board

    async def table_loop(self, table: TablePlay) -> None:
        interval = self.args.interval
        tick = now() + self.rng.uniform(0, interval)
        tasks: set[asyncio.Task[None]] = set()
        while self.loading:
            delay = tick - now()
            if delay > 0:
                await asyncio.sleep(delay)
            tick += interval
            if not self.loading or table.finished:
                continue
            if table.outstanding:
                self.skipped += 1
                continue
            action = self.choose(table)
            if action is None:
                self.idle += 1
                self.note_idle(table)
                continue
            table.idle_since, table.idle_ticks = None, 0
            table.outstanding = True
            task = asyncio.create_task(self.post(table, *action))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def note_idle(self, table: TablePlay) -> None:
        """A tick with no move to make is blocked if a socket is away (no board to move from), or if it is the
        IDLE_BLOCKED-th in a row: paced bots answer within a few seconds, so a longer wait means the boards the
        members hold are behind (a push that never came), counted from the first idle tick."""
        if table.idle_since is None:
            table.idle_since = now()
        table.idle_ticks += 1
        if not all(m.connected for m in table.members):
            table.events.append((now(), "blocked"))
        elif table.idle_ticks == IDLE_BLOCKED:
            table.events.append((table.idle_since, "blocked"))

    # -- chaos -----------------------------------------------------------------------------------------------------
    async def kills(self, until: float) -> None:
        low, high = self.args.kill_every
        while True:
            wait = self.chaos_rng.uniform(low, high)
            if now() + wait >= until:
                return
            await asyncio.sleep(wait)
            child = self.chaos_rng.choice(self.daphnes)
            child.kill()
            killed = now()
            self.event("kill -9", server=child.name)
            await self.restart(child, killed)

    async def restart(self, child: Child, since: float) -> None:
        """Start `child` again on its port; a start that fails (the port still held) is tried again."""
        for attempt in range(1, RESTART_TRIES + 1):
            try:
                await asyncio.to_thread(child.start)
            except RuntimeError as error:
                self.event("restart failed", server=child.name, attempt=attempt, error=str(error))
                child.kill()
                await asyncio.sleep(2)
                continue
            self.event("restarted", server=child.name, down_s=round(now() - since, 2))
            return
        raise RuntimeError(f"{child.name} did not start again after {RESTART_TRIES} tries")

    async def redis_restart(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - now()))
        self.redis.stop()
        stopped = now()
        self.event("redis stopped", port=self.redis.port)
        await asyncio.sleep(self.args.redis_down)
        await self.restart(self.redis, stopped)

    # -- the run ---------------------------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        seconds = self.args.minutes * 60
        sockets = [asyncio.create_task(self.socket(t, m)) for t in self.tables for m in t.members]
        deadline = now() + 60
        while now() < deadline and any(m.version < 0 for t in self.tables for m in t.members):
            await asyncio.sleep(0.1)
        log(f"{sum(m.connected for t in self.tables for m in t.members)} sockets open; the load starts "
            f"({self.args.minutes} min)")
        self.started = now()
        until = self.started + seconds
        loops = [asyncio.create_task(self.table_loop(t)) for t in self.tables]
        chaos = [asyncio.create_task(self.kills(until))]
        if not self.args.no_redis_restart:
            chaos.append(asyncio.create_task(self.redis_restart(self.started + seconds / 2)))
        await asyncio.sleep(seconds)
        self.loading = False
        self.load_end = now()
        await asyncio.gather(*loops)
        await asyncio.gather(*chaos)  # a restart under way finishes: every server is up for the settle
        log(f"the load stopped; settling {self.args.settle:.0f} s")
        await asyncio.sleep(self.args.settle)
        final = await asyncio.to_thread(self.final_reading)
        if final["stale_sockets"]:  # a board may be on its way: look once more
            await asyncio.sleep(3)
            final = await asyncio.to_thread(self.final_reading)
        self.alive = False
        for task in sockets:
            task.cancel()
        await asyncio.gather(*sockets, return_exceptions=True)
        for pool in self.pools.values():
            await pool.close()
        return final

    def final_reading(self) -> dict[str, Any]:
        """With the servers up and the sockets open: the tables' versions and who the tables wait for."""
        from django.db import close_old_connections

        from bench.chaos_db import table_versions, tables_waiting_for_bot

        close_old_connections()
        codes = [t.code for t in self.tables]
        waiting = tables_waiting_for_bot(codes)
        versions = table_versions(codes)
        sockets = {(t.code, m.username): m.socket_version for t in self.tables for m in t.members}
        disconnected = [f"{m.username} at {t.code}" for t in self.tables for m in t.members if not m.connected]
        close_old_connections()
        return {"waiting_for_bot": waiting, "stale_sockets": stale_sockets(sockets, versions),
                "disconnected": disconnected}


# -- checks and report ---------------------------------------------------------------------------------------------
def verdict(name: str, ok: bool, detail: str, problems: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "ok": ok, "detail": detail, "problems": (problems or [])[:10]}


def database_checks(attempts: list[Attempt], codes: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from bench.chaos_db import books, member_move_rows, money_rounds_sum_to_zero, rounds_replay

    moves = check_moves(attempts, [row for row in member_move_rows() if row.table in set(codes)])
    problems = [f"lost: {a.table} v{a.sent_version}->{a.reply_version} {a.move!r} by {a.username}"
                for a in moves.lost]
    problems += [f"duplicated x{n}: {a.table} {a.move!r} by {a.username}" for a, n in moves.duplicated]
    problems += [f"other move stored: {a.table} sent {a.move!r}, stored {r.text!r}" for a, r in moves.wrong_text]
    problems += [f"phantom: {r.table} v{r.table_version} {r.text!r} by {r.username}" for r in moves.phantoms]
    checks = [verdict("every accepted move is in the database exactly once", moves.ok, moves.describe(), problems)]
    for each in (rounds_replay(codes), money_rounds_sum_to_zero(codes), books()):
        checks.append(verdict(each.name, each.ok, each.detail, each.problems))
    counts = {"lost": len(moves.lost), "duplicated": len(moves.duplicated), "phantoms": len(moves.phantoms),
              "applied_though_unanswered": moves.applied_unanswered}
    return checks, counts


def live_checks(final: dict[str, Any], grace: float) -> list[dict[str, Any]]:
    waiting, stale, away = final["waiting_for_bot"], final["stale_sockets"], final["disconnected"]
    return [
        verdict(f"no table waits for a bot {grace:.0f} s after the load stopped", not waiting,
                f"{len(waiting)} tables waiting", waiting),
        verdict("every member's socket holds the table's version", not stale and not away,
                f"{len(stale)} behind, {len(away)} not connected", stale + [f"not connected: {a}" for a in away]),
    ]


def summarize(soak: Soak, final: dict[str, Any]) -> dict[str, Any]:
    attempts = soak.attempts
    outcomes = Counter(a.outcome for a in attempts)
    moves = [a for a in attempts if a.kind == "move"]
    events = {t.code: [(t_ - soak.started, kind) for t_, kind in t.events] for t in soak.tables}
    unplayable = unplayable_time(events, soak.load_end - soak.started)
    worst = unplayable.worst()
    top = sorted(unplayable.longest.items(), key=lambda item: -item[1])[:5]
    return {
        "attempted": len(attempts), "moves_attempted": len(moves),
        "accepted": outcomes["accepted"], "moves_accepted": sum(1 for a in moves if a.outcome == "accepted"),
        "refused": outcomes["refused"], "unsent": outcomes["unsent"], "unknown_outcome": outcomes["unknown"],
        "errors_by_kind": error_kinds(attempts),
        "kills": sum(1 for e in soak.chaos_events if e["what"] == "kill -9"),
        "redis_restarts": sum(1 for e in soak.chaos_events if e["what"] == "redis stopped"),
        "chaos_events": soak.chaos_events,
        "socket_events": dict(sorted(soak.socket_events.items())),
        "socket_connects": sum(m.connects for t in soak.tables for m in t.members),
        "skipped_ticks": soak.skipped, "idle_ticks": soak.idle,
        "longest_unplayable_s": round(worst[1], 2) if worst else 0.0,
        "longest_unplayable_table": worst[0] if worst else None,
        "unplayable_top5": [{"table": code, "seconds": round(s, 2)} for code, s in top],
        "blocked_at_end": unplayable.open_at_end,
        "load_seconds": round(soak.load_end - soak.started, 1),
        "final": final,
    }


def markdown(result: dict[str, Any]) -> str:
    s = result["summary"]
    lines = [f"# Chaos soak {result['started']}", "",
             f"`{result['command']}`", "",
             f"{result['tables']} tables, {s['load_seconds']} s of load, front {result['front']}, bots "
             f"{result['bot_speed']}, seed {result['seed']}; {s['kills']} kills, {s['redis_restarts']} Redis "
             f"restart(s); load average {result['load_before']} before, {result['load_after']} after.", "",
             "| check | verdict | detail |", "| --- | --- | --- |"]
    for check in result["checks"]:
        lines.append(f"| {check['name']} | {'PASS' if check['ok'] else 'FAIL'} | {check['detail']} |")
    lines += ["", "| figure | value |", "| --- | --- |"]
    figures = [("POSTs attempted (moves)", f"{s['attempted']} ({s['moves_attempted']})"),
               ("accepted (moves)", f"{s['accepted']} ({s['moves_accepted']})"),
               ("refused by the site", s["refused"]), ("not sent (connection refused)", s["unsent"]),
               ("outcome unknown (reset, 5xx, time-out)", s["unknown_outcome"]),
               ("lost (accepted, not in the database)", result["moves"]["lost"]),
               ("applied though their answer was lost", result["moves"]["applied_though_unanswered"]),
               ("longest time a table was unplayable", f"{s['longest_unplayable_s']} s "
                                                      f"({s['longest_unplayable_table']})"),
               ("socket connects (incl. first)", s["socket_connects"])]
    lines += [f"| {name} | {value} |" for name, value in figures]
    lines += ["", "Errors by kind: " + (", ".join(f"{k} x{v}" for k, v in s["errors_by_kind"].items()) or "none"),
              "", "Socket events: " + (", ".join(f"{k} x{v}" for k, v in s["socket_events"].items()) or "none"), ""]
    for check in result["checks"]:
        if not check["ok"]:
            lines += [f"FAIL {check['name']}:", *[f"- {p}" for p in check["problems"]], ""]
    return "\n".join(lines)


def print_checks(checks: list[dict[str, Any]]) -> bool:
    for check in checks:
        print(f"{'PASS' if check['ok'] else 'FAIL'}  {check['name']}: {check['detail']}")
        for problem in check["problems"] if not check["ok"] else []:
            print(f"        {problem}")
    return all(check["ok"] for check in checks)


def setup_django(url: str) -> None:
    """Django in this process reads the soak's database (never the shared Redis: the reads need no cache)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    for key in ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"):
        os.environ.setdefault(key, BASE_ENV[key])
    import django

    django.setup()


def recheck(folder: Path, url: str) -> int:
    """The database checks again, from a run's attempts, on the kept database (it must not have been replaced)."""
    setup_django(url)
    attempts = [Attempt(**row) for row in json.loads((folder / "attempts.json").read_text())]
    codes = [row["code"] for row in json.loads((folder / "tables.json").read_text())["tables"]]
    checks, _ = database_checks(attempts, codes)
    return 0 if print_checks(checks) else 1


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--front", choices=["nginx", "direct"], default="nginx")
    parser.add_argument("--kill-every", default="30,60", help="seconds between kills: a random pick in LOW,HIGH")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-speed", default="brisk", choices=["instant", "brisk", "normal", "slow"])
    parser.add_argument("--games", default="puskiyon,hawk,sheepshead", help="the tables take them in turn")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a table's ticks")
    parser.add_argument("--settle", type=float, default=35.0,
                        help="seconds after the load stops before the live checks (bots finish; a socket that missed "
                             "a push catches up at its next heartbeat, every 25 s)")
    parser.add_argument("--redis-down", type=float, default=2.0, help="seconds Redis stays stopped")
    parser.add_argument("--no-redis-restart", action="store_true")
    parser.add_argument("--post-timeout", type=float, default=30.0)
    parser.add_argument("--server-core", default=None, help="pin the Daphnes (and nginx) to this core (taskset)")
    parser.add_argument("--database", default=DB_URL,
                        help="the soak's PostgreSQL database, dropped and made again at the start (a soak of its "
                             "own per name: the services tier's test gives each run one)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--recheck", type=Path, default=None, metavar="FOLDER",
                        help="only run the database checks again, on the kept database, with FOLDER's attempts")
    args = parser.parse_args(argv)
    if args.recheck:
        return recheck(args.recheck, args.database)
    low, high = (float(x) for x in args.kill_every.split(","))
    args.kill_every = (low, high)
    if args.front == "nginx":
        try:
            import bench.nginx  # noqa: F401  (started below, once the Daphnes listen)
        except ImportError as error:
            raise SystemExit(f"--front nginx needs bench/nginx.py ({error}); use --front direct") from None
    out = args.out or ROOT / "bench" / "results" / f"chaos-{datetime.now(UTC):%Y%m%dT%H%M%SZ}"
    out.mkdir(parents=True, exist_ok=True)
    started = datetime.now(UTC)
    load_before = loadavg()

    redis_server = redis(free_port(), out)
    redis_server.start()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(BASE_ENV)
    env.update(DATABASE_URL=args.database, REDIS_URL=f"redis://127.0.0.1:{redis_server.port}/0",
               TABLE_BOT_SPEED=args.bot_speed)
    daphnes: list[Child] = []
    front_process: Any = None
    try:
        log(f"preparing {postgres_args(args.database)[1]} with {args.tables} tables")
        tables_file = prepare_database(env, out, args.tables, args.games, args.database)
        for _ in range(2):
            child = daphne(free_port(), out, env, args.server_core)
            child.start()
            daphnes.append(child)
        ports = [child.port for child in daphnes]
        if args.front == "nginx":
            from bench.nginx import start_nginx  # written beside this module; only this branch needs it

            front_process, front_port = start_nginx(daphne_ports=ports, workdir=out, core=args.server_core)
            fronts = [f"http://127.0.0.1:{front_port}"]
        else:
            fronts = [f"http://127.0.0.1:{port}" for port in ports]
        setup_django(args.database)
        soak = Soak(args, tables_file, fronts, daphnes, redis_server)
        final = asyncio.run(soak.run())
    finally:
        if front_process is not None:
            from bench.nginx import stop_nginx

            stop_nginx(front_process)
        for child in daphnes:
            child.stop()
        redis_server.stop()

    (out / "attempts.json").write_text(json.dumps([asdict(a) for a in soak.attempts]))
    codes = [t.code for t in soak.tables]
    checks, move_counts = database_checks(soak.attempts, codes)
    checks += live_checks(final, args.settle)
    result = {
        "started": started.isoformat(timespec="seconds"), "command": "python -m bench.chaos " + " ".join(
            sys.argv[1:] if argv is None else argv),
        "tables": args.tables, "minutes": args.minutes, "front": args.front, "bot_speed": args.bot_speed,
        "seed": args.seed, "kill_every": list(args.kill_every), "database": postgres_args(args.database)[1],
        "load_before": load_before, "load_after": loadavg(),
        "servers": [child.name for child in daphnes], "summary": summarize(soak, final), "moves": move_counts,
        "checks": checks, "ok": all(c["ok"] for c in checks),
        "server_log_errors": server_log_errors(daphnes),
    }
    (out / "chaos.json").write_text(json.dumps(result, indent=1))
    (out / "summary.md").write_text(markdown(result))
    ok = print_checks(checks)
    s = result["summary"]
    print(f"moves attempted {s['moves_attempted']}, accepted {s['moves_accepted']}, refused {s['refused']}, "
          f"lost {move_counts['lost']}, unsent {s['unsent']}, unknown {s['unknown_outcome']}, kills {s['kills']}, "
          f"longest unplayable {s['longest_unplayable_s']} s; errors {s['errors_by_kind'] or 'none'}")
    log(f"results in {out}")
    return 0 if ok else 1


def server_log_errors(daphnes: list[Child]) -> dict[str, int]:
    """Tracebacks in each server's log (counted, not judged: a killed process's peers may log a lost socket)."""
    counts: dict[str, int] = defaultdict(int)
    for child in daphnes:
        if child.log_path.exists():
            counts[child.name] = len(re.findall(r"Traceback", child.log_path.read_text(errors="replace")))
    return dict(counts)


if __name__ == "__main__":
    sys.exit(main())
