"""Strong bots on demand, measured: what K members' instant tables of strong bots do to another member's table.

    .venv/bin/python -m bench.search_attack [--code /work/main,.] [--attackers 6] [--quiet-seconds 30]
                                            [--attack-seconds 60]

Issue 39 (item 4): a member's instant tables of strong bots drove searches on the table clock's one thread, and
another member's brisk bots and page loads slowed. This runs the same attack against each checkout named by
`--code` (e.g. the main checkout and this branch), one after the other in one run, and prints both side by side.

How, and why that way:
- Each configuration: a fresh SQLite file, migrated by that checkout's own `manage.py`, and one Daphne started
  from that checkout (its code, the shared venv's packages), pinned to core 0 (`taskset`) while this process keeps
  to core 1, as bench.run does. DEBUG is on (as `make run` serves it: pages need no collectstatic); no REDIS_URL.
  Members (with logged-in sessions) and tables are made from this process through the club's services, as
  bench.table_pace does; from then on everything goes through the server as a browser would (sockets, POSTs).
- The victim: one member at a brisk Hawk table of three bots (two normal, one easy), playing every turn and
  "ready" the moment the board offers it, while the victim's session also loads the lobby and the table page in
  turn every `--page-every` seconds.
- Quiet phase (`--quiet-seconds`): the victim alone. Attack phase (`--attack-seconds`): K attackers each start an
  instant table of strong bots (Hawk, Sheepshead, Puskiyon in turn) and play it as fast as its board allows (every
  own move and "ready" at once), so their strong bots always have a search due.
- Measured per phase: searches a minute (bot moves at the attackers' strong tables and at the victim's table, from
  the database's moves, each a search-level decision but for the easy seat), the victim's bot move spacing at the
  victim's socket (a bot's move after a bot's move that did not close a trick: brisk's pace is 0.4 s; after a
  trick 1.0 s; after the victim's own move), page loads (lobby and table page, median and p90), the server's CPU,
  and the load average at each phase's edges. Numbers are written, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any

from bench.httpc import Pool
from bench.loadgen import cpu_and_rss, percentile
from bench.table_pace import LONG_MATCH, Board, Member, Site, Socket, db, make_members, move_facts
from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SERVER_CORE, BENCH_CORE = "0", 1
ENV = {
    "DEBUG": "true",
    "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdefghijkl",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "INFO",
    "PYTHONUNBUFFERED": "1",
    "REDIS_URL": "",
}
ATTACK_GAMES: tuple[tuple[str, int], ...] = (("hawk", 4), ("sheepshead", 5), ("puskiyon", 4))
VICTIM_GAME, VICTIM_PLAYERS = "hawk", 4
VICTIM_BOT_LEVELS = ("normal", "normal", "easy")
BUDGET_LINE = re.compile(r"table clock: (\d+) searches \(([\d.]+) s of CPU\) and (\d+) waits")
TURN_SECONDS = 600  # nobody here runs out of time: every bot move is paced or searched, never a time-out


def now() -> float:
    return time.perf_counter()


def loadavg() -> list[float]:
    with open("/proc/loadavg") as handle:
        return [float(x) for x in handle.read().split()[:3]]


# -- the database, from this process ---------------------------------------------------------------------------


def make_table(*, member: Member, game: str, players: int, speed: str, level: str,
               seat_levels: tuple[str, ...] = ()) -> tuple[int, str]:
    """A running table through the club's services: the member in seat 0, bots (at `seat_levels`, else the
    table's `level`) in the rest."""
    from accounts.models import User
    from tables.play.services.tables import add_bot, create_table

    user = User.objects.get(pk=member.user_id)
    table = create_table(creator=user, game=game, players=players, options=LONG_MATCH[game],
                         turn_seconds=TURN_SECONDS, bot_speed=speed, bot_level=level)
    for i in range(players - 1):
        add_bot(table_id=table.pk, user=user, bot_level=seat_levels[i] if i < len(seat_levels) else None)
    return table.pk, table.code


def bot_moves(*, table_ids: list[int], since: datetime, until: datetime) -> int:
    from tables.models import Move

    return Move.objects.filter(round__match__table_id__in=table_ids, created_at__gte=since, created_at__lt=until,
                               actor__in=[Move.Actor.BOT, Move.Actor.ABSENT, Move.Actor.TIMEOUT]).count()


# -- the players ------------------------------------------------------------------------------------------------


@dataclass
class Player:
    """A member who plays every turn and "ready" the moment their board offers it."""

    site: Site
    member: Member
    table_id: int
    code: str
    rng: random.Random
    socket: Socket | None = None
    posts: int = 0

    async def play(self, until: float) -> None:
        self.socket = Socket(self.site.port, self.code, self.member.session)
        await self.socket.open()
        acted: set[int] = set()
        readied: set[str] = set()
        while now() < until:
            board = await self.socket.wait_for(lambda b: b.version not in acted, min(0.5, max(0.0, until - now())))
            if board is None:
                continue
            acted.add(board.version)
            if board.moves:
                await self.site.post(self.member, self.code, "move",
                                     {"move": self.rng.choice(board.moves), "version": str(board.version)})
                self.posts += 1
            elif board.ready_offered and board.round_key not in readied:
                readied.add(board.round_key)
                await self.site.post(self.member, self.code, "ready", {"version": str(board.version)})
                self.posts += 1


@dataclass
class Pages:
    """The victim's page loads: the lobby and the table page in turn, one every `every` seconds."""

    pool: Pool
    member: Member
    code: str
    every: float
    loads: list[tuple[float, str, float, int]] = field(default_factory=list)  # (at, path, seconds, status)

    async def run(self, until: float) -> None:
        paths = ["/lobby/", f"/t/{self.code}/"]
        turn = 0
        while now() < until:
            path = paths[turn % len(paths)]
            turn += 1
            started = now()
            try:
                response = await self.pool.request("GET", path, headers={"Cookie": f"sessionid={self.member.session}"})
                status = response.status
            except (OSError, TimeoutError, ConnectionError):
                status = 0
            self.loads.append((started, path, now() - started, status))
            await asyncio.sleep(max(0.0, self.every - (now() - started)))


# -- the figures ------------------------------------------------------------------------------------------------


def spacing(boards: list[Board], facts: dict[int, Any], start: float, end: float) -> dict[str, list[float]]:
    """Seconds between the victim's socket receiving a board and the next, where the next is a bot's move: by what
    came before it (a bot's move, a bot's move closing a trick, the victim's move, a deal); only boards received
    in [start, end), only where the board before it was received too."""
    arrivals: dict[int, float] = {}
    for board in boards:
        arrivals.setdefault(board.version, board.t)
    gaps: dict[str, list[float]] = {"bot": [], "bot_trick": [], "member": [], "member_trick": [], "deal": []}
    for version, t in arrivals.items():
        fact = facts.get(version)
        before = facts.get(version - 1)
        if fact is None or fact.actor != "bot" or before is None or version - 1 not in arrivals:
            continue
        if not start <= t < end:
            continue
        kind = before.actor if before.actor in ("bot", "deal") else "member"
        kind += "_trick" if before.closed_trick and kind != "deal" else ""
        gaps[kind].append(t - arrivals[version - 1])
    return gaps


def stats(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "median": round(median(values), 3) if values else None,
            "p90": round(percentile(values, 90), 3) if values else None,
            "max": round(max(values), 3) if values else None}


@dataclass
class Phase:
    name: str
    start: float = 0.0
    end: float = 0.0
    wall_start: datetime = field(default_factory=lambda: datetime.now(UTC))
    wall_end: datetime = field(default_factory=lambda: datetime.now(UTC))
    cpu: float = 0.0
    load_start: list[float] = field(default_factory=list)
    load_end: list[float] = field(default_factory=list)


# -- one configuration ------------------------------------------------------------------------------------------


def label_of(checkout: Path) -> str:
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    branch = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--abbrev-ref", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return f"{checkout} ({branch or '?'} {commit or '?'})"


def fresh_database(checkout: Path, env: dict[str, str], path: Path) -> None:
    from django.db import connections

    connections.close_all()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    result = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=checkout,
                            env={**os.environ, **env}, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"migrate in {checkout} failed:\n{result.stdout}\n{result.stderr}")


def start_server(checkout: Path, env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen[bytes]:
    handle = log_path.open("ab")
    process = subprocess.Popen(
        ["taskset", "-c", SERVER_CORE, sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=checkout, env={**os.environ, **env}, stdout=handle, stderr=subprocess.STDOUT)
    wait_for_port(port, process, timeout=60)
    return process


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def measure(args: argparse.Namespace, port: int, pid: int, tag: str) -> dict[str, Any]:
    site = Site(port, Pool("127.0.0.1", port, size=16))
    pages_pool = Pool("127.0.0.1", port, size=2)
    people = await db(make_members, prefix=f"{tag}-", count=args.attackers + 1)
    victim, attackers = people[0], people[1:]
    victim_id, victim_code = await db(make_table, member=victim, game=VICTIM_GAME, players=VICTIM_PLAYERS,
                                      speed="brisk", level="normal", seat_levels=VICTIM_BOT_LEVELS)
    rng = random.Random(args.seed)
    victim_player = Player(site, victim, victim_id, victim_code, random.Random(rng.random()))
    pages = Pages(pages_pool, victim, victim_code, args.page_every)
    total = args.quiet_seconds + args.attack_seconds
    began = now()
    until = began + total
    victim_task = asyncio.gather(victim_player.play(until), pages.run(until))

    phases = [Phase("quiet"), Phase("attack")]
    quiet, attack = phases
    quiet.start, quiet.wall_start, quiet.load_start = now(), datetime.now(UTC), loadavg()
    quiet.cpu = cpu_and_rss(pid)[0]
    print(f"  quiet: the victim alone for {args.quiet_seconds:.0f} s", file=sys.stderr, flush=True)
    await asyncio.sleep(max(0.0, began + args.quiet_seconds - now()))
    quiet.end, quiet.wall_end, quiet.load_end = now(), datetime.now(UTC), loadavg()
    quiet.cpu = cpu_and_rss(pid)[0] - quiet.cpu

    print(f"  attack: {len(attackers)} attackers' instant tables of strong bots for {args.attack_seconds:.0f} s",
          file=sys.stderr, flush=True)
    attack.start, attack.wall_start, attack.load_start = now(), datetime.now(UTC), loadavg()
    attack.cpu = cpu_and_rss(pid)[0]
    players = []
    for i, member in enumerate(attackers):
        game, seats = ATTACK_GAMES[i % len(ATTACK_GAMES)]
        table_id, code = await db(make_table, member=member, game=game, players=seats, speed="instant",
                                  level="strong")
        players.append(Player(site, member, table_id, code, random.Random(rng.random())))
    await asyncio.gather(*(p.play(until) for p in players))
    await victim_task
    attack.end, attack.wall_end, attack.load_end = now(), datetime.now(UTC), loadavg()
    attack.cpu = cpu_and_rss(pid)[0] - attack.cpu
    await site.pool.close()
    await pages_pool.close()
    for player in [victim_player, *players]:
        if player.socket is not None:
            await player.socket.close()

    facts, _mismatched = await db(move_facts, table_id=victim_id)
    assert victim_player.socket is not None
    out: dict[str, Any] = {"phases": {}}
    for phase in phases:
        seconds = phase.end - phase.start
        gaps = spacing(victim_player.socket.boards, facts, phase.start, phase.end)
        loads = [(path, s, status) for at, path, s, status in pages.loads if phase.start <= at < phase.end]
        attack_searches = await db(bot_moves, table_ids=[p.table_id for p in players], since=phase.wall_start,
                                   until=phase.wall_end)
        victim_bot_moves = await db(bot_moves, table_ids=[victim_id], since=phase.wall_start, until=phase.wall_end)
        out["phases"][phase.name] = {
            "seconds": round(seconds, 1),
            "attack_searches_per_minute": round(attack_searches * 60 / seconds, 1),
            "victim_bot_moves_per_minute": round(victim_bot_moves * 60 / seconds, 1),
            "victim_spacing": {kind: stats(values) for kind, values in gaps.items()},
            "pages": stats([s for _p, s, status in loads if status == 200]),
            "lobby": stats([s for p, s, status in loads if status == 200 and p == "/lobby/"]),
            "table_page": stats([s for p, s, status in loads if status == 200 and p != "/lobby/"]),
            "page_errors": sum(1 for _p, _s, status in loads if status != 200),
            "server_cpu_s": round(phase.cpu, 1), "server_cpu_share": round(phase.cpu / seconds, 2),
            "loadavg_start": phase.load_start, "loadavg_end": phase.load_end,
        }
    out["http_errors"] = site.errors[:20]
    out["attacker_posts"] = sum(p.posts for p in players)
    return out


def run_config(args: argparse.Namespace, checkout: Path, workdir: Path, stamp: str, index: int) -> dict[str, Any]:
    database = workdir / "bench.sqlite3"
    env = {**ENV, "DATABASE_URL": f"sqlite:///{database}"}
    label = label_of(checkout)
    print(f"{label}", file=sys.stderr, flush=True)
    fresh_database(checkout, env, database)
    log_path = RESULTS / f"search_attack-{stamp}-{index}.daphne.log"
    port = free_port()
    process = start_server(checkout, env, port, log_path)
    try:
        result = asyncio.run(measure(args, port, process.pid, f"c{index}"))
    finally:
        stop_server(process)
    log = log_path.read_text(errors="replace")
    # The clock's minute lines where the code has a search budget (none on code from before it).
    budget = [(int(n), float(cpu), int(waits)) for n, cpu, waits in BUDGET_LINE.findall(log)]
    result.update({"code": label, "server_log": str(log_path),
                   "server_log_errors": len(re.findall(r"Traceback|ERROR", log)),
                   "budget_lines": len(budget), "budget_searches": sum(b[0] for b in budget),
                   "budget_cpu_s": round(sum(b[1] for b in budget), 1), "budget_waits": sum(b[2] for b in budget)})
    return result


# -- the report -------------------------------------------------------------------------------------------------


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _load(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def report(result: dict[str, Any]) -> str:
    lines = [f"search_attack {result['started']}: {result['attackers']} attackers (instant tables of strong bots), "
             f"one victim at a brisk Hawk table (bots {', '.join(VICTIM_BOT_LEVELS)}); quiet "
             f"{result['args']['quiet_seconds']:.0f} s, attack {result['args']['attack_seconds']:.0f} s; "
             f"server on core {SERVER_CORE}, bench on core {BENCH_CORE}", ""]
    header = (f"{'code':<44} {'phase':<7} {'searches/min':>12} {'victim bots/min':>15} {'after bot md':>12} "
              f"{'p90':>6} {'n':>4} {'after trick md':>14} {'p90':>6} {'pages md':>8} {'p90':>6} {'lobby md':>8} "
              f"{'table md':>8} {'n':>4} {'srv CPU':>7}  load avg (start -> end)")
    lines.append(header)
    for config in result["configs"]:
        for name, phase in config["phases"].items():
            bot, trick = phase["victim_spacing"]["bot"], phase["victim_spacing"]["bot_trick"]
            lines.append(
                f"{config['code'][:44]:<44} {name:<7} {phase['attack_searches_per_minute']:>12.1f} "
                f"{phase['victim_bot_moves_per_minute']:>15.1f} {_f(bot['median']):>12} {_f(bot['p90']):>6} "
                f"{bot['n']:>4} {_f(trick['median']):>14} {_f(trick['p90']):>6} {_f(phase['pages']['median']):>8} "
                f"{_f(phase['pages']['p90']):>6} {_f(phase['lobby']['median']):>8} "
                f"{_f(phase['table_page']['median']):>8} {phase['pages']['n']:>4} {phase['server_cpu_share']:>7.2f}  "
                f"{_load(phase['loadavg_start'])} -> {_load(phase['loadavg_end'])}")
        if config["budget_lines"]:
            lines.append(f"{'':<44} the clock's own lines ({config['budget_lines']}, a minute each): "
                         f"{config['budget_searches']} searches, {config['budget_cpu_s']} s of CPU, "
                         f"{config['budget_waits']} waits")
        errors = config["http_errors"]
        lines.append(f"{'':<44} server log: {config['server_log_errors']} errors or tracebacks; HTTP errors "
                     f"{len(errors)}{': ' + '; '.join(errors[:3]) if errors else ''}")
    lines.append("")
    lines.append("searches/min: bot moves at the attackers' tables (all strong bots); victim bots/min: bot moves at "
                 "the victim's table; after bot / after trick: seconds between boards at the victim's socket before a "
                 "bot's move (brisk's pace: 0.4 s / 1.0 s); pages: the victim's lobby and table page loads (seconds); "
                 "srv CPU: the server's CPU seconds per second of the phase.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", default=f"/work/main,{ROOT}",
                        help="comma-separated checkouts to serve from, in turn (default: /work/main and this one)")
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--quiet-seconds", type=float, default=30.0)
    parser.add_argument("--attack-seconds", type=float, default=60.0)
    parser.add_argument("--page-every", type=float, default=0.5, help="seconds between the victim's page loads")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    checkouts = [Path(c).resolve() for c in args.code.split(",") if c]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (ROOT / "var").mkdir(exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="search_attack-", dir=ROOT / "var"))
    os.environ.update({**ENV, "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}"})
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    with contextlib.suppress(AttributeError, OSError):  # where it cannot pin, it runs unpinned
        os.sched_setaffinity(0, {BENCH_CORE})
    import django

    django.setup()
    started = time.monotonic()
    result: dict[str, Any] = {"started": stamp, "attackers": args.attackers, "args": vars(args),
                              "loadavg_start": loadavg(), "configs": []}
    try:
        for index, checkout in enumerate(checkouts):
            result["configs"].append(run_config(args, checkout, workdir, stamp, index))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["loadavg_end"] = loadavg()
    result["total_seconds"] = round(time.monotonic() - started, 1)
    out = RESULTS / f"search_attack-{stamp}.json"
    out.write_text(json.dumps(result, indent=1, default=str))
    text = report(result)
    (RESULTS / f"search_attack-{stamp}.md").write_text(text + "\n")
    print(text)
    print(f"\n{result['total_seconds']:.0f} s in all; {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
