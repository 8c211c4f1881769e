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
