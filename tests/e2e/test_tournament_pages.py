"""A tournament in real Chromium: the organiser sets it up through the form and opens entries, members enter, the
organiser draws and starts the round; members watching the page (a laptop and a phone) see the standings change
the moment a result is recorded (through the service, as a play table's end records it), with no reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_REDIS_URL, log_in, member_page, new_member
from tests.e2e.tournaments import first_player_wins, first_table

pytestmark = pytest.mark.e2e

SOCKET_OPEN = "document.addEventListener('htmx:wsOpen', function () { window.clubSocketOpen = true; });"


def press(page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def watcher(browser, server, login: str, url: str, viewport: dict[str, int]):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(SOCKET_OPEN)
    page = context.new_page()
    log_in(page, server, login)
    page.goto(url)
    page.wait_for_function("() => window.clubSocketOpen === true")
    return page


def test_organiser_runs_a_tournament_and_watchers_see_the_standings_live(browser, own_server, shots) -> None:
    env = {"DATABASE_URL": f"sqlite:///{own_server.db}", "DEBUG": "true", "REDIS_URL": E2E_REDIS_URL}
    organiser = member_page(browser, own_server, "treasurer")
    organiser.goto(f"{own_server.url}/tournaments/new/")
    with organiser.expect_response(lambda response: "/tournaments/new/" in response.url):
        organiser.select_option("#id_game", "hawsker")  # htmx swaps in this game's form (its house rules)
    organiser.wait_for_selector("#new-tournament[data-game=hawsker]")
    # Nonsense first: shares over 100 percent are refused, and the form says why.
    organiser.fill("#id_name", "Winter cup")
    organiser.select_option("#id_format", "swiss")
    organiser.fill("#id_rounds", "2")
    organiser.fill("#id_entry_fee", "5")
    organiser.fill("#id_prize_shares", "70, 40")
    press(organiser, "Set up the tournament")
    expect(organiser.locator("#new-tournament")).to_contain_text("more than 100 percent")
    organiser.fill("#id_prize_shares", "60, 40")
    press(organiser, "Set up the tournament")
    expect(organiser).to_have_url(re.compile(r".*/tournaments/\d+/$"))
    url = organiser.url
    tournament_id = int(url.rstrip("/").rsplit("/", 1)[1])
    organiser.screenshot(path=str(shots / "tournament-organiser-1366.png"), full_page=True)
    press(organiser, "Open entries")
    expect(organiser.locator("dd[data-status]")).to_have_attribute("data-status", "entries_open")

    players = [new_member(env, "entrant") for _ in range(3)]
    for login in players:
        page = member_page(browser, own_server, login)
        page.goto(url)
        press(page, "Enter")
        expect(page.locator(".messages")).to_contain_text("You are entered.")
        page.context.close()

    organiser.reload()
    expect(organiser.locator("#entrants-title")).to_contain_text("3 entrants")
    press(organiser, "Close entries")
    press(organiser, "Draw the next round")
    press(organiser, "Start the round")
    expect(organiser.locator(".tournament-round[data-round='1']")).to_have_attribute("data-round-status", "playing")

    laptop = watcher(browser, own_server, players[0], url, {"width": 1366, "height": 768})
    phone = watcher(browser, own_server, players[1], url, {"width": 390, "height": 844})
    for page in (laptop, phone):
        expect(page.locator("#tournament-live tr[data-score='1']")).to_have_count(1)  # the bye's point
    winner = first_player_wins(env, first_table(env, tournament_id))
    for page in (laptop, phone):
        expect(page.locator("#tournament-live tr[data-score='1']")).to_have_count(2)
        expect(page.locator("#tournament-live .tournament-tables")).to_contain_text("Won by")
    assert winner
    laptop.screenshot(path=str(shots / "tournament-live-1366.png"), full_page=True)
    phone.screenshot(path=str(shots / "tournament-live-390.png"), full_page=True)
    # On a phone nothing makes the page scroll sideways (the standings scroll inside their own box).
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    lister = laptop.context.new_page()
    lister.goto(f"{own_server.url}/tournaments/")
    expect(lister.locator(f".tournaments-running [data-tournament='{tournament_id}']")).to_contain_text("Winter cup")
    lister.screenshot(path=str(shots / "tournament-list-1366.png"), full_page=True)
