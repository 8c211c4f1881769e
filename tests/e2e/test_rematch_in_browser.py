"""A rematch and "Play again" in real Chromium (issue 41, item 5): two members and two bots play a one-round Hawk match
to its end; one asks for a rematch, the other sees it come and accepts, and both pages go to the new table, seats and
bots as they were. A member alone with bots plays again with one click. The finished table's page, opened later,
shows the link to the rematch and stays where it is."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import board_version, click_move, expect_new_board, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

TABLE_URL = re.compile(r"/t/([^/]+)/$")
# Marks the page once it has made a swap (from before its own scripts listen, so the mark comes first on each swap):
# an attribute on <html>, which a locator waits for (the site's CSP forbids eval, so no wait_for_function("...")).
COUNT_SWAPS = """
(() => {
  let swaps = 0;
  const count = () => { swaps += 1; document.documentElement.dataset.swaps = String(swaps); };
  document.addEventListener("htmx:afterSwap", count);
  document.addEventListener("htmx:oobAfterSwap", count);
})();
"""


def play_to_the_end(*pages) -> None:
    """Whoever may move clicks (their first move) until the match is over on every page; the bots play at once. A
    page that may not move waits for its board: each round of looking is bounded, and so is the whole."""
    for _ in range(60):
        if all(page.locator("#board [data-rematch]").count() for page in pages):
            return
        for _look in range(200):
            mover = next((page for page in pages if page.locator("#board [data-move]").count()), None)
            if mover is not None or all(page.locator("#board [data-rematch]").count() for page in pages):
                break
            pages[0].wait_for_timeout(100)  # a board on its way to a page (looked for again, never taken as proof)
        else:
            raise AssertionError("no page may move and the match is not over")
        if mover is not None:
            click_move(mover)
    raise AssertionError("the match did not end")


def code_of(url: str) -> str:
    found = TABLE_URL.search(url)
    assert found, url
    return found.group(1)


def test_two_members_finish_a_match_and_both_go_to_the_rematch(browser, server, e2e_env, shots) -> None:
    alice_name, bob_name = new_member(e2e_env, "ann"), new_member(e2e_env, "ben")
    alice = member_page(browser, server, alice_name)
    bob = member_page(browser, server, bob_name)
    url = open_table(alice, server, "hawk", 4, bots=False, speed="instant", rounds="1")
    old = code_of(url)
    bob.goto(url)
    expect(bob.locator("#live")).to_have_text("live")
    bob.get_by_role("button", name="Take a seat").click()
    # Bob is seated before Alice adds the bots (else, on a loaded machine, a bot may take the seat he asked for).
    expect(bob.locator("#board .seat.me")).to_have_attribute("data-seat", "1")
    for _ in range(2):
        before = board_version(alice)
        alice.get_by_role("button", name="Add a bot").click()
        expect_new_board(alice, before, "Add a bot")
    play_to_the_end(alice, bob)
    for page in (alice, bob):
        expect(page.locator("#board .result")).to_contain_text("The match is over")

    alice.locator("#board [data-rematch-answer=yes]").click()  # "Rematch"
    offer = bob.locator("#board .rematch")
    expect(offer).to_contain_text(f"{alice_name} asked for a rematch")  # pushed to bob's page over its socket
    expect(offer.locator("[data-answer=yes]")).to_contain_text(alice_name)
    expect(offer.locator("[data-answer=waiting]")).to_contain_text(bob_name)
    bob.screenshot(path=str(shots / "rematch-asked.png"), full_page=True)
    bob.get_by_role("button", name="Accept the rematch").click()

    # Bob's click, and the board pushed to Alice's page, take both to the new table.
    for page in (alice, bob):
        page.wait_for_url(re.compile(r"/t/(?!" + re.escape(old) + r"/)[^/]+/$"))
    new = code_of(alice.url)
    assert code_of(bob.url) == new != old
    for page, position in ((alice, "0"), (bob, "1")):
        expect(page.locator("#board .seat.me")).to_have_attribute("data-seat", position)
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#board .seat[data-presence=bot]")).to_have_count(2)
    alice.screenshot(path=str(shots / "rematch-started.png"), full_page=True)

    # The finished table's page, opened now, links to the rematch and stays.
    again = alice.context.new_page()
    again.add_init_script(COUNT_SWAPS)
    again.goto(url)
    link = again.get_by_role("link", name="Go to the rematch")
    expect(link).to_have_attribute("href", f"/t/{new}/")
    expect(again.locator("#live")).to_have_text("live")
    # The socket's first message swapped in (the board of the same version is skipped, the chat's part is not): a
    # page that would follow the link does so on that very swap, before this wait returns.
    expect(again.locator("html[data-swaps]")).to_have_count(1)
    assert again.evaluate("document.documentElement.dataset.rematchGoing") is None
    assert code_of(again.url) == old and again.locator("#board [data-rematch='started']").count() == 1
    again.screenshot(path=str(shots / "rematch-old-table.png"), full_page=True)


def test_play_again_at_a_practice_table_is_one_click(browser, server, e2e_env, shots) -> None:
    player = member_page(browser, server, new_member(e2e_env, "solo"))
    url = open_table(player, server, "hawk", 4, bots=True, speed="instant", rounds="1")
    play_to_the_end(player)
    again = player.get_by_role("button", name="Play again")
    expect(again).to_be_enabled()
    player.screenshot(path=str(shots / "play-again.png"), full_page=True)
    again.click()
    player.wait_for_url(re.compile(r"/t/(?!" + re.escape(code_of(url)) + r"/)[^/]+/$"))
    expect(player.locator("#board .hand")).to_be_visible()
    expect(player.locator("#board .seat[data-presence=bot]")).to_have_count(3)
