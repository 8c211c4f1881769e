"""A tournament round in real Chromium, as the organiser runs it at the club and as a member plays its online table
(issue 45): the round's print page on a desktop and the night sheet it opens for a club table, the organiser's panel
on a phone, and the online table on a phone, which links back to its tournament and keeps the member's hand, the
prompt and the moves on the first screen. Screenshots of each are left in var/screenshots/ for a person to judge.
Nothing here scrolls the page sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DEMO_PASSWORD, log_in
from tests.e2e.first_screen import all_needed_on_first_screen, on_first_screen, wait_for_my_turn
from tests.e2e.test_table_life import DESKTOP, PHONE
from tests.e2e.tournaments import round_at_the_club

pytestmark = pytest.mark.e2e

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def logged_in(browser, server, login: str, viewport: dict[str, int]) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, server, login)
    return page


def no_sideways_scroll(page: Page, what: str) -> None:
    assert page.evaluate(SIDEWAYS) <= 0, f"{what} scrolls sideways at {page.viewport_size['width']} px"


def test_the_organiser_prints_the_round_and_opens_a_club_tables_sheet(browser, server, e2e_env, shots) -> None:
    cup = round_at_the_club(e2e_env, password=DEMO_PASSWORD, name="Winter cup", game="sheepshead",
                            format="sessions", count=10, club=[1], start=True, hands=2)
    url = f"{server.url}/tournaments/{cup['tournament']}/"
    organiser = logged_in(browser, server, "treasurer", DESKTOP)

    organiser.goto(url)
    organiser.locator("#round-print").click()
    organiser.wait_for_url(re.compile(r".*/rounds/1/print/$"))
    expect(organiser.locator(".seat-card")).to_have_count(10)
    expect(organiser.locator(".score-sheet")).to_have_count(1)  # table 1 plays at the club, table 2 online
    sheet = organiser.locator("#sheet-1")
    expect(sheet.locator(".sheet-grid tbody tr")).to_have_count(2)  # the session's two hands
    no_sideways_scroll(organiser, "the print page")
    organiser.screenshot(path=str(shots / "tournament-print-desktop.png"), full_page=True)
    organiser.emulate_media(media="print")
    organiser.screenshot(path=str(shots / "tournament-print-as-printed.png"), full_page=True)
    organiser.emulate_media(media="screen")

    players = [name.strip() for name in sheet.locator(".sheet-grid thead th[data-member]").all_text_contents()]
    with organiser.expect_navigation():
        sheet.get_by_role("button", name="Enter the hands on the night sheet").click()
    expect(organiser).to_have_url(re.compile(r".*/treasury/nights/sheet/[^/]+/$"))
    expect(organiser.locator("#entry")).to_be_visible()
    facts = organiser.locator(".night-facts")
    expect(facts.locator("#tournament-table")).to_have_text("Winter cup, session 1, table 1")  # back to the print page
    for name in players:
        expect(facts).to_contain_text(name)
    no_sideways_scroll(organiser, "the night sheet")
    organiser.screenshot(path=str(shots / "tournament-night-sheet-desktop.png"), full_page=True)

    phone = logged_in(browser, server, "treasurer", PHONE)
    phone.goto(url)
    panel = phone.locator("section.organiser")
    # The round is being played and its tables have no results yet: the panel says what Finish waits for and offers
    # neither Finish nor anything a playing round refuses (Draw, Start, Draw again).
    expect(panel.locator("#waiting-tables")).to_be_visible()
    for refused in ("Finish the round", "Draw the next round", "Start the round", "Draw this round again"):
        expect(panel.get_by_role("button", name=refused)).to_have_count(0)
    expect(panel.get_by_role("button", name="Pause")).to_be_visible()
    no_sideways_scroll(phone, "the tournament's page, as its organiser sees it,")
    for button in panel.locator("button").all():  # every control is whole, none cut off at the screen's edge
        found = button.bounding_box()
        assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= PHONE["width"], \
            f"{button.inner_text()!r} runs off the phone's screen"
    panel.scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "tournament-organiser-phone.png"))
    phone.screenshot(path=str(shots / "tournament-organiser-phone-full.png"), full_page=True)
    phone.goto(organiser.url)
    no_sideways_scroll(phone, "the night sheet")
    phone.screenshot(path=str(shots / "tournament-night-sheet-phone.png"), full_page=True)
    with phone.expect_navigation():
        phone.locator("#tournament-table").click()
    expect(phone.locator("#sheet-1")).to_be_visible()
    no_sideways_scroll(phone, "the print page")  # its score sheet's grid scrolls in its own box
    phone.locator("#sheet-1").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "tournament-print-phone.png"))
    organiser.context.close()
    phone.context.close()


def test_a_member_at_a_tournament_table_on_a_phone_has_the_way_back_and_the_hand_on_the_first_screen(
        browser, server, e2e_env, shots) -> None:
    cup = round_at_the_club(e2e_env, password=DEMO_PASSWORD, name="Winter cup", game="sheepshead",
                            format="sessions", count=10, club=[1], start=True, hands=2)
    table = cup["online"][2]
    page = logged_in(browser, server, table["to_act"], PHONE)
    page.goto(f"{server.url}/t/{table['code']}/")
    wait_for_my_turn(page)
    link = page.locator(".crumbs .table-link a")
    expect(link).to_have_text("Part of Winter cup, session 1, table 2")
    on_first_screen(page, ".crumbs .table-link a")
    all_needed_on_first_screen(page, " at a tournament's table")
    no_sideways_scroll(page, "the tournament's table")
    page.screenshot(path=str(shots / "tournament-table-phone.png"))
    page.screenshot(path=str(shots / "tournament-table-phone-full.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.reload()
    wait_for_my_turn(page)
    all_needed_on_first_screen(page, " at a tournament's table on a desktop")
    page.screenshot(path=str(shots / "tournament-table-desktop.png"))

    with page.expect_navigation():
        link.click()
    expect(page).to_have_url(f"{server.url}/tournaments/{cup['tournament']}/")
    expect(page.locator("h1")).to_have_text("Winter cup")
    page.context.close()
