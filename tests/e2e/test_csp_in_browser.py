"""The Content-Security-Policy in real Chromium: the main pages, a live table with its socket and a move,
and the admin all run with nothing blocked (the `browser` fixture fails a test on any violation)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, log_in, open_table

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1200, "height": 900}


def visit(page, url: str, missing: list[str]) -> None:
    """Open a page and note it when it came without the policy."""
    response = page.goto(url)
    assert response is not None and response.ok, f"{url}: {response and response.status}"
    policy = response.headers.get("content-security-policy", "")
    if "script-src 'self'" not in policy or "style-src 'self'" not in policy:
        missing.append(f"{url}: Content-Security-Policy {policy!r}")
    page.wait_for_load_state("networkidle")


def test_the_watch_catches_what_the_policy_blocks(browser, browser_problems, server) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{server.url}/")
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.inlineRan = true";
        document.body.append(script);
        document.body.insertAdjacentHTML("beforeend", '<p style="color: red">inline style</p>');
    }""")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.inlineRan === undefined")
    seen = "\n".join(browser_problems.seen)
    # Chromium's wording changes between releases ("Refused to execute inline script because it violates ...",
    # "Executing inline script violates ..."): both name what was blocked and the policy.
    assert re.search(r"inline script.*violates", seen, re.IGNORECASE), seen
    assert re.search(r"inline style.*violates", seen, re.IGNORECASE), seen
    browser_problems.seen.clear()  # seen on purpose: the teardown checks the rest of the test


def test_the_main_pages_a_live_table_and_the_admin_run_with_nothing_blocked(browser, server) -> None:
    missing: list[str] = []
    visitor = browser.new_context(viewport=DESKTOP).new_page()
    for path in ("/", "/rules/", "/rules/sheepshead/", "/accounts/signup/", "/accounts/login/"):
        visit(visitor, f"{server.url}{path}", missing)

    page = browser.new_context(viewport=DESKTOP).new_page()
    log_in(page, server, "treasurer")
    for path in ("/lobby/", "/history/", "/standings/", "/accounts/profile/"):
        visit(page, f"{server.url}{path}", missing)

    # A live table: the socket connects, a move is made, bots answer over the socket.
    url = open_table(page, server, "hawk", 4, bots=True)
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#board .hand .card").first).to_be_visible()
    click_move(page)
    page.wait_for_timeout(1500)
    page.screenshot(path="/tmp/csp_table.png", full_page=True)
    visit(page, url, missing)
    expect(page.locator("#live")).to_have_text("live")

    # The admin, as staff use it.
    for path in ("/admin/", "/admin/tables/ledgerentry/", "/admin/accounts/user/",
                 "/admin/tables/inpersonrecord/record/sheepshead/", "/admin/tables/ledgerentry/balances/",
                 "/admin/tables/round/"):
        visit(page, f"{server.url}{path}", missing)
    replay = page.locator("a", has_text=re.compile("^replay$")).first
    href = replay.get_attribute("href")
    visit(page, f"{server.url}{href}", missing)
    round_id = re.search(r"/round/(\d+)/", href).group(1)
    visit(page, f"{server.url}/admin/tables/round/{round_id}/change/", missing)
    visit(page, f"{server.url}/fair/{round_id}/", missing)
    user_link = f"{server.url}/admin/accounts/user/"
    page.goto(user_link)
    visit(page, f"{server.url}{page.locator('#result_list tbody th a').first.get_attribute('href')}", missing)
    assert not missing, "\n".join(missing)
