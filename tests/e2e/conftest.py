"""Real Chromium (Debian's package) driven by Playwright against a live Daphne on a fresh database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.timings import run_timings
from tests.servers import ROOT, Daphne, free_port, manage

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
]
DEMO_PASSWORD = "cardclub-demo"
# What a member waits for (a table forming, a bot's reply pushed over the socket) arrives within a second on a
# quiet machine; CI machines are often loaded, so assertions wait up to 20 s before they call it missing.
expect.set_options(timeout=20_000)


Record = Callable[..., Any]
SERVER_LOG_LINES = 80
REQUEST_LINE = re.compile(r"^\S+ - - \[")  # Daphne's access log: a request or a socket's connect and disconnect


def server_log_tail(server: Daphne) -> str:
    """The site's own lines (warnings, errors, the clock's) of its log, the last SERVER_LOG_LINES, without the
    requests: what the server was doing when a test gave up waiting for it."""
    lines = [line for line in server.log().splitlines() if not REQUEST_LINE.match(line)]
    return "\n".join(lines[-SERVER_LOG_LINES:])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """A failed e2e test's report carries its server's log (the page alone cannot say whether the server stalled,
    or its push was lost: CI once waited 20 s for a bot's card and kept nothing else)."""
    report = yield
    if report.failed and call.when == "call":
        for name in ("server", "own_server"):
            server = getattr(item, "funcargs", {}).get(name)
            if isinstance(server, Daphne):
                report.sections.append((f"the site's log ({name}, without requests)", server_log_tail(server)))
    return report


@pytest.fixture
def timings(request: pytest.FixtureRequest) -> Record:
    """`timings(name, seconds, note=...)` keeps a figure the test measured: in var/e2e-timings.txt and in the run's
    terminal summary, with the load average (a `print` would be captured, and lost when the test passes)."""
    found = run_timings(request.config)

    def record(name: str, seconds: float, *, note: str = "") -> None:
        found.record(name, seconds, test=request.node.nodeid, note=note)

    return record


@pytest.fixture(scope="session")
def e2e_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{db}", "DEBUG": "true", "REDIS_URL": ""}
    manage("migrate", "--noinput", env=env)
    manage("seed", env=env)
    return env


@pytest.fixture(scope="session")
def server(e2e_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daphne]:
    daphne = Daphne(port=free_port(), env=e2e_env, log_path=tmp_path_factory.mktemp("logs") / "daphne.log")
    daphne.start()
    yield daphne
    daphne.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


def is_csp_violation(message: ConsoleMessage) -> bool:
    """Chromium reports what the policy blocked as console errors: "Refused to ... because it violates the
    following Content Security Policy directive ..." or, in newer releases, "Executing inline script violates
    the following Content Security Policy directive ..."."""
    return message.type == "error" and "Content Security Policy" in message.text


# What the browser itself logs as an error about the network, not a script's error: a resource that could not be
# loaded (a refusal's 4xx answer, a server the test stopped) and a WebSocket that could not connect or was refused.
# A 5xx answer is not one of these: the server failed.
BROWSER_NETWORK_LOG = re.compile(
    r"^Failed to load resource: (net::ERR_\w+|the server responded with a status of 4\d\d\b)"
    r"|^WebSocket connection to '[^']*' failed")


def is_htmx_socket_error(message: ConsoleMessage) -> bool:
    """htmx logs a WebSocket's "error" event (a connection that could not be made or broke: the browser says which
    in its own log) as the event itself, "[object Event]", from its own script. The page says it in #live."""
    return message.text == "[object Event]" and "/django_htmx/" in message.location.get("url", "")


def is_script_error(message: ConsoleMessage) -> bool:
    """A console error a script logged: htmx's error events ("htmx:sendError", "htmx:swapError", an exception an
    extension raised), an "Uncaught ..." one, any `console.error`. Not the browser's own network logs, nor htmx's
    word of a socket's error event."""
    return (message.type == "error" and not BROWSER_NETWORK_LOG.search(message.text)
            and not is_htmx_socket_error(message))


@dataclass
class BrowserProblems:
    """CSP violations, uncaught script errors (thrown, or a promise rejected that nobody handled) and errors logged
    by a script, seen by the pages of one test. A test that provokes a logged error on purpose declares it
    (`expect_console`); the browser's network logs (a refused socket, a 4xx answer) are not script errors."""

    seen: list[str] = field(default_factory=list)
    expected: list[re.Pattern[str]] = field(default_factory=list)

    def expect_console(self, pattern: str) -> None:
        """Console errors matching `pattern` (a regular expression, searched) are this test's doing: not problems."""
        self.expected.append(re.compile(pattern))

    def watch_page(self, page: Page) -> None:
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda error: self.seen.append(f"{page.url}: uncaught {error}"))

    def watch_context(self, context: BrowserContext) -> None:
        context.on("page", self.watch_page)

    def _console(self, page: Page, message: ConsoleMessage) -> None:
        if is_csp_violation(message):
            self.seen.append(f"{page.url}: {message.text}")
        elif is_script_error(message) and not any(p.search(message.text) for p in self.expected):
            self.seen.append(f"{page.url}: console error {message.text!r} from {message.location.get('url') or '?'}")


class WatchedBrowser:
    """The session's Chromium, handing out contexts and pages whose problems the test's teardown checks.

    Their pages register no service worker unless a test asks for one (`service_workers="allow"`, as the installable
    app's tests do): Playwright's routing (`page.route`) does not see what a worker answers from its cache, and the
    tests that hold back or refuse a request (htmx's scripts, a move) must see the network as the page does."""

    def __init__(self, browser: Browser, problems: BrowserProblems) -> None:
        self._browser = browser
        self._problems = problems
        self.opened: list[BrowserContext] = []

    def new_context(self, **options: Any) -> BrowserContext:
        options.setdefault("service_workers", "block")
        context = self._browser.new_context(**options)
        self._problems.watch_context(context)
        self.opened.append(context)
        return context

    def new_page(self, **options: Any) -> Page:
        options.setdefault("service_workers", "block")
        page = self._browser.new_page(**options)
        self._problems.watch_page(page)
        self.opened.append(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture
def browser_problems() -> BrowserProblems:
    return BrowserProblems()


@pytest.fixture
def browser(chromium: Browser, browser_problems: BrowserProblems) -> Iterator[WatchedBrowser]:
    """Every page a test opens must run without a Content-Security-Policy violation or an uncaught error."""
    watched = WatchedBrowser(chromium, browser_problems)
    yield watched
    for context in watched.opened:
        with contextlib.suppress(PlaywrightError):
            context.close()
    if browser_problems.seen:
        pytest.fail("the browser reported problems:\n" + "\n".join(browser_problems.seen), pytrace=False)


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    """Where a test may leave screenshots for a person to look at."""
    folder = ROOT / "var" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def log_in(page, server: Daphne, login: str, password: str = DEMO_PASSWORD) -> None:
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")  # main: the header has forms too (language)
    page.wait_for_url(f"{server.url}/lobby/")


# Reads one member's name a line from stdin, makes the member (e-mail confirmed: may log in) and answers "ok name";
# a failure answers "error ..." and the helper goes on.
MEMBER_MAKER = """
import django, sys, traceback
django.setup()
from accounts.models import User
from allauth.account.models import EmailAddress
password = sys.argv[1]
for line in sys.stdin:
    name = line.strip()
    try:
        user = User.objects.create_user(username=name, email=f"{name}@example.org", password=password)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        print("ok", name, flush=True)
    except Exception:
        print("error", traceback.format_exc().replace(chr(10), " | "), flush=True)
"""


class MemberMaker:
    """One Django process per database for the run, making members on request. A `manage.py shell` per member
    paid Django's start-up each time: about a second of CPU, and 5-7 s of wall time on a loaded machine."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", MEMBER_MAKER, DEMO_PASSWORD], cwd=ROOT, text=True,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()

    def make(self, name: str) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        with self.lock:
            self.process.stdin.write(name + "\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
        if answer.strip() != f"ok {name}":
            raise RuntimeError(f"making member {name} failed: {answer or 'the helper exited'}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_MEMBER_MAKERS: dict[str, MemberMaker] = {}


@pytest.fixture(scope="session", autouse=True)
def _close_member_makers() -> Iterator[None]:
    yield
    while _MEMBER_MAKERS:
        _MEMBER_MAKERS.popitem()[1].close()


def new_member(env: dict[str, str], prefix: str = "member") -> str:
    """A member of the test's own: the seeded ones may be playing at a table of another test (a member plays at one
    running table at a time)."""
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    database = env["DATABASE_URL"]
    if database not in _MEMBER_MAKERS or _MEMBER_MAKERS[database].process.poll() is not None:
        _MEMBER_MAKERS[database] = MemberMaker(env)
    _MEMBER_MAKERS[database].make(name)
    return name


def member_page(browser: Browser, server: Daphne, login: str):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    log_in(page, server, login)
    return page


def open_table(page, server: Daphne, game: str, players: int, *, bots: bool, bot_level: str | None = None,
               speed: str = "brisk", **options: str) -> str:
    """Start a table from the lobby form (bots at the form's level unless `bot_level` says); returns its page URL.
    Bots at the brisk speed, not the form's normal one: still paced, one move at a time pushed over the socket (the
    `instant` speed plays them within the member's request, another path), at half the wait of the normal speed;
    the tests of the pace itself (test_table_life.py) choose theirs."""
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", game)  # htmx swaps in this game's form
    # Wait until htmx has swapped in this game's form: the old one's fields belong to another game.
    page.wait_for_selector(f"#new-table[data-game={game}] #id_players option[value='{players}']", state="attached")
    page.select_option("#id_players", str(players))
    for name, value in options.items():
        page.fill(f"[name=opt_{name}]", value)
    page.set_checked("input[name=fill_with_bots]", bots)  # ticked by default (issue 41): untick to wait for members
    if bot_level is not None:
        page.select_option("#id_bot_level", bot_level)
    page.select_option("#id_bot_speed", speed)
    page.click("#new-table button[type=submit]")
    page.wait_for_url(f"{server.url}/t/**")
    page.wait_for_selector("#board")
    return page.url


def board_version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def in_step(one, other, timeout: float = 20.0) -> int:
    """Both pages show the same board version; returns it. Either may be a version behind for a moment (a bot's
    move, or a member's presence changing, pushed to each page on its own socket), so both are read again until
    they agree, rather than one waiting for the version the other showed (which it may already have passed)."""
    deadline = time.monotonic() + timeout
    while True:
        first, second = board_version(one), board_version(other)
        if first == second:
            return first
        if time.monotonic() > deadline:
            raise AssertionError(f"the two pages still disagree after {timeout} s: versions {first} and {second}; "
                                 f"sockets: {socket_said(one)} and {socket_said(other)}")
        one.wait_for_timeout(100)


def socket_said(page) -> str:
    """What a page's live indicator says and how often its socket opened: a page left behind by its socket says
    whether it was reconnecting, stopped or live (and so missing a push)."""
    live = page.locator("#live")
    if not live.count():
        return "no live indicator"
    return (f"{live.inner_text()!r}, opened {live.get_attribute('data-opens') or 0} times, "
            f"last closed with {live.get_attribute('data-last-close') or 'nothing'}")


def click_move(page, which: int = 0) -> str:
    """Click one of the board's move buttons and wait for the new board (it comes over the socket while the page's
    socket is open, as the POST's answer while it is not); returns the move."""
    button = page.locator("#board [data-move]").nth(which)
    expect(button).to_be_visible()
    move = button.get_attribute("data-move")
    before = board_version(page)
    button.click()
    expect_new_board(page, before, move)
    return move


def expect_new_board(page, before: int, what: str) -> None:
    """The board has moved on from version `before`, and no refusal of `what` came instead."""
    try:
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    except AssertionError:
        refusal = page.locator("#table-error").text_content()
        raise AssertionError(f"no new board after {what!r}; the error box says {refusal!r}") from None
    assert not page.locator("#table-error").text_content(), page.locator("#table-error").text_content()


class TableSockets:
    """The page's table sockets, routed through Playwright to the real server (opened by the page itself, with its
    cookies and origin), so that a test can see what the page sends over them, close one as the server would, or
    take them down for a while as a lost connection does. Set up before the page opens its table."""

    def __init__(self, page) -> None:
        self.sent: list[str] = []  # what the page sent over its table sockets
        self.routes: list[Any] = []
        self.away = False  # `go_down` until `come_back`: the page's sockets cannot reach the server
        page.route_web_socket(re.compile(r"/ws/table/"), self._route)

    def _route(self, ws) -> None:
        if self.away:  # as a connection that cannot be made: closed at once, and the page tries again later
            ws.close(code=1006, reason="the server cannot be reached")
            return
        server = ws.connect_to_server()

        def forward(message: str | bytes) -> None:
            self.sent.append(message if isinstance(message, str) else message.decode())
            server.send(message)

        ws.on_message(forward)  # from the page; the server's messages still go to the page by themselves
        self.routes.append(ws)

    def close_for_good(self, code: int = 4404) -> None:
        """Close the page's latest table socket with a code it does not come back after (4404: not found)."""
        self.routes[-1].close(code=code, reason="closed by the test")

    def go_down(self) -> None:
        """The connection is lost: the page's socket closes as a dropped one does (1006: htmx tries again, after a
        growing random wait), and so does every socket it opens until `come_back`. Its POSTs still go through."""
        self.away = True
        self.routes[-1].close(code=1006, reason="the connection was lost")

    def come_back(self) -> None:
        """The page's next try reaches the server again."""
        self.away = False


def _own_redis_url() -> str:
    """Tests that must reach the server's channel layer run a Daphne of their own on a Redis database of their
    xdist worker's (7 for the first, 8 for the second...). Why not one for all: the servers of two workers each
    have a database of their own, so their tables and members share ids, and on one channel layer each would
    hear the other's "table-21" and "account-5" events."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return f"redis://127.0.0.1:6379/{7 + int(worker.removeprefix('gw'))}"


E2E_REDIS_URL = _own_redis_url()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Daphne]:
    """A Daphne of this test's own (on Redis, so the test can reach its channel layer), restartable."""
    db = tmp_path / "db.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{db}", "DEBUG": "true", "REDIS_URL": E2E_REDIS_URL,
           "TABLE_SOCKET_MAX_AGE": "6"}
    manage("migrate", "--noinput", env=env)
    manage("seed", env=env)
    server = Daphne(port=free_port(), env=env, log_path=tmp_path / "daphne.log")
    server.start()
    server.db = db
    yield server
    server.stop()


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send one message to a group of `own_server`'s channel layer, as the site itself would."""

    async def send() -> None:
        layer = RedisChannelLayer(hosts=[E2E_REDIS_URL])
        await layer.group_send(group, message)
        await layer.close_pools()

    # Playwright's sync API keeps an event loop in this thread; the layer gets a thread of its own.
    worker = threading.Thread(target=asyncio.run, args=(send(),))
    worker.start()
    worker.join(timeout=10)
