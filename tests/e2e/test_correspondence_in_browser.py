"""A correspondence table in real Chromium (issue 44): started from the lobby's form (the live table's timings leave the
form when "a move a day" is chosen), played by its member with the bots answering at once, the board saying by when
the next move is due, and the member's page of tables putting it first while it is their turn. Screenshots at a
desktop's size and a phone's go to var/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, log_in, new_member

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def test_a_correspondence_sheepshead_table_from_the_form_to_my_tables(browser, server, e2e_env, shots) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    login = new_member(e2e_env)
    log_in(page, server, login)
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", "sheepshead")
    page.wait_for_selector("#new-table[data-game=sheepshead] #id_move_hours", state="attached")
    expect(page.locator("#id_turn_seconds")).to_be_visible()
    page.select_option("#id_move_hours", "24")
    for live_only in ("#id_turn_seconds", "#id_bot_speed", "#id_grace_seconds"):
        expect(page.locator(live_only)).to_be_hidden()
    page.set_checked("input[name=fill_with_bots]", True)
    page.click("#new-table button[type=submit]")
    page.wait_for_url(f"{server.url}/t/**")
    table_url = page.url

    # The bots have played up to the member at once; the board says by when, as a date, and counts no seconds.
    board = page.locator("#board")
    expect(board).to_have_class(re.compile(r"\bmy-turn\b"), timeout=15_000)
    expect(page.locator(".time-left")).to_contain_text(re.compile(r"Move by \w{3} \d{1,2} \w{3}, \d\d:\d\d"))
    expect(page.locator(".time-left .countdown")).to_have_count(0)
    expect(page.locator(".house-rules")).to_contain_text("A move a day")
    page.screenshot(path=str(shots / "correspondence-board-desktop.png"))

    # One move; the bots answer within it (click_move waits for the board after it).
    click_move(page)

    # Their page of tables: this one, with "Your turn" while it is, and the pace.
    page.goto(f"{server.url}/tables/mine/")
    row = page.locator(f"[data-table='{table_url.rstrip('/').rsplit('/', 1)[-1]}']")
    expect(row).to_be_visible()
    expect(row).to_contain_text("a move a day")
    page.screenshot(path=str(shots / "my-tables-desktop.png"), full_page=True)
    row.get_by_role("link").click()
    page.wait_for_url(table_url)

    phone = browser.new_context(viewport=PHONE).new_page()
    log_in(phone, server, login)
    phone.goto(f"{server.url}/tables/mine/")
    expect(phone.locator(".my-tables li").first).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"my tables scroll sideways on a phone: {width}px"
    phone.screenshot(path=str(shots / "my-tables-phone.png"), full_page=True)
    phone.goto(table_url)
    expect(phone.locator(".time-left")).to_contain_text("Move by")
    phone.screenshot(path=str(shots / "correspondence-board-phone.png"))

