"""A socket flood, measured: how one member flooding a table socket slows another member's lobby page, and how much
memory it adds to Daphne.

    .venv/bin/python -m bench.socket_flood [--site PATH] [--seconds 5] [--kind junk|chat] [--reconnect]

How, and why that way:
- The site is the checkout at `--site` (default: this one), so the same attack can be run against another
  checkout's code (e.g. /work/main) without touching it: its `manage.py migrate` and Daphne run with that folder as
  their working directory, on a fresh SQLite file in a temporary folder, and with PYTHONDONTWRITEBYTECODE set, so
  nothing is written inside the checkout. Everything else is the site's defaults (no REDIS_URL: the in-memory
  layer; DEBUG and the socket limits as a fresh `make run` has them).
- Two members and a running Hawsker table between them are made by the site's own services (`manage.py shell`),
  each member with a logged-in session.
- The victim holds the table's socket open (as their page would) and loads the lobby page, one request after the
  other, for `--quiet` seconds (the figures before), then as long again while the flood runs.
- The flooder is another process (its own core's worth of Python, as an attacker's client would be): it opens the
  table's socket as the other member and sends frames as fast as its connection takes them for `--seconds`, never
  reading what the server answers. `junk` frames are one byte that is no JSON; `chat` frames are chat lines as the
  page's chat form sends them. With `--reconnect` it opens a new socket whenever one is closed, until the time is up.
- Daphne's resident memory is read from /proc before the flood, at its peak (every 0.1 s) and after it.
- The figures are printed, never asserted, with the load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.httpc import Pool
from bench.loadgen import cpu_and_rss, percentile
from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
# Settings the flood is about, left at the site's defaults whatever this shell has.
UNSET = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SOCKET_MESSAGE_BURST", "SOCKET_MESSAGES_PER_SECOND",
         "SOCKETS_PER_MEMBER", "TABLE_CLOCK_SECONDS")

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
from tables.play.services.tables import create_table, join_table

def session(user):
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key

flooder = User.objects.create_user(username="flooder", email="flooder@bench.invalid")
victim = User.objects.create_user(username="victim", email="victim@bench.invalid")
table = create_table(creator=flooder, game="hawsker", players=2)
join_table(table_id=table.pk, user=victim)
print("SETUP " + json.dumps({"code": table.code, "flooder": session(flooder), "victim": session(victim)}))
"""


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def site_env(site: Path, database: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env.update({"DATABASE_URL": f"sqlite:///{database}", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"})
    return env


def manage(site: Path, env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=site, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed in {site}:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def socket_url(port: int, code: str) -> str:
    return f"ws://127.0.0.1:{port}/ws/table/{code}/"


def frame_of(kind: str) -> str:
    if kind == "chat":
        return json.dumps({"kind": "chat", "text": "spam spam spam", "csrfmiddlewaretoken": "x",
                           "HEADERS": {"HX-Request": "true", "HX-Trigger": "chat-form-table"}})
    return "x"


async def flood(*, port: int, code: str, cookie: str, seconds: float, kind: str, reconnect: bool) -> dict[str, Any]:
    """The flooder's side (its own process): frames sent, sockets opened, and the codes they were closed with."""
    frame, sent, sockets, codes = frame_of(kind), 0, 0, Counter[str]()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            # max_queue=None: what the server says is kept unread, but a close is still seen at once.
            async with connect(socket_url(port, code), origin=f"http://127.0.0.1:{port}", compression=None,
                               additional_headers={"Cookie": f"sessionid={cookie}"}, max_queue=None,
                               open_timeout=30) as ws:
                sockets += 1
                while time.monotonic() < end:
                    for _ in range(200):
                        await ws.send(frame)
                        sent += 1
                codes["open at the end"] += 1
        except ConnectionClosed as closed:
            codes[str(closed.rcvd.code if closed.rcvd else "no close frame")] += 1
        except (OSError, TimeoutError) as error:
            codes[type(error).__name__] += 1
            await asyncio.sleep(0.05)
        if not reconnect:
            break
    return {"frames": sent, "sockets": sockets, "closes": dict(codes)}


async def victim_loads(pool: Pool, cookie: str, seconds: float) -> list[float]:
    """Lobby page loads, one after the other, for `seconds`: each one's time from request to whole answer."""
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        response = await pool.request("GET", "/lobby/", headers={"Cookie": f"sessionid={cookie}"})
        times.append(time.perf_counter() - start)
        if response.status != 200:
            raise RuntimeError(f"the lobby answered {response.status}")
    return times


async def watch_memory(pid: int, peak: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], cpu_and_rss(pid)[1])
        await asyncio.sleep(0.1)


def summary(times: list[float]) -> str:
    if not times:
        return "no loads"
    return (f"{len(times)} loads, median {median(times) * 1000:.1f} ms, p90 {percentile(times, 90) * 1000:.1f} ms, "
            f"max {max(times) * 1000:.1f} ms")


async def measure(args: argparse.Namespace, port: int, pid: int, setup: dict[str, str]) -> dict[str, Any]:
    pool = Pool("127.0.0.1", port, size=1)
    victim_socket = await connect(socket_url(port, setup["code"]), origin=f"http://127.0.0.1:{port}",
                                  additional_headers={"Cookie": f"sessionid={setup['victim']}"}, compression=None)
    await victim_socket.recv()  # the board
    await victim_loads(pool, setup["victim"], 1.0)  # warm-up
    load_before = loadavg()
    cpu_before, rss_before = cpu_and_rss(pid)
    quiet = await victim_loads(pool, setup["victim"], args.quiet)
    flooder = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.socket_flood", "--flood", "--port", str(port), "--code", setup["code"],
        "--cookie", setup["flooder"], "--seconds", str(args.seconds), "--kind", args.kind,
        *(["--reconnect"] if args.reconnect else []), cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    peak, stop = [rss_before], asyncio.Event()
    watcher = asyncio.create_task(watch_memory(pid, peak, stop))
    during = await victim_loads(pool, setup["victim"], args.seconds)
    load_during = loadavg()
    out, _ = await flooder.communicate()
    stop.set()
    await watcher
    cpu_after, rss_after = cpu_and_rss(pid)
    await asyncio.sleep(2)
    rss_settled = cpu_and_rss(pid)[1]
    after = await victim_loads(pool, setup["victim"], 2.0)
    try:  # the victim's own socket: still open, still answering
        await victim_socket.send("x")
        await asyncio.wait_for(victim_socket.recv(), timeout=10)
        victim_open = True
    except (ConnectionClosed, TimeoutError):
        victim_open = False
    await victim_socket.close()
    await pool.close()
    flood_result = json.loads(out.decode().strip().splitlines()[-1])
    return {"quiet": quiet, "during": during, "after": after, "flood": flood_result,
            "rss": (rss_before, peak[0], rss_after, rss_settled), "cpu": cpu_after - cpu_before,
            "load": (load_before, load_during), "victim_socket_open": victim_open}


def run(args: argparse.Namespace) -> int:
    site = Path(args.site).resolve()
    with tempfile.TemporaryDirectory(prefix="socket-flood-") as tmp:
        env = site_env(site, Path(tmp) / "flood.sqlite3")
        print(f"site {site}; load average {loadavg()}", flush=True)
        manage(site, env, "migrate", "--noinput", "-v", "0")
        out = manage(site, env, "shell", "-c", SETUP)
        setup = json.loads(next(line for line in out.splitlines() if line.startswith("SETUP "))[6:])
        port = free_port()
        log_path = Path(tmp) / "daphne.log"
        with log_path.open("wb") as log:
            daphne = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                       "config.asgi:application"], cwd=site, env=env, stdout=log,
                                      stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, daphne)
            result = asyncio.run(measure(args, port, daphne.pid, setup))
        finally:
            daphne.terminate()
            try:
                daphne.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daphne.kill()
                daphne.wait()
        mib = 1024 * 1024
        before, peak, after, settled = result["rss"]
        flooded = result["flood"]
        print(f"flood: {args.kind} frames for {args.seconds:g} s{' (reconnecting)' if args.reconnect else ''}: "
              f"{flooded['frames']:,} frames over {flooded['sockets']} socket(s), closed {flooded['closes']}")
        print(f"victim's lobby before: {summary(result['quiet'])}  (load average {result['load'][0]})")
        print(f"victim's lobby during: {summary(result['during'])}  (load average {result['load'][1]})")
        print(f"victim's lobby after:  {summary(result['after'])}")
        print(f"victim's table socket open and answering afterwards: {result['victim_socket_open']}")
        print(f"daphne RSS: {before / mib:.1f} MiB before, peak {peak / mib:.1f} MiB (+{(peak - before) / mib:.1f}), "
              f"{after / mib:.1f} MiB at the end of the flood, {settled / mib:.1f} MiB 2 s later; "
              f"CPU during the flood {result['cpu']:.1f} s")
        logged = log_path.read_text(errors="replace").splitlines()
        errors = [n for n, line in enumerate(logged) if "Traceback" in line]
        print(f"daphne log: {len(errors)} tracebacks")
        if errors and args.show_errors:
            print("\n".join(logged[max(errors[0] - 3, 0):errors[0] + 40]))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default=str(ROOT), help="the checkout whose code is served (default: this one)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the flood lasts")
    parser.add_argument("--quiet", type=float, default=5.0, help="how long the loads before the flood are measured")
    parser.add_argument("--kind", choices=("junk", "chat"), default="junk")
    parser.add_argument("--reconnect", action="store_true", help="the flooder opens a new socket when one closes")
    parser.add_argument("--show-errors", action="store_true", help="print the first traceback in Daphne's log")
    parser.add_argument("--flood", action="store_true", help=argparse.SUPPRESS)  # the flooder process itself
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--cookie", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flood:
        result = asyncio.run(flood(port=args.port, code=args.code, cookie=args.cookie, seconds=args.seconds,
                                   kind=args.kind, reconnect=args.reconnect))
        print(json.dumps(result), flush=True)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
