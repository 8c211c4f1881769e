"""Real Chromium (Debian's package) driven by Playwright against a live Daphne on a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.servers import ROOT, Daphne, free_port, manage

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
]
DEMO_PASSWORD = "cardclub-demo"


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
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


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
    page.click("form button[type=submit]")
    page.wait_for_url(f"{server.url}/lobby/")


def member_page(browser: Browser, server: Daphne, login: str):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    log_in(page, server, login)
    return page


def open_table(page, server: Daphne, game: str, players: int, *, bots: bool, **options: str) -> str:
    """Start a table from the lobby form; returns its page URL."""
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", game)  # htmx swaps in this game's form
    page.wait_for_load_state("networkidle")
    page.wait_for_selector(f"#id_players option[value='{players}']", state="attached")
    page.select_option("#id_players", str(players))
    for name, value in options.items():
        page.fill(f"[name=opt_{name}]", value)
    if bots:
        page.check("input[name=fill_with_bots]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(f"{server.url}/t/**")
    page.wait_for_selector("#board")
    return page.url


def board_version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def click_move(page, which: int = 0) -> str:
    """Click one of the board's move buttons and wait for the server's answer; returns the move."""
    from playwright.sync_api import expect

    button = page.locator("#board [data-move]").nth(which)
    expect(button).to_be_visible()
    move = button.get_attribute("data-move")
    before = board_version(page)
    with page.expect_response(lambda response: "/move/" in response.url) as answer:
        button.click()
    assert answer.value.status == 200, answer.value.text()
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    return move
