"""Standings and a member's matches in real Chromium, on a desktop and on a phone (390 x 844), on the seeded
club: every game has recorded matches, the match games rank by win rate, the page never scrolls sideways as a
whole (wide tables scroll in their own box). Screenshots go to var/screenshots/ for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import log_in

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def page_for(browser, server, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    log_in(page, server, "alice")
    return page


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize(("label", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_standings_and_my_matches_read_well(browser, server, shots, label, viewport) -> None:
    page = page_for(browser, server, viewport)
    page.goto(f"{server.url}/standings/?game=puskiyon")
    expect(page.locator("h1")).to_have_text("Standings: Puskiyon")
    expect(page.locator("table.standings thead")).to_contain_text("Win rate")
    expect(page.locator(".standings-measure")).to_contain_text("fewer points are better")
    # The house, one line per bot level: the demo's bots play easy.
    expect(page.locator("table.standings tbody.house tr[data-bot-level=easy]")).to_contain_text("Easy bot")
    assert page.locator("table.standings tbody:not(.house):not(.unranked) th[scope=row]").count() >= 2
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"standings-puskiyon-{label}.png"), full_page=True)

    page.select_option("#id_period", "month")
    page.fill("#id_minimum", "2")
    page.click("form.period button[type=submit]")
    expect(page).to_have_url(f"{server.url}/standings/?game=puskiyon&period=month&start=&end=&minimum=2")
    expect(page.locator(".period-said")).to_contain_text("This month")
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"standings-puskiyon-month-min2-{label}.png"), full_page=True)

    page.goto(f"{server.url}/standings/?game=sheepshead")
    expect(page.locator("table.standings thead")).to_contain_text("Balance")
    expect(page.locator("main, body").first).to_contain_text("sums to zero")
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"standings-sheepshead-{label}.png"), full_page=True)

    page.goto(f"{server.url}/history/")
    matches = page.locator("table.matches tbody tr")
    expect(matches.first).to_be_visible()
    assert matches.count() >= 3  # alice played demo matches of three games
    expect(matches.first.locator(".replay-links a").first).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"history-matches-{label}.png"), full_page=True)
    page.context.close()
