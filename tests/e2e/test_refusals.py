"""The site's refusals in real Chromium stay in the page: their message shows in the page's error region and
nothing else changes. The server runs with DEBUG on, so django-htmx's debug helper (which puts the answer to
an htmx request in place of the whole document for a 400, 403, 404 or 500) is loaded here too: it made a refused
request replace the whole page with bare, unstyled text (static/js/refusals.js keeps it away from refusals)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page, new_member, open_table

pytestmark = pytest.mark.e2e


def playing_member_at_an_open_table(browser, server, e2e_env):
    """A member playing at a running table of their own, on the page of another member's open table."""
    host = member_page(browser, server, new_member(e2e_env, "refused"))
    open_url = open_table(host, server, "hawsker", 2, bots=False)
    player = member_page(browser, server, new_member(e2e_env, "refused"))
    open_table(player, server, "hawsker", 2, bots=True)  # a running table: the player is playing there
    expect(player.locator("#board .hand")).to_be_visible()
    player.goto(open_url)
    expect(player.get_by_role("button", name="Take a seat")).to_be_enabled()
    return host, player


def assert_refused_in_the_table_page(player) -> None:
    error = player.locator("#table-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_contain_text(re.compile(r"already playing at .+'s Hawsker table"))
    # The page stayed: its frame, the lobby link and the board (still without a seat for the player).
    expect(player.locator("header.site")).to_be_visible()
    expect(player.locator(".crumbs").get_by_role("link", name="Lobby")).to_be_visible()
    expect(player.locator("#board")).to_be_visible()
    expect(player.locator("#board .seat.me")).to_have_count(0)
    expect(player.get_by_role("button", name="Take a seat")).to_be_visible()


def test_take_a_seat_refused_while_playing_elsewhere_shows_in_the_page(browser, server, e2e_env) -> None:
    host, player = playing_member_at_an_open_table(browser, server, e2e_env)
    with player.expect_response(lambda response: "/join/" in response.url) as answer:
        player.get_by_role("button", name="Take a seat").click()
    assert answer.value.status == 403
    assert_refused_in_the_table_page(player)
    host.context.close()
    player.context.close()


def test_a_refusal_shows_even_when_its_button_left_the_page_meanwhile(browser, server, e2e_env) -> None:
    """A board pushed over the socket while the request is out replaces the button that sent it, and htmx's
    events for the answer go with that button: the refusal must show all the same."""
    host, player = playing_member_at_an_open_table(browser, server, e2e_env)
    held = []
    player.route("**/join/", lambda route: held.append(route))
    player.get_by_role("button", name="Take a seat").click()
    while not held:
        player.wait_for_timeout(50)
    player.evaluate("() => { const b = document.getElementById('board'); b.replaceWith(b.cloneNode(true)); }")
    with player.expect_response(lambda response: "/join/" in response.url) as answer:
        held[0].continue_()
    assert answer.value.status == 403
    assert_refused_in_the_table_page(player)
    host.context.close()
    player.context.close()


def test_quick_play_refused_while_playing_elsewhere_shows_in_the_lobby(browser, server, e2e_env) -> None:
    player = member_page(browser, server, new_member(e2e_env, "refused"))
    open_table(player, server, "hawsker", 2, bots=True)
    expect(player.locator("#board .hand")).to_be_visible()

    player.goto(f"{server.url}/lobby/")
    expect(player.locator("#online-count")).to_contain_text("online")
    with player.expect_response(lambda response: "/quick/form/" in response.url):
        player.select_option("#quick_game", "hawsker")
    player.wait_for_selector("#quick-form[data-game=hawsker] #quick_band", state="attached")
    with player.expect_response(lambda response: "/quick/join/" in response.url) as answer:
        player.click("#quick-form button[type=submit]")
    assert 400 <= answer.value.status < 500
    expect(player.locator("#quick-play").get_by_role("alert")).to_contain_text("already playing")
    expect(player.locator("header.site")).to_be_visible()
    expect(player.get_by_role("heading", name="Lobby", exact=True)).to_be_visible()
    expect(player.locator("#quick-form")).to_have_attribute("data-game", "hawsker")
    player.context.close()
