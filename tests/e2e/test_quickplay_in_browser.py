"""Quick play in real Chromium: one member waits, the lobby counts live, and when a second member asks
both pages end up at the new table (the asker by the POST's answer, the waiter by the socket's notice)."""

from __future__ import annotations

import re
import sqlite3

import pytest
from playwright.sync_api import expect

from tables.play.push import user_group
from tests.e2e.conftest import member_page, send_to_group

pytestmark = pytest.mark.e2e


def ask_for(page, server, game: str, band: str | None = None) -> None:
    page.goto(f"{server.url}/lobby/")
    expect(page.locator("#online-count")).to_contain_text("online")
    with page.expect_response(lambda response: "/quick/form/" in response.url):
        page.select_option("#quick_game", game)
    # The answer has come; wait until htmx has swapped in that game's form (the old form's fields are
    # another game's, and a click before the swap would send them).
    page.wait_for_selector(f"#quick-form[data-game={game}] #quick_band", state="attached")
    if band is not None:
        page.select_option("#quick_band", band)
    page.click("#quick-form button[type=submit]")


def test_two_members_ask_for_hawsker_and_both_are_taken_to_their_table(browser, server, shots) -> None:
    erin = member_page(browser, server, "erin")
    frank = member_page(browser, server, "frank")
    frank.goto(f"{server.url}/lobby/")
    expect(frank.locator("#online-count")).to_contain_text("online")
    ask_for(erin, server, "hawsker", band="short")
    waiting = erin.locator("#quick-mine [data-state=waiting]")
    expect(waiting).to_be_visible()
    expect(waiting).to_have_attribute("data-place", "1")
    expect(waiting).to_contain_text("Hawsker · Short game: to 50 points")
    # Frank's lobby shows the one member waiting for Hawsker without a reload.
    expect(frank.locator("#quick-counts [data-game=hawsker]")).to_have_attribute("data-waiting", "1")
    erin.screenshot(path=str(shots / "quickplay-waiting.png"), full_page=True)
    ask_for(frank, server, "hawsker", band="")
    # Frank is moved twice to the same table (the POST's answer and his own socket's notice), so the first
    # navigation may be aborted by the second: wait for where the page ends up, not for one navigation.
    expect(frank).to_have_url(re.compile(r".*/t/[^/]+/$"))
    expect(erin).to_have_url(frank.url)  # moved by the notice on her lobby socket
    for page in (erin, frank):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
    erin.screenshot(path=str(shots / "quickplay-seated.png"), full_page=True)
    erin.context.close()
    frank.context.close()


def test_the_lobby_socket_never_replaces_the_form_a_member_is_filling_in(browser, own_server) -> None:
    """Under load the lobby socket can connect (and send the member's panel) after the member has chosen a game:
    the idle form it carries must not replace the one being filled in, or the member asks for the wrong game."""
    frank = member_page(browser, own_server, "frank")
    frank.goto(f"{own_server.url}/lobby/")
    expect(frank.locator("#online-count")).to_contain_text("online")
    with frank.expect_response(lambda response: "/quick/form/" in response.url):
        frank.select_option("#quick_game", "hawsker")
    frank.wait_for_selector("#quick-form[data-game=hawsker] #quick_band", state="attached")
    frank.select_option("#quick_band", "short")
    frank.evaluate("""() => {
        window.panelsPushed = 0;
        document.addEventListener("htmx:oobBeforeSwap", (evt) => {
            if (evt.detail.target && evt.detail.target.id === "quick-mine") window.panelsPushed += 1;
        });
    }""")
    with sqlite3.connect(own_server.db) as conn:
        frank_id = conn.execute("SELECT id FROM accounts_user WHERE username = 'frank'").fetchone()[0]
    # What the socket does on connect and whenever the member's request changes: push their whole panel.
    send_to_group(user_group(frank_id), {"type": "queue.changed", "members": [frank_id]})
    frank.wait_for_function("() => window.panelsPushed > 0")
    expect(frank.locator("#quick-form")).to_have_attribute("data-game", "hawsker")
    expect(frank.locator("#quick_band")).to_have_value("short")
    frank.click("#quick-form button[type=submit]")
    expect(frank.locator("#quick-mine [data-state=waiting]")).to_contain_text("Hawsker · Short game: to 50 points")
    frank.context.close()
