"""The chaos soak (bench/chaos.py), short: tables played through nginx by two Daphne processes on PostgreSQL while
the processes are killed with SIGKILL and the soak's own Redis is restarted empty, then every check of the soak
(no accepted move lost or doubled, no phantom move, rounds replay, money sums to zero, the books check, no table
left waiting for a bot, every socket caught up) must pass.

Why run as a child process, not in this one: the soak sets Django up on a database of its own (the servers'), and
a kill -9 of a server is only a crash if the server is a process. Why read chaos.json and not only the exit code:
a soak that never killed anything or never moved would exit 0 too, so the test also asserts that the chaos
happened (kills, each followed by a restart, the Redis restart) and that play went on through it.

Cost: about 3 minutes of wall time (2 min 45 s to 3 min 5 s on a 2-core machine at load average 5-10: 30-40 s to
make the database and start the servers, 90 s of load, the soak's 35 s of settling, a few seconds of checks), most
of it waiting: the soak's own process uses about 30 s of CPU, the servers a little more.

The database is the test's own (named by xdist worker and process, so parallel runs never drop each other's),
dropped when the soak passes and kept for `--recheck` when it fails; the outputs (chaos.json, the servers' logs)
are under the test's tmp_path.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bench.chaos import postgres_args
from tests.servers import ROOT
from tests.services.conftest import database_url

pytestmark = pytest.mark.services

TABLES = 8
MINUTES = 1.5
KILL_EVERY = "15,30"  # seconds: 3 or 4 kills in 90 s
# Seconds: twice what it takes on a loaded machine, and under this test's own pytest timeout, so a hung soak is
# ended here (with its servers) and its log shown.
SOAK_TIMEOUT = 360
MOVES_PER_TABLE = 5  # at least, over the whole load (a quiet machine accepts about 40 a table)


def soak_database() -> str:
    """The services tier's PostgreSQL server, a database of this run's own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    split = urlsplit(database_url())
    return urlunsplit(split._replace(path=f"/cardclub_chaos_{worker}_{os.getpid()}"))


def run_soak(out: Path, database: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bench.chaos", "--tables", str(TABLES), "--minutes", str(MINUTES),
               "--kill-every", KILL_EVERY, "--front", "nginx", "--database", database, "--out", str(out)]
    # A session of its own: if the soak hangs, it is ended with its servers (Daphnes, Redis, nginx).
    with (out.parent / "chaos.log").open("w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        try:
            process.wait(timeout=SOAK_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            pytest.fail(f"the soak did not finish in {SOAK_TIMEOUT} s:\n{tail(out.parent / 'chaos.log')}")
    return subprocess.CompletedProcess(command, process.returncode)


def tail(path: Path, lines: int = 60) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else "(no log)"


def drop(database: str) -> None:
    options, name = postgres_args(database)
    subprocess.run(["dropdb", "--if-exists", *options, name], check=True, capture_output=True)


def failures(result: dict[str, Any]) -> str:
    return "\n".join(f"FAIL {c['name']}: {c['detail']}\n  " + "\n  ".join(c["problems"])
                     for c in result["checks"] if not c["ok"])


@pytest.mark.timeout(SOAK_TIMEOUT + 60)
def test_the_short_chaos_soak_loses_nothing(tmp_path: Path) -> None:
    database = soak_database()
    out = tmp_path / "chaos"
    out.mkdir()
    finished = run_soak(out, database)
    log = tail(tmp_path / "chaos.log")
    assert (out / "chaos.json").exists(), f"the soak wrote no chaos.json (exit {finished.returncode}):\n{log}"
    result = json.loads((out / "chaos.json").read_text())
    summary = result["summary"]
    kept = f"(database {postgres_args(database)[1]} kept for `python -m bench.chaos --recheck {out} --database " \
           f"{database}`; load average {result['load_before']} before, {result['load_after']} after)"

    # Every check the soak makes passed, and there were all six of them.
    assert len(result["checks"]) == 6, result["checks"]
    assert all(check["ok"] for check in result["checks"]), f"{failures(result)}\n{kept}\n{log}"
    assert result["ok"] and finished.returncode == 0, f"exit {finished.returncode}\n{log}"
    assert result["moves"]["lost"] == 0 and result["moves"]["duplicated"] == 0 and result["moves"]["phantoms"] == 0

    # The chaos happened: processes killed and each started again, Redis stopped and started again (empty).
    events = summary["chaos_events"]
    kills = [e for e in events if e["what"] == "kill -9"]
    restarted = [e for e in events if e["what"] == "restarted" and e["server"].startswith("daphne:")]
    assert len(kills) >= 2 and summary["kills"] == len(kills), events
    assert len(restarted) == len(kills), events
    assert summary["redis_restarts"] == 1, events
    redis_back = [e["t"] for e in events if e["what"] == "restarted" and e["server"].startswith("redis:")]
    assert len(redis_back) == 1, events
    # ...and it reached the members: sockets were cut and came back (each member connected at least once more).
    assert summary["socket_connects"] > 2 * TABLES, summary["socket_events"]

    # Play went on through it: moves accepted, before and after Redis came back empty.
    attempts = json.loads((out / "attempts.json").read_text())
    accepted = [a for a in attempts if a["kind"] == "move" and a["outcome"] == "accepted"]
    assert len(accepted) == summary["moves_accepted"] >= MOVES_PER_TABLE * TABLES, summary
    assert sum(1 for a in accepted if a["t0"] > redis_back[0]) >= TABLES, (redis_back, summary)
    after_first_kill = {a["table"] for a in accepted if a["t0"] > restarted[0]["t"]}
    assert len(after_first_kill) == TABLES, f"tables with no accepted move after the first restart: {summary}"

    drop(database)  # kept when anything above failed, for --recheck
