"""The production layout: a real nginx (deploy/nginx/cardclub.conf) in front of two real Daphne processes.

Behind a proxy every request arrives from the proxy's address. These tests make sure the login rate limit
still counts each client's own address, that a client cannot choose its address by sending its own
X-Forwarded-For, that sockets pass through, and that a hand is played through nginx by two members whose
table sockets are on different processes. Clients speak from 127.0.0.2 and 127.0.0.3 (loopback).
"""

from __future__ import annotations

import asyncio
import datetime
import html
import http.client
import json
import os
import random
import re
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
import websockets
from asgiref.sync import sync_to_async
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory

from accounts.models import User
from tables.models import Move, Round, Table
from tests.servers import ROOT, Daphne, free_port, wait_for_port
from tests.services.conftest import database_url
from tests.sockets import session_cookie, version_of
from tests.tables.helpers import full_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NGINX = "/usr/sbin/nginx"
SITE_CONF = ROOT / "deploy" / "nginx" / "cardclub.conf"
FIRST, SECOND = "127.0.0.2", "127.0.0.3"
PASSWORD = "a-long-test-password-42"
TOO_MANY = "Too many failed login attempts"


@dataclass
class ProxiedDaphne(Daphne):
    """A Daphne started with extra command-line options (the README's `--proxy-headers`), writing its access log
    (line by line) to `access_log` when given."""

    options: tuple[str, ...] = ()
    access_log: Path | None = None

    def start(self) -> ProxiedDaphne:
        log = self.log_path.open("ab")
        access = ("--access-log", str(self.access_log)) if self.access_log else ()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", *self.options, *access, "-b", "127.0.0.1", "-p", str(self.port),
             "config.asgi:application"],
            cwd=ROOT, env={**os.environ, **self.env}, stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.process)
        return self


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/nginx/cardclub.conf no longer has exactly one {old!r}"
    return text.replace(old, new)


def site_for_test(*, daphne_ports: list[int], http_port: int, https_port: int, cert: Path, key: Path) -> str:
    """The shipped site file with only what differs on this machine changed: ports and certificate."""
    site = SITE_CONF.read_text()
    upstream = re.search(r"upstream cardclub_daphne \{.*?\n\}", site, re.S)
    assert upstream, "deploy/nginx/cardclub.conf has no upstream cardclub_daphne"
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in daphne_ports)
    site = site.replace(upstream.group(0), re.sub(r"(    server 127\.0\.0\.1:\d+;\n)+", servers, upstream.group(0)))
    site = replace_once(site, "    listen [::]:80;\n", "")
    site = replace_once(site, "    listen [::]:443 ssl;\n", "")
    site = replace_once(site, "listen 80;", f"listen 127.0.0.1:{http_port};")
    site = replace_once(site, "listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site)
    return re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)


@dataclass
class Nginx:
    directory: Path
    site: str
    port: int
    process: subprocess.Popen | None = None

    def start(self) -> Nginx:
        (self.directory / "cardclub.conf").write_text(self.site)
        user = "user root;" if os.geteuid() == 0 else ""  # workers write the temp paths below
        temp = "\n".join(f"    {kind}_temp_path {self.directory / kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (self.directory / "nginx.conf").write_text(f"""
daemon off;
{user}
worker_processes 1;
pid {self.directory / "nginx.pid"};
error_log {self.directory / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    access_log {self.directory / "access.log"};
{temp}
    include {self.directory / "cardclub.conf"};
}}
""")
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf"),
             "-e", str(self.directory / "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(self.port, self.process, timeout=10)
        except RuntimeError as error:
            raise RuntimeError(f"nginx did not start: {self.log()}") from error
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def log(self) -> str:
        path = self.directory / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


# The README's layout: nginx sets X-Forwarded-For to the address it saw, Daphne (--proxy-headers) makes
# that the request's REMOTE_ADDR and allauth, trusting no proxy itself, counts REMOTE_ADDR.
DAPHNE_OPTIONS = ("--proxy-headers",)
# The servers run the production settings; only the static files are served unhashed, so that no
# `collectstatic` is needed for a test.
SETTINGS = """
from config.production import *  # noqa: F403
from config.production import STORAGES

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
"""


@dataclass
class Site:
    port: int
    http_port: int
    daphnes: list[ProxiedDaphne]
    nginx: Nginx

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("nginx")
    (directory / "behind_nginx_settings.py").write_text(SETTINGS)
    env = {"DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL, "TRUSTED_PROXY_COUNT": "0",
           "DJANGO_SETTINGS_MODULE": "behind_nginx_settings", "PYTHONPATH": str(directory),
           # The tests' own key, so that sessions made here (tests.sockets.session_cookie) are valid there.
           "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": "127.0.0.1,club.example.org"}
    daphnes = [ProxiedDaphne(port=free_port(), env=env, log_path=directory / f"daphne-{i}.log", options=DAPHNE_OPTIONS,
                             access_log=directory / f"daphne-{i}-access.log") for i in range(2)]
    cert, key = self_signed_certificate(directory)
    port, http_port = free_port(), free_port()
    nginx = Nginx(directory=directory, port=port, site=site_for_test(
        daphne_ports=[daphne.port for daphne in daphnes], http_port=http_port, https_port=port, cert=cert, key=key))
    try:
        for daphne in daphnes:
            daphne.start()
        nginx.start()
        yield Site(port=port, http_port=http_port, daphnes=daphnes, nginx=nginx)
    finally:
        nginx.stop()
        for daphne in daphnes:
            daphne.stop()
        with django_db_blocker.unblock():
            wait_until_only_we_use_the_database()


def wait_until_only_we_use_the_database(timeout: float = 10.0) -> None:
    """The servers' pooled connections end a moment after they do; the test database is dropped after this."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.1)


def insecure_tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@dataclass
class Browser:
    """A client that speaks to nginx from one loopback address and keeps its cookies."""

    site: Site
    address: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, *, form: Mapping[str, str] | None = None,
                headers: Sequence[tuple[str, str]] = ()) -> tuple[int, str, str]:
        conn = http.client.HTTPSConnection("127.0.0.1", self.site.port, timeout=30,
                                           source_address=(self.address, 0), context=insecure_tls())
        try:
            conn.putrequest(method, path, skip_accept_encoding=True)
            all_headers = [("Origin", self.site.origin), *headers]
            if self.cookies:
                all_headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
            body = urlencode(form).encode() if form is not None else b""
            if form is not None:
                all_headers += [("Content-Type", "application/x-www-form-urlencoded"),
                                ("Content-Length", str(len(body)))]
            for name, value in all_headers:
                conn.putheader(name, value)
            conn.endheaders(body or None)
            response = conn.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, response.headers.get("Location", ""), response.read().decode()
        finally:
            conn.close()

    def log_in(self, login: str, password: str, *, headers: Sequence[tuple[str, str]] = ()) -> tuple[int, str, str]:
        status, _, page = self.request("GET", "/accounts/login/")
        assert status == 200, page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page
        return self.request("POST", "/accounts/login/", headers=headers,
                            form={"login": login, "password": password, "csrfmiddlewaretoken": token.group(1)})


def rate_limit_keys(*addresses: str) -> list[str]:
    """allauth's per-address buckets for failed logins, as the servers name them in the shared cache."""
    from allauth.core.internal.ratelimit import get_cache_key, parse_rates

    rates = [rate for rate in parse_rates(settings.ACCOUNT_RATE_LIMITS["login_failed"]) if rate.per == "ip"]
    assert rates, "the failed-login limit no longer counts per address"
    return [get_cache_key(RequestFactory().post("/", REMOTE_ADDR=address), app="allauth.account",
                          action="login_failed", rate=rate) for address in addresses for rate in rates]


@pytest.fixture
def fresh_limits() -> Iterator[None]:
    """The limits live in Redis, which outlives a test run: start and end with these addresses' buckets empty."""
    keys = rate_limit_keys("127.0.0.1", FIRST, SECOND)
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


@pytest.fixture
def alice(make_member) -> User:
    user = make_member(f"alice{uuid.uuid4().hex[:8]}")
    # The servers hash with the project's hashers, not the tests' fast one.
    user.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())
    user.save(update_fields=["password"])
    return user


def fail_until_limited(browser: Browser, *, headers: Sequence[tuple[str, str]] = ()) -> int:
    """Fails logins (each for another unknown member, so only the per-address limit fills) until refused."""
    for attempt in range(1, 30):
        status, _, page = browser.log_in(f"nobody-{uuid.uuid4().hex[:12]}", "wrong-password", headers=headers)
        assert status == 200, page
        if TOO_MANY in page:
            return attempt
    raise AssertionError("the failed-login limit never applied")


def test_an_address_that_keeps_failing_is_limited_and_another_address_is_not(
    site: Site, alice: User, fresh_limits: None
) -> None:
    first, second = Browser(site, FIRST), Browser(site, SECOND)

    assert fail_until_limited(first) == 11  # "10/m/ip": ten failures a minute, then refused
    _, _, page = first.log_in(alice.username, PASSWORD)
    assert TOO_MANY in page, "the limited address logged in with the right password"

    status, location, page = second.log_in(alice.username, PASSWORD)
    assert (status, location) == (302, "/lobby/"), page[:2000]


def test_a_forged_x_forwarded_for_neither_escapes_the_limit_nor_moves_it_onto_another_address(
    site: Site, alice: User, fresh_limits: None
) -> None:
    """A client naming someone else's address in its own X-Forwarded-For is still counted as itself."""
    forger, victim = Browser(site, FIRST), Browser(site, SECOND)

    assert fail_until_limited(forger, headers=[("X-Forwarded-For", SECOND)]) == 11
    # Two headers now, naming addresses never seen: Daphne would take the first one's first entry.
    _, _, page = forger.log_in(alice.username, PASSWORD,
                               headers=[("X-Forwarded-For", "127.0.0.9"), ("X-Forwarded-For", "127.0.0.8")])
    assert TOO_MANY in page, "a forged X-Forwarded-For escaped the limit"

    status, location, page = victim.log_in(alice.username, PASSWORD)
    assert (status, location) == (302, "/lobby/"), page[:2000]


def test_the_lobby_socket_connects_through_nginx(site: Site, alice: User) -> None:
    cookie = session_cookie(alice)

    async def first_message() -> str:
        async with websockets.connect(
            f"wss://127.0.0.1:{site.port}/ws/lobby/", origin=site.origin, ssl=insecure_tls(),
            additional_headers={"Cookie": f"sessionid={cookie}"}, local_addr=(SECOND, 0),
        ) as sock:
            return await asyncio.wait_for(sock.recv(), timeout=10)

    message = asyncio.run(first_message())
    assert re.search(r'data-count="\d+"', message), message


HEALTHY = {"Database(alias='default')": "OK", "Cache(alias='default')": "OK", "TableClock(state='on')": "OK"}


def test_health_answers_through_nginx_and_at_each_process_own_port_with_the_database_redis_and_its_clock(
        site: Site) -> None:
    """The checks on PostgreSQL and Redis, each process's clock started by Daphne with no page open; at a process's
    own port as deploy/README.md's probe asks (the site's host name, and HTTPS as nginx would have said: the
    production settings redirect anything else)."""
    status, _, body = Browser(site, FIRST).request("GET", "/health/", headers=[("Accept", "application/json")])
    assert (status, json.loads(body)) == (200, HEALTHY)
    for daphne in site.daphnes:
        conn = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=30)
        try:
            conn.request("GET", "/health/", headers={"Host": "club.example.org", "X-Forwarded-Proto": "https"})
            response = conn.getresponse()
            assert (response.status, json.loads(response.read())) == (200, HEALTHY)
        finally:
            conn.close()


def test_nginx_answers_plain_http_with_a_redirect_to_https(site: Site) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=10)
    try:
        conn.request("GET", "/lobby/", headers={"Host": "club.example.org"})
        response = conn.getresponse()
        assert (response.status, response.headers["Location"]) == (301, "https://club.example.org/lobby/")
    finally:
        conn.close()


@pytest.mark.parametrize(("environment", "trusted"), [({}, 0), ({"TRUSTED_PROXY_COUNT": "2"}, 2)])
def test_the_number_of_trusted_proxies_comes_from_the_environment(environment: dict[str, str], trusted: int) -> None:
    """0 (the layout above: allauth counts REMOTE_ADDR); N where N appending proxies stand before Daphne."""
    env = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXY_COUNT"}
    probe = ("import django; django.setup(); from django.conf import settings as s; "
             "from allauth import app_settings as a; print(s.ALLAUTH_TRUSTED_PROXY_COUNT, a.TRUSTED_PROXY_COUNT)")
    result = subprocess.run([sys.executable, "-c", probe], env={**env, **environment, "DJANGO_SETTINGS_MODULE":
                            "config.production", "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "club.example.org"},
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(trusted), str(trusted)]


# --- a whole hand through nginx, the two members' sockets on different processes ----------------------------

PATIENCE = 30.0  # generous: two Daphnes, nginx, PostgreSQL and the tests share two cores with other work


def sockets_accepted(site: Site, address: str, path: str) -> list[int]:
    """How many sockets from `address` to `path` each Daphne has accepted, read from its access log. With
    --proxy-headers Daphne logs the client's own address (from nginx's X-Forwarded-For), not nginx's."""
    line = re.compile(rf'^{re.escape(address)}:\d+ .*"WSCONNECT {re.escape(path)}"', re.M)
    return [len(line.findall(d.access_log.read_text())) if d.access_log and d.access_log.exists() else 0
            for d in site.daphnes]


async def process_that_accepted(site: Site, address: str, path: str, before: list[int]) -> int:
    """The index of the one Daphne whose access log shows one more socket from `address` to `path` than
    `before`. The socket is open (its first board has arrived), so its line is written; polled all the same."""
    deadline = time.monotonic() + PATIENCE
    while True:
        now = sockets_accepted(site, address, path)
        grown = [i for i, (a, b) in enumerate(zip(before, now, strict=True)) if b > a]
        if grown:
            assert len(grown) == 1 and now[grown[0]] == before[grown[0]] + 1, (before, now)
            return grown[0]
        assert time.monotonic() < deadline, f"no Daphne logged the socket from {address} to {path}"
        await asyncio.sleep(0.05)


async def table_socket_through_nginx(site: Site, browser: Browser, path: str, *, not_on: int | None
                                     ) -> tuple[websockets.ClientConnection, int, str]:
    """The member's table socket through nginx, on a process other than `not_on`, with its first board.

    nginx chooses the process (round robin over the upstream's two lines, as in production); the Daphnes' access
    logs tell which one it chose. A socket that lands on `not_on` is closed and opened again: round robin sends
    the next one to the other process, so this takes one or two tries and proves where each socket is."""
    for _ in range(4):
        before = sockets_accepted(site, browser.address, path)
        sock = await websockets.connect(
            f"wss://127.0.0.1:{site.port}{path}", origin=site.origin, ssl=insecure_tls(),
            additional_headers={"Cookie": f"sessionid={browser.cookies['sessionid']}"},
            local_addr=(browser.address, 0), open_timeout=PATIENCE,
        )
        board = await asyncio.wait_for(sock.recv(), PATIENCE)
        on = await process_that_accepted(site, browser.address, path, before)
        if on != not_on:
            return sock, on, board
        await sock.close()
    raise AssertionError(f"every socket from {browser.address} landed on process {not_on}")


async def boards_up_to(sock: websockets.ClientConnection, version: int, latest: str) -> tuple[list[int], str]:
    """Reads the socket until it holds a board of at least `version`; the versions received, and that board."""
    received: list[int] = []
    async with asyncio.timeout(PATIENCE):
        while version_of(latest) < version:
            latest = await sock.recv()
            received.append(version_of(latest))
    return received, latest


def offered_moves(board: str) -> list[str]:
    return [html.unescape(move) for move in re.findall(r'data-move="([^"]+)"', board)]


@pytest.fixture
def two_players(make_member) -> Iterator[tuple[User, User]]:
    players = []
    for name in ("ann", "ben"):
        user = make_member(f"{name}{uuid.uuid4().hex[:8]}")
        user.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())  # the servers' hasher
        user.save(update_fields=["password"])
        players.append(user)
    yield players[0], players[1]


@pytest.mark.asyncio
async def test_two_members_play_a_whole_hand_through_nginx_with_their_sockets_on_different_processes(
    site: Site, two_players: tuple[User, User], fresh_limits: None
) -> None:
    """Hawsker for two: each member logs in through nginx (from their own address), opens the table's socket
    through nginx, and plays by POST through nginx (the POSTs land on either process, as nginx deals them);
    every move's board reaches both sockets, the one on the mover's process and the one on the other."""
    ann, ben = two_players
    table = await sync_to_async(full_table)("hawsker", [ann, ben])
    path = f"/ws/table/{table.code}/"
    browsers = {ann.pk: Browser(site, FIRST), ben.pk: Browser(site, SECOND)}
    for member in (ann, ben):
        status, location, page = await asyncio.to_thread(browsers[member.pk].log_in, member.username, PASSWORD)
        assert (status, location) == (302, "/lobby/"), page[:2000]

    ann_sock, ann_on, ann_board = await table_socket_through_nginx(site, browsers[ann.pk], path, not_on=None)
    ben_sock, ben_on, ben_board = await table_socket_through_nginx(site, browsers[ben.pk], path, not_on=ann_on)
    assert {ann_on, ben_on} == {0, 1}
    sockets = {ann.pk: ann_sock, ben.pk: ben_sock}
    latest = {ann.pk: ann_board, ben.pk: ben_board}
    try:
        # Both members are at the table now (their sockets marked them online): both boards catch up first.
        version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
        for pk, sock in sockets.items():
            _, latest[pk] = await boards_up_to(sock, version, latest[pk])

        made: list[tuple[int, str, int]] = []  # (member, move, version it made)
        for _ in range(200):
            version = max(version_of(board) for board in latest.values())
            mover = next((pk for pk, board in latest.items()
                          if version_of(board) == version and offered_moves(board)), None)
            if mover is None:
                break  # nobody has a move: the round is over
            move = random.Random(len(made)).choice(offered_moves(latest[mover]))
            browser = browsers[mover]
            status, _, reply = await asyncio.to_thread(
                browser.request, "POST", f"/t/{table.code}/move/", form={"version": str(version), "move": move},
                headers=[("X-CSRFToken", browser.cookies["csrftoken"]), ("HX-Request", "true")])
            assert status == 200, reply[:2000]
            made_version = version_of(reply)
            assert made_version > version, reply[:2000]
            made.append((mover, move, made_version))
            for pk, sock in sockets.items():
                received, latest[pk] = await boards_up_to(sock, made_version, latest[pk])
                assert made_version in received, f"member {pk}'s socket got {received}, not {made_version}"
        else:
            raise AssertionError("the round did not end within 200 moves")
    finally:
        await ann_sock.close()
        await ben_sock.close()

    @sync_to_async
    def recorded() -> tuple[bool, list[tuple[int, str, int]]]:
        rnd = Round.objects.filter(match__table=table).order_by("-number").first()
        moves = Move.objects.filter(round=rnd).order_by("seq")
        return rnd.over, [(m.user_id, m.actor, m.table_version) for m in moves]

    over, moves = await recorded()
    assert over, "no member had a move, yet the round is not over"
    assert len(made) > 2
    assert moves == [(pk, Move.Actor.MEMBER, v) for pk, _, v in made], "the database holds other moves than made"
    final = made[-1][2]
    assert [version_of(board) for board in latest.values()] == [final, final]


def test_nginx_accepts_the_site_as_shipped_but_for_its_certificate(tmp_path: Path) -> None:
    """The site runs above with its ports changed; `nginx -t` (which opens no port) checks it with its own ports,
    IPv6 lines and all, inside a main configuration like Debian's. Only the certificate is this test's."""
    cert, key = self_signed_certificate(tmp_path)
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", SITE_CONF.read_text())
    (tmp_path / "cardclub.conf").write_text(re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site))
    (tmp_path / "nginx.conf").write_text(f"""
pid {tmp_path / "nginx.pid"};
error_log {tmp_path / "error.log"};
events {{ worker_connections 768; }}
http {{
    access_log {tmp_path / "access.log"};
    include {tmp_path / "cardclub.conf"};
}}
""")
    result = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                             "-e", str(tmp_path / "error.log")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr
