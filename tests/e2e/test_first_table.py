"""Issue 41 in real Chromium: a new member's first table from the lobby's defaults starts and plays; two members
who ask quick play with its defaults sit at one table, their waiting clocks counting meanwhile; and the "already
playing" refusal shows at the top of the lobby with a link to the running table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

TABLE_URL = re.compile(r".*/t/[^/]+/$")


def lobby(page, server) -> None:
    page.goto(f"{server.url}/lobby/")
    expect(page.locator("#online-count")).to_contain_text("online")


def test_a_new_members_first_table_from_the_lobbys_defaults_starts_and_plays(browser, server, e2e_env, shots):
    page = member_page(browser, server, new_member(e2e_env, "newcomer"))
    lobby(page, server)
    form = page.locator("#new-table")
    expect(form.locator("[name=fill_with_bots]")).to_be_checked()
    form.get_by_role("button", name="Open the table").click()  # nothing chosen: the form as it comes
    page.wait_for_url(TABLE_URL)
    expect(page.locator("#board .hand")).to_be_visible()
    expect(page.locator("#board .seat[data-presence=bot]")).to_have_count(4)  # Sheepshead for five, started
    moves = []
    while len(moves) < 3:  # the first moves: wait for the member's turn each time (the bots play at their pace)
        expect(page.locator("#board [data-move]").first).to_be_visible()
        moves.append(click_move(page))
    page.screenshot(path=str(shots / "first-table-playing.png"))
    page.context.close()


def test_two_members_asking_with_quick_plays_defaults_sit_at_one_table(browser, server, e2e_env, shots) -> None:
    erin = member_page(browser, server, new_member(e2e_env, "quickdef"))
    frank = member_page(browser, server, new_member(e2e_env, "quickdef"))
    lobby(erin, server)
    erin.get_by_role("button", name="Find me a table").click()  # the form as it comes: Sheepshead, any number
    waiting = erin.locator("#quick-mine [data-state=waiting]")
    expect(waiting).to_contain_text("any number of players")
    expect(waiting).to_contain_text("bots after 30 s")
    # Alone: told so, and offered bots at once.
    expect(waiting.locator("[data-alone]")).to_contain_text("Nobody else is looking for a Sheepshead table")
    expect(waiting.get_by_role("button", name="Play with bots now")).to_be_visible()
    # The clocks count in the page: whatever they said, they soon say something else.
    waited = waiting.locator("[data-waited]")
    said = waited.inner_text()
    expect(waited).not_to_have_text(said)
    bots_in = waiting.locator("[data-bots-in]")
    said = bots_in.inner_text()
    expect(bots_in).not_to_have_text(said)
    erin.screenshot(path=str(shots / "quickplay-defaults-waiting.png"))

    lobby(frank, server)
    frank.get_by_role("button", name="Find me a table").click()
    expect(frank.locator("#quick-mine [data-state=waiting]")).to_be_visible()
    expect(erin.locator("#quick-mine [data-alone]")).to_have_count(0)  # pushed: erin is no longer alone
    # When erin's short wait is over, bots take the three seats left and both pages go to the table.
    expect(erin).to_have_url(TABLE_URL, timeout=90_000)
    expect(frank).to_have_url(erin.url, timeout=30_000)
    for page in (erin, frank):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#board .seat")).to_have_count(5)
        expect(page.locator("#board .seat[data-presence=bot]")).to_have_count(3)
    erin.screenshot(path=str(shots / "quickplay-defaults-seated.png"))
    erin.context.close()
    frank.context.close()


def test_the_already_playing_refusal_is_on_the_first_screen_with_a_link_to_the_table(browser, server, e2e_env,
                                                                                    shots) -> None:
    player = member_page(browser, server, new_member(e2e_env, "busy"))
    running = open_table(player, server, "hawsker", 2, bots=True)
    expect(player.locator("#board .hand")).to_be_visible()
    lobby(player, server)
    player.locator("#new-table").get_by_role("button", name="Open the table").click()
    refusal = player.locator("#lobby-refusal")
    expect(refusal).to_contain_text("already playing at")
    expect(refusal).to_be_in_viewport()
    player.screenshot(path=str(shots / "lobby-already-playing.png"))
    refusal.get_by_role("link", name="Go to your table").click()
    expect(player).to_have_url(running)
    # Quick play's refusal, where the member clicked, links there too.
    lobby(player, server)
    player.get_by_role("button", name="Find me a table").click()
    alert = player.locator("#quick-play").get_by_role("alert")
    expect(alert).to_contain_text("already playing at")
    expect(alert).to_be_in_viewport()
    alert.get_by_role("link", name="Go to your table").click()
    expect(player).to_have_url(running)
    player.context.close()
