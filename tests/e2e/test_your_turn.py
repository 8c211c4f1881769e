"""Your turn, in real Chromium: when it becomes the member's turn while the table's tab is in the background, the
tab's title says so (and, if the member switched the sound on, a tone plays); the title comes back when the tab is
looked at again or the turn has passed.

Headless Chromium's tab is never hidden, so the page is told it is: an init script puts `document.hidden` and
`visibilityState` under the test's control, and counts the oscillators started (the tone is Web Audio, no file).
Two members of the test's own play Hawsker against each other, so the turn passes to the watched member by the
other's move, pushed over the socket, whatever the pace of the club's bots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import board_version, click_move, in_step, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

BACKGROUND_TAB = """
(() => {
  window.__hidden = false;
  Object.defineProperty(Document.prototype, "hidden", {configurable: true, get() { return window.__hidden; }});
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get() { return window.__hidden ? "hidden" : "visible"; }});
  window.__tones = 0;
  if (window.OscillatorNode) {
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
  }
})();
"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate("(hidden) => { window.__hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); }",
                  hidden)


def is_my_turn(page: Page) -> bool:
    return "my-turn" in (page.locator("#board").get_attribute("class") or "").split()


def tones(page: Page) -> int:
    return page.evaluate("window.__tones")


def deal_the_next_round(pages: tuple[Page, Page]) -> None:
    """Both members ready, one after the other (each click makes the other's button stale)."""
    for page in pages:
        in_step(*pages)
        button = page.get_by_role("button", name="Ready for the next round")
        if button.count():
            before = board_version(page)
            button.click()
            expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))


def play_until_turn_of(waiter: Page, other: Page) -> None:
    """The two boards in step, then moves (by whoever is to act, and into the next round if this one ends)
    until it is `waiter`'s turn."""
    for _ in range(60):
        in_step(waiter, other)
        if is_my_turn(waiter):
            return
        if is_my_turn(other):
            click_move(other)
        else:
            deal_the_next_round((other, waiter))
    pytest.fail("the turn never came to the waiting member")


def test_the_title_says_your_turn_in_a_background_tab_and_the_tone_plays_when_asked(browser, server, e2e_env,
                                                                                    shots) -> None:
    alice = member_page(browser, server, new_member(e2e_env))
    alice.context.add_init_script(BACKGROUND_TAB)
    bob = member_page(browser, server, new_member(e2e_env))
    url = open_table(alice, server, "hawsker", 2, bots=False)
    alice.reload()  # under the init script
    bob.goto(url)
    bob.get_by_role("button", name="Take a seat").click()
    for page in (alice, bob):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
    title = alice.title()
    assert not title.startswith("Your turn")
    toggle = alice.locator("[data-turn-sound]")
    expect(toggle).to_have_attribute("data-turn-sound", "off")
    expect(toggle).to_contain_text("Sound on my turn: off")

    # The sound is off (the default): the title says it, nothing plays.
    play_until_turn_of(bob, alice)
    set_hidden(alice, True)
    play_until_turn_of(alice, bob)
    expect(alice).to_have_title(f"Your turn · {title}")
    assert tones(alice) == 0
    # Looking at the tab again brings the title back.
    set_hidden(alice, False)
    expect(alice).to_have_title(title)

    # Sound on: the toggle swaps itself in again, and turn.js hears the new value.
    alice.get_by_role("button", name=re.compile("Sound on my turn")).click()
    expect(toggle).to_have_attribute("data-turn-sound", "on")
    expect(toggle).to_contain_text("Sound on my turn: on")
    alice.screenshot(path=str(shots / "your-turn-sound-toggle.png"))
    play_until_turn_of(bob, alice)
    set_hidden(alice, True)
    play_until_turn_of(alice, bob)
    expect(alice).to_have_title(f"Your turn · {title}")
    alice.wait_for_function("window.__tones >= 1")
    # The turn passing (the member moved, from another device say) brings the title back too.
    play_until_turn_of(bob, alice)
    expect(alice).to_have_title(title)

    # The choice is the member's, kept for the next page.
    alice.reload()
    expect(alice.locator("[data-turn-sound]")).to_have_attribute("data-turn-sound", "on")
    alice.context.close()
    bob.context.close()
