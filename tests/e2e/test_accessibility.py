"""axe-core (axe-playwright-python) on every page a member sees, at desktop size and on a phone (issue 18).

Each page is one test (named by page and size), so a failure says where; each test prints the page's count of
violations by impact and the rules behind them, and the module writes them all to var/accessibility/axe.json
for before/after comparisons (a full-page screenshot of each lands in var/screenshots/a11y-*.png). The bar: no
serious or critical violation anywhere; moderate and minor ones, and what axe leaves to a person ("incomplete"),
are printed, not failed. axe does not check reflow, so the test does: at 390 px no page scrolls sideways.

Besides each page as first opened, the states a member meets there: a refused log-in and sign-up (the form's
errors), a saved profile (the site's messages), a replay at the deal, mid-round and at the end, the lobby's chat
tab with a line in it, a table with its chat open and a line in it, and a private table's invitations panel as
its creator sees it, a member invited and waiting. Club life's pages too: a member's profile (their own, with its
rating charts, and another's), the ratings and the standings of every game. And the tournament organiser's pages,
as a staff member sees them: the new tournament's form (and its errors), a tournament's page with its controls, a
round's print page and the winner of a match played at the club.

The table pages are scanned twice per game: while it is the member's turn (a new member of the test's own opens
a table from the lobby's form, the other seats bots) and after the round (the member plays the round out by
clicking the first move offered each time). History, a replay and standings are seen by a seeded member who
played the seeded finished matches.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import DEMO_PASSWORD, click_move, log_in, new_member
from tests.e2e.tournaments import round_at_the_club, running_swiss
from tests.servers import ROOT, Daphne

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
IMPACTS = ("critical", "serious", "moderate", "minor")
FAILING = {"critical", "serious"}
GAMES = ("sheepshead", "hawk", "hawsker", "puskiyon")
# Short rounds, so playing one out stays quick (house rules in the lobby's form, by field name).
SHORT_ROUNDS: dict[str, dict[str, str]] = {
    "sheepshead": {"opt_rounds": "1"}, "hawk": {"opt_rounds": "1"}, "hawsker": {"opt_short": "check"},
    "puskiyon": {},
}
MOST_CLICKS = 300
SHOTS = ROOT / "var" / "screenshots"
SEEDED_MEMBER = "alice"  # played the seeded finished matches: her history has rows and replays
SEEDED_STAFF = "treasurer"  # staff: runs the club's tournaments
# Set before any page script runs: the page's socket (lobby or table) is open, so what is sent over it is answered.
SOCKET_OPEN = "document.addEventListener('htmx:wsOpen', function () { window.clubSocketOpen = true; });"


@dataclass(frozen=True)
class Scan:
    """What axe found on one page: each violation's rule, impact and the elements it names."""

    url: str
    violations: list[dict[str, Any]]
    incomplete: list[dict[str, Any]] = field(default_factory=list)  # what axe could not decide: a person checks
    wider_by: int = 0  # how far the page runs past the window's width (it scrolls sideways: WCAG 1.4.10, reflow)

    def by_impact(self) -> dict[str, int]:
        counts = Counter(violation["impact"] or "minor" for violation in self.violations)
        return {impact: counts.get(impact, 0) for impact in IMPACTS}

    def failing(self) -> list[dict[str, Any]]:
        return [violation for violation in self.violations if violation["impact"] in FAILING]

    def summary(self) -> str:
        counts = " ".join(f"{impact}={count}" for impact, count in self.by_impact().items())
        rules = ", ".join(f"{v['id']}({v['impact']})x{len(v['nodes'])}" for v in self.violations)
        unsure = ", ".join(f"{v['id']}x{len(v['nodes'])}" for v in self.incomplete)
        wide = f" | {self.wider_by} px wider than the window" if self.wider_by > 0 else ""
        return f"{counts} | {rules or 'none'}" + (f" | to check by eye: {unsure}" if unsure else "") + wide

    def details(self) -> str:
        lines = []
        for violation in self.failing():
            lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
            for node in violation["nodes"][:8]:
                lines.append(f"    {' '.join(map(str, node['target']))}: {node.get('failureSummary', '')[:300]}")
        return "\n".join(lines)


@dataclass
class Scanner:
    """Browser contexts per size (a member's and a stranger's), the tables played so far, and every scan."""

    chromium: Browser
    server: Daphne
    env: dict[str, str]
    axe: Axe = field(default_factory=Axe)
    members: dict[str, BrowserContext] = field(default_factory=dict)
    strangers: dict[str, BrowserContext] = field(default_factory=dict)
    staff_members: dict[str, BrowserContext] = field(default_factory=dict)
    tables: dict[str, dict[str, Scan]] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)

    def context(self, size: str, *, login: str | None) -> BrowserContext:
        context = self.chromium.new_context(viewport=VIEWPORTS[size])
        context.add_init_script(SOCKET_OPEN)
        if login is not None:
            page = context.new_page()
            log_in(page, self.server, login)
            page.close()
        return context

    def member(self, size: str) -> BrowserContext:
        if size not in self.members:
            self.members[size] = self.context(size, login=SEEDED_MEMBER)
        return self.members[size]

    def stranger(self, size: str) -> BrowserContext:
        if size not in self.strangers:
            self.strangers[size] = self.context(size, login=None)
        return self.strangers[size]

    def staff(self, size: str) -> BrowserContext:
        if size not in self.staff_members:
            self.staff_members[size] = self.context(size, login=SEEDED_STAFF)
        return self.staff_members[size]

    def who(self, who: str, size: str) -> BrowserContext:
        return {"member": self.member, "stranger": self.stranger, "staff": self.staff}[who](size)

    def scan(self, page: Page, name: str) -> Scan:
        """axe on the page as it stands; a full-page screenshot beside it, for a person to judge the look."""
        page.wait_for_load_state("networkidle")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"a11y-{name}.png"), full_page=True)
        response = self.axe.run(page).response
        wider_by = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        return Scan(url=page.url, violations=response["violations"], incomplete=response.get("incomplete", []),
                    wider_by=wider_by)

    def scan_url(self, name: str, context: BrowserContext, path: str, then: Action | None = None) -> Scan:
        """The page at `path` (after `then`, which brings it to a state worth seeing, e.g. a form's errors)."""
        page = context.new_page()
        try:
            response = page.goto(f"{self.server.url}{path}")
            assert response is not None and response.ok, f"{path}: {response and response.status}"
            if then is not None:
                then(page)
            return self.scan(page, name)
        finally:
            page.close()

    def table(self, game: str) -> dict[str, Scan]:
        """A table of `game` scanned at both sizes while it is the member's turn, then after the round."""
        if game not in self.tables:
            self.tables[game] = self._play_and_scan(game)
        return self.tables[game]

    def _play_and_scan(self, game: str) -> dict[str, Scan]:
        login = new_member(self.env)
        pages = {size: self.context(size, login=login).new_page() for size in VIEWPORTS}
        url = open_table_with_bots(pages["desktop"], self.server, game)
        pages["phone"].goto(url)
        scans: dict[str, Scan] = {}
        for size, page in pages.items():
            expect(page.locator("#live")).to_have_text("live")
            expect(page.locator("#board [data-move]").first).to_be_visible()
            scans[f"turn-{size}"] = self.scan(page, f"table-{game}-turn-{size}")
        play_round_out(pages["desktop"])
        for size, page in pages.items():
            page.reload()
            expect(page.locator("#board .result")).to_be_visible()
            scans[f"after-{size}"] = self.scan(page, f"table-{game}-after-{size}")
        for page in pages.values():
            page.context.close()
        return scans

    def table_with_chat(self, size: str) -> Scan:
        """A member's Hawsker table (bots, a long turn) with its chat open and a line said in it: on a phone the
        chat is a fold below the board, closed until opened. (Opened from the lobby's form on a desktop: on a phone
        the form is behind a tab.)"""
        login = new_member(self.env)
        url = self._made_on_a_desktop(login, lambda page: open_table_with_bots(page, self.server, "hawsker",
                                                                                speed="normal"))
        page = self.context(size, login=login).new_page()
        try:
            page.goto(url)
            expect(page.locator("#live")).to_have_text("live")
            fold = page.locator("details.chat-fold")
            if fold.get_attribute("open") is None:
                fold.locator("summary").click()
            expect(fold).to_have_attribute("open", "")
            say_in_chat(page, "chat-form-table", "Good luck, bots")
            return self.scan(page, f"table-chat-{size}")
        finally:
            page.context.close()

    def invitations_panel(self, size: str) -> Scan:
        """The creator of a private Hawk table, with its invitations panel: one member invited and waiting."""
        login = new_member(self.env)
        url = self._made_on_a_desktop(login, partial(open_private_table_and_invite, self.server, SEEDED_MEMBER))
        page = self.context(size, login=login).new_page()
        try:
            page.goto(url)
            panel = page.locator("#invitations-panel")
            expect(panel.locator("[data-status=pending]")).to_have_count(1)
            expect(panel.locator("#invite-form")).to_be_visible()
            panel.scroll_into_view_if_needed()
            return self.scan(page, f"invitations-panel-{size}")
        finally:
            page.context.close()

    def _made_on_a_desktop(self, login: str, make: Callable[[Page], str]) -> str:
        """What `make` opens from the lobby (its form is behind a tab on a phone), as `login` on a desktop."""
        context = self.context("desktop", login=login)
        try:
            return make(context.new_page())
        finally:
            context.close()

    def close(self) -> None:
        for context in [*self.members.values(), *self.strangers.values(), *self.staff_members.values()]:
            context.close()


def open_table_with_bots(page: Page, server: Daphne, game: str, *, speed: str = "instant") -> str:
    """The lobby's new-table form with its defaults, short rounds, bots at once and playing instantly."""
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", game)
    form = page.locator(f"#new-table[data-game={game}]")
    expect(form).to_be_attached()
    form.locator("[name=bot_speed]").select_option(speed)
    for name, value in SHORT_ROUNDS[game].items():
        if value == "check":
            form.locator(f"[name={name}]").check()
        else:
            form.locator(f"[name={name}]").fill(value)
    form.locator("[name=fill_with_bots]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{server.url}/t/**")
    expect(page.locator("#board")).to_be_visible()
    return page.url


def open_private_table_and_invite(server: Daphne, invited: str, page: Page) -> str:
    """A private Hawk table for four from the lobby's form, and `invited` invited from its panel; returns its URL."""
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", "hawk")
    expect(page.locator("#new-table[data-game=hawk]")).to_be_attached()
    page.check("input[name=private]")
    page.uncheck("input[name=fill_with_bots]")  # the invited member takes a seat
    page.click("#new-table button[type=submit]")
    page.wait_for_url(f"{server.url}/t/**")
    panel = page.locator("#invitations-panel")
    expect(panel.locator("#invite-form")).to_be_visible()
    panel.locator("input[name=member]").fill(invited)
    with page.expect_response(lambda response: "/invitations/new/" in response.url):
        panel.locator("button[type=submit]").click()
    expect(panel.locator("[data-status=pending]")).to_have_count(1)
    return page.url


def play_round_out(page: Page) -> None:
    for _ in range(MOST_CLICKS):
        expect(page.locator("#board [data-move], #board .result").first).to_be_visible()
        if page.locator("#board .result").count():
            return
        click_move(page)
    raise AssertionError(f"the round did not end within {MOST_CLICKS} clicks")


@pytest.fixture(scope="module")
def scanner(chromium: Browser, server: Daphne, e2e_env: dict[str, str]) -> Iterator[Scanner]:
    scanner = Scanner(chromium=chromium, server=server, env=e2e_env)
    yield scanner
    scanner.close()
    folder = ROOT / "var" / "accessibility"
    folder.mkdir(parents=True, exist_ok=True)
    write_results(folder / "axe.json", scanner.results)
    print("\naxe-core: violations per page (critical serious moderate minor | rules)")
    for name, result in sorted(scanner.results.items()):
        print(f"  {name:<32} {result['summary']}")


def write_results(path: Path, results: dict[str, Any]) -> None:
    """This process's scans into `path`. When the tier is spread over xdist workers, each scans some pages and they
    share one file: a worker adds its pages to what the others of the same run wrote (under a lock), and a file
    left by an earlier run is replaced, not added to."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        merged: dict[str, Any] = {}
        if run and path.exists():
            try:
                earlier = json.loads(path.read_text())
            except ValueError:
                earlier = {}
            if earlier.get("run") == run:
                merged = earlier.get("pages", {})
        merged.update(results)
        path.write_text(json.dumps({"run": run, "pages": merged}, indent=1, sort_keys=True))


def replay_path(scanner: Scanner, size: str, *, where: str) -> str:
    """A replay of the member's newest finished round: at the deal, mid-round (a trick on the felt) or the end."""
    page = scanner.member(size).new_page()
    try:
        page.goto(f"{scanner.server.url}/history/")
        replay = page.locator("a[href*='/replay/']").first.get_attribute("href")
        if where == "deal":
            return replay
        page.goto(f"{scanner.server.url}{replay}")
        total = int(page.locator("#replay-panel a", has_text="End").get_attribute("href").rsplit("=", 1)[1])
        return f"{replay}?step={total if where == 'end' else total // 2 + 1}"
    finally:
        page.close()


def first_fair_deal(scanner: Scanner, size: str) -> str:
    page = scanner.member(size).new_page()
    try:
        page.goto(f"{scanner.server.url}/history/")
        return page.locator("a[href^='/fair/']").first.get_attribute("href")
    finally:
        page.close()


def say_in_chat(page: Page, form: str, text: str) -> None:
    """A line in a chat (the lobby's or the table's form), shown back in its log: the log is scanned with a line."""
    chat = page.locator(f"#{form}")
    chat.locator("input[name=text]").fill(text)
    chat.locator("button[type=submit]").click()
    expect(chat.locator("input[name=text]")).to_have_value("")  # the server took it
    expect(page.locator(".chat-lines .chat-line", has_text=text).first).to_be_visible()


def lobby_chat(page: Page) -> None:
    """The lobby's chat: on a phone its tab chosen (the panels are tabs there), then a line said in it."""
    page.wait_for_function("() => window.clubSocketOpen === true")
    tab = page.locator("#tab-chat")
    if tab.is_visible():
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-chat")).to_be_visible()
    say_in_chat(page, "chat-form-lobby", f"Hello from the {page.viewport_size['width']} px lobby")


def wrong_password(page: Page) -> None:
    page.fill("input[name=login]", "nobody-here")
    page.fill("input[name=password]", "not-the-password")
    submit(page)


def taken_username(page: Page) -> None:
    page.fill("input[name=username]", SEEDED_MEMBER)
    page.fill("input[name=email]", "not-an-email")
    page.fill("input[name=password1]", "short")
    page.fill("input[name=password2]", "other")
    submit(page)


def submit(page: Page) -> None:
    """Send the main form as it is (the server's checks, not the browser's, make the errors shown)."""
    form = page.locator("main form").last
    form.evaluate("form => { form.noValidate = true; }")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


_tournaments: dict[str, int] = {}


def running_tournament(scanner: Scanner, size: str) -> str:
    """A Swiss tournament playing its first round, one result in (made once per database, by the services)."""
    database = scanner.env["DATABASE_URL"]
    if database not in _tournaments:
        _tournaments[database] = running_swiss(scanner.env)
    return f"/tournaments/{_tournaments[database]}/"


_club_rounds: dict[tuple[str, bool], dict] = {}


def club_round(scanner: Scanner, *, started: bool) -> dict:
    """The organiser's tournaments (made once per database, by the services, run by the seeded staff member): a
    Hawsker Swiss round playing, its table 1 at the club (its winner to be chosen by staff); a Sheepshead session
    drawn and not started, its table 1 at the club (where each table plays is still to be chosen)."""
    key = (scanner.env["DATABASE_URL"], started)
    if key not in _club_rounds:
        if started:
            _club_rounds[key] = round_at_the_club(scanner.env, password=DEMO_PASSWORD, name="Hawsker open",
                                                  game="hawsker", format="swiss", count=4, club=[1], start=True)
        else:
            _club_rounds[key] = round_at_the_club(scanner.env, password=DEMO_PASSWORD, name="Winter cup",
                                                  game="sheepshead", format="sessions", count=10, club=[1],
                                                  start=False, hands=2)
    return _club_rounds[key]


def organiser_page(scanner: Scanner, size: str, *, started: bool = True) -> str:
    return f"/tournaments/{club_round(scanner, started=started)['tournament']}/"


def round_print_page(scanner: Scanner, size: str, *, started: bool) -> str:
    return f"/tournaments/{club_round(scanner, started=started)['tournament']}/rounds/1/print/"


def club_winner_page(scanner: Scanner, size: str) -> str:
    return f"/tournaments/tables/{club_round(scanner, started=True)['tables'][1]}/winner/"


def refused_tournament(page: Page) -> None:
    """The new tournament's form sent with no name and prize shares over 100 percent: the form's errors shown."""
    page.fill("#id_prize_shares", "70, 40")
    submit(page)
    expect(page.locator("#new-tournament .errorlist").first).to_be_visible()


# Pages off the table: (name, who looks, the path or a function finding it, what to do there before the scan).
Action = Callable[[Page], None]
Where = str | Callable[[Scanner, str], str]
PAGES: list[tuple[str, str, Where, Action | None]] = [
    ("home", "stranger", "/", None),
    ("lobby", "member", "/lobby/", None),
    ("history", "member", "/history/", None),
    ("replay-deal", "member", partial(replay_path, where="deal"), None),
    ("replay-mid-round", "member", partial(replay_path, where="mid"), None),
    ("replay-end", "member", partial(replay_path, where="end"), None),
    ("fair-deal", "member", first_fair_deal, None),
    ("standings", "member", "/standings/", None),
    *[(f"standings-{game}", "member", f"/standings/?game={game}", None) for game in GAMES],
    *[(f"ratings-{game}", "member", f"/ratings/?game={game}", None) for game in GAMES],
    ("member-profile-own", "member", f"/members/{SEEDED_MEMBER}/", None),
    ("member-profile-other", "member", "/members/bob/", None),
    ("lobby-chat", "member", "/lobby/", lobby_chat),
    ("rules", "stranger", "/rules/", None),
    *[(f"rules-{game}", "stranger", f"/rules/{game}/", None) for game in GAMES],
    ("login", "stranger", "/accounts/login/", None),
    ("login-refused", "stranger", "/accounts/login/", wrong_password),
    ("signup", "stranger", "/accounts/signup/", None),
    ("signup-refused", "stranger", "/accounts/signup/", taken_username),
    ("password-reset", "stranger", "/accounts/password/reset/", None),
    ("profile", "member", "/accounts/profile/", None),
    ("profile-saved", "member", "/accounts/profile/", submit),
    ("password-change", "member", "/accounts/password/change/", None),
    ("offline", "member", "/offline/", None),  # what the service worker shows when the network is gone (issue 44)
    ("email-notices", "member", "/accounts/emails/", None),  # emails and this device's notifications (issue 44)
    ("my-tables", "member", "/tables/mine/", None),  # a member's tables, their turns first (issue 44)
    ("tournaments", "member", "/tournaments/", None),  # the list and a tournament's page (issue 45)
    ("tournament", "member", running_tournament, None),
    # The organiser's pages (staff): the new tournament's form with its errors, a tournament's page with the controls,
    # the round's print page (drawn, where each table plays still to choose; playing, with a club table's sheet) and
    # the winner of a match played at the club (chosen, and sent with none chosen).
    ("tournament-new", "staff", "/tournaments/new/", None),
    ("tournament-new-refused", "staff", "/tournaments/new/", refused_tournament),
    ("tournament-organiser", "staff", organiser_page, None),
    ("tournament-organiser-drawn", "staff", partial(organiser_page, started=False), None),
    ("tournament-round-print-drawn", "staff", partial(round_print_page, started=False), None),
    ("tournament-round-print-playing", "staff", partial(round_print_page, started=True), None),
    ("tournament-club-winner", "staff", club_winner_page, None),
    ("tournament-club-winner-refused", "staff", club_winner_page, submit),
]


def check(scanner: Scanner, name: str, scan: Scan) -> None:
    scanner.results[name] = {"url": scan.url, "by_impact": scan.by_impact(), "summary": scan.summary(),
                             "wider_by": scan.wider_by,
                             "incomplete": [{"id": v["id"], "targets": [n["target"] for n in v["nodes"]]}
                                            for v in scan.incomplete],
                             "violations": [{"id": v["id"], "impact": v["impact"],
                                             "targets": [n["target"] for n in v["nodes"]]} for v in scan.violations]}
    print(f"axe {name}: {scan.summary()}")
    assert not scan.failing(), f"{name} ({scan.url}) has serious or critical violations:\n{scan.details()}"
    # axe does not check reflow: at 390 px nothing may make the whole page scroll sideways (a wide table scrolls
    # inside its own box).
    assert scan.wider_by <= 0, f"{name} ({scan.url}) is {scan.wider_by} px wider than the phone's screen"


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize(("name", "who", "where", "then"), PAGES, ids=[page[0] for page in PAGES])
def test_no_serious_or_critical_violations_on_the_page(scanner: Scanner, name: str, who: str, where: Where,
                                                       then: Action | None, size: str) -> None:
    context = scanner.who(who, size)
    path = where if isinstance(where, str) else where(scanner, size)
    check(scanner, f"{name}-{size}", scanner.scan_url(f"{name}-{size}", context, path, then))


@pytest.mark.parametrize("moment", ["turn", "after"])
@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", GAMES)
def test_no_serious_or_critical_violations_at_the_table(scanner: Scanner, game: str, size: str,
                                                        moment: str) -> None:
    check(scanner, f"table-{game}-{moment}-{size}", scanner.table(game)[f"{moment}-{size}"])


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_no_serious_or_critical_violations_at_a_table_with_its_chat_open(scanner: Scanner, size: str) -> None:
    check(scanner, f"table-chat-{size}", scanner.table_with_chat(size))


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_no_serious_or_critical_violations_in_the_creator_s_invitations_panel(scanner: Scanner, size: str) -> None:
    check(scanner, f"invitations-panel-{size}", scanner.invitations_panel(size))
