"""nginx in front of the bench's Daphne processes, from the very site file production runs.

Why plain HTTP: the load generator (bench/httpc.py, websockets) speaks plain HTTP; TLS would add its handshakes
and ciphers to nginx's CPU, which a production nginx pays too, so the figures of the `nginx2` configuration are a
lower bound for nginx's share. Everything else is deploy/nginx/cardclub.conf as shipped: the upstream (one
`server` line per Daphne, round robin), WebSocket upgrades, `X-Forwarded-For $remote_addr` (the Daphnes run with
`--proxy-headers`), and `Connection: close` towards Daphne for every request that is not an upgrade.

    process, port = start_nginx(daphne_ports=[8001, 8002], workdir=Path("/tmp/x"), core="0")
    ...
    stop_nginx(process)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE_CONF = ROOT / "deploy" / "nginx" / "cardclub.conf"
NGINX = "/usr/sbin/nginx"
# Each open page is two connections in the worker (the client's and Daphne's); 400 tables are 800 sockets.
WORKER_CONNECTIONS = 8192


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise ValueError(f"{SITE_CONF} no longer has exactly one {old!r}")
    return text.replace(old, new)


def site_for_bench(*, daphne_ports: list[int], port: int) -> str:
    """The shipped site on plain HTTP at 127.0.0.1:`port`: the port-80 redirect server is dropped, the TLS
    server listens without TLS, the upstream lists `daphne_ports`. Nothing else changes."""
    site = SITE_CONF.read_text()
    upstream = re.search(r"upstream cardclub_daphne \{.*?\n\}", site, re.S)
    redirect = re.search(r"server \{\n    listen 80;.*?\n\}\n", site, re.S)
    if not upstream or not redirect:
        raise ValueError(f"{SITE_CONF} has no upstream cardclub_daphne or no port-80 server")
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in daphne_ports)
    site = site.replace(upstream.group(0), re.sub(r"(    server 127\.0\.0\.1:\d+;\n)+", servers, upstream.group(0)))
    site = site.replace(redirect.group(0), "")
    site = _replace_once(site, "    listen [::]:443 ssl;\n", "")
    site = _replace_once(site, "listen 443 ssl;", f"listen 127.0.0.1:{port};")
    return re.sub(r"\n\s*ssl_certificate(_key)?\s+\S+;", "", site)


def _main_conf(workdir: Path) -> str:
    user = "user root;" if os.geteuid() == 0 else ""  # workers write the temp paths below
    temp = "\n".join(f"    {kind}_temp_path {workdir / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                              "scgi"))
    return f"""
daemon off;
{user}
worker_processes 1;
worker_rlimit_nofile {2 * WORKER_CONNECTIONS};
pid {workdir / "nginx.pid"};
error_log {workdir / "nginx-error.log"} warn;
events {{ worker_connections {WORKER_CONNECTIONS}; }}
http {{
    access_log {workdir / "nginx-access.log"};
{temp}
    include {workdir / "cardclub.conf"};
}}
"""


def start_nginx(*, daphne_ports: list[int], workdir: Path, core: str | None = None
                ) -> tuple[subprocess.Popen[bytes], int]:
    """Starts nginx (one worker, in the foreground) in front of `daphne_ports`, pinned to `core` when given;
    returns its master process (the worker is its child) and the port it listens on, once it answers there."""
    workdir.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    (workdir / "cardclub.conf").write_text(site_for_bench(daphne_ports=daphne_ports, port=port))
    (workdir / "nginx.conf").write_text(_main_conf(workdir))
    command = [NGINX, "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-e", str(workdir / "nginx-error.log")]
    if core is not None:
        command = ["taskset", "-c", core, *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 15
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}: {_errors(workdir)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process, port
        except OSError:
            if time.monotonic() > deadline:
                stop_nginx(process)
                raise RuntimeError(f"nginx does not listen on {port}: {_errors(workdir)}") from None
            time.sleep(0.1)


def stop_nginx(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGTERM: the master ends its worker, open sockets are cut), then waits for it."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _errors(workdir: Path) -> str:
    path = workdir / "nginx-error.log"
    return path.read_text(errors="replace")[-2000:] if path.exists() else ""
