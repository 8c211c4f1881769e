"""Motion, the finished trick's pause and card sounds at the table, in real Chromium (issue 41, items 7 and 8).

The page notes every state of the middle of the felt it shows (`RECORD_TRICKS`: a MutationObserver, in the order
shown, with the page's own clock), so the tests assert what a member saw: each bot card on its own, the finished
trick in sight for at least the member's chosen pause (a floor the page keeps by its own timer, which a loaded
machine only lengthens), cards that travel unless the member's system asks for reduced motion.
"""

from __future__ import annotations

import contextlib
import time
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Page

from tables.play import pace
from tests.e2e.conftest import log_in, new_member, open_table

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1200, "height": 900}

# Each state of the middle of the felt, once per change: the cards on it (seat:card, in the order played), whether
# they are a finished trick, and when (performance.now(), ms); the animations running on cards are counted too.
RECORD_TRICKS = """
(() => {
  if (window.__tricks) return;
  window.__tricks = [];
  window.__moving = 0;
  const note = () => {
    const trick = document.querySelector("#board .middle .trick");
    if (!trick) return;
    const cards = Array.from(trick.querySelectorAll(".at[data-card]"))
      .map((at) => at.dataset.seat + ":" + at.dataset.card);
    const finished = trick.classList.contains("last-trick");
    const me = document.querySelector("#board .seat.me");
    const took = trick.querySelector(".at.took");
    const mine = !!(finished && me && took && me.dataset.seat === took.dataset.seat);
    const said = cards.join(" ") + (finished ? " done" : "");
    const last = window.__tricks[window.__tricks.length - 1];
    if (last && last.said === said) return;
    window.__tricks.push({said, cards, finished, mine, at: performance.now()});
  };
  note();
  new MutationObserver(note).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener("transitionrun", (evt) => {
    if (evt.target.closest && evt.target.closest(".trick")) window.__moving += 1;
  }, true);
  document.addEventListener("animationstart", (evt) => {
    if (evt.target.closest && evt.target.closest(".trick")) window.__moving += 1;
  }, true);
})();
"""


def member_with(browser, server, *, pause: str = "normal", sounds: bool = False, **context: Any) -> Page:
    """A new member's page with their table options set on the profile form."""
    page = browser.new_context(viewport=DESKTOP, **context).new_page()
    log_in(page, server, new_member(server.env))
    page.goto(f"{server.url}/accounts/profile/")
    page.select_option("#id_trick_pause", pause)
    if sounds:
        page.check("#id_card_sounds")
    page.locator("form button[type=submit]", has_text="Save").click()
    page.wait_for_load_state()
    return page


def play_tricks(page: Page, tricks: int, *, bots_took: bool = False, timeout: float = 180.0) -> list[dict[str, Any]]:
    """Play the member's first legal card whenever it is their turn until the page has shown `tricks` finished
    tricks (with `bots_took`: `tricks` finished tricks a bot took, each already followed by the next state, so each
    has a spell to measure: the deal may give the member the first tricks); what the page showed, in order."""
    page.evaluate(RECORD_TRICKS)
    deadline = time.monotonic() + timeout
    while True:
        shown = page.evaluate("window.__tricks")
        done = len(finished_spells(shown)) if bots_took else sum(1 for state in shown if state["finished"])
        if done >= tricks:
            return shown
        assert time.monotonic() < deadline, f"only {shown!r} after {timeout} s"
        card = page.locator("#board.my-turn:not(.replaying) .hand [data-move]:not([disabled])").first
        if card.count():
            with contextlib.suppress(Exception):  # the board moved on under the click (a new one came): look again
                card.click(timeout=2000)
        page.wait_for_timeout(100)


def finished_spells(shown: list[dict[str, Any]]) -> list[tuple[list[str], float]]:
    """Each finished trick a bot took that the page showed, and how long it stayed (ms), up to the state after it (a
    trick the member took stays until they lead: their own click, not the pause)."""
    return [(state["cards"], after["at"] - state["at"]) for state, after in pairwise(shown)
            if state["finished"] and not state["mine"]]


def said(shown: list[dict[str, Any]]) -> list[str]:
    """What the page showed, in order and when (ms): short enough to read in a failure."""
    return [f"{state['at']:.0f}: {state['said']}" for state in shown]


def partial_states(shown: list[dict[str, Any]]) -> set[str]:
    return {" ".join(state["cards"]) for state in shown if not state["finished"]}


@pytest.mark.parametrize("speed", ["brisk", "normal"])
def test_a_finished_trick_stays_at_least_the_members_pause(browser, server, timings, speed: str) -> None:
    """How long a finished trick a bot took stays on the member's page, at each paced speed (recorded with the load:
    1.1 s at brisk and 1.2 s at normal before issue 41), and never less than the member's pause (normal: 2.5 s)."""
    page = member_with(browser, server)
    open_table(page, server, "hawk", 4, bots=True, bot_level="easy", speed=speed)
    assert page.locator(".table-page").get_attribute("data-trick-pause-ms") == str(pace.trick_pause_ms("normal"))
    spells = [ms for _cards, ms in finished_spells(play_tricks(page, 3, bots_took=True))]
    for ms in spells:
        timings(f"TRICK_DWELL_{speed.upper()}_SECONDS", ms / 1000, note="hawk, 4 players, easy bots")
    assert spells and min(spells) >= pace.trick_pause_ms("normal") - 50, spells


@pytest.mark.parametrize(("speed", "pause"), [("brisk", "long"), ("instant", "short")])
def test_the_members_trick_pause_holds_the_finished_trick(browser, server, speed: str, pause: str) -> None:
    """A member who asked for a long pause reads each trick that long, though the table's bots go on sooner (brisk:
    1.8 s); at an instant table, where the bots lead again in the same move, the short pause still shows it."""
    page = member_with(browser, server, pause=pause)
    open_table(page, server, "hawk", 4, bots=True, bot_level="easy", speed=speed)
    spells = [ms for _cards, ms in finished_spells(play_tricks(page, 3, bots_took=True))]
    assert spells and min(spells) >= pace.trick_pause_ms(pause) - 50, spells


def test_each_move_of_instant_bots_is_seen_on_its_own(browser, server, shots) -> None:
    """At an instant table the member's card and the bots' answers reach the page as one board; the page shows each
    card of each trick on its own, the finished trick, then the next trick's cards one by one; sounds when asked for."""
    page = member_with(browser, server, sounds=True)
    open_table(page, server, "hawk", 4, bots=True, bot_level="easy", speed="instant")
    assert page.locator(".table-page").get_attribute("data-card-sounds") == "on"
    shown = play_tricks(page, 4)
    print("\n".join(said(shown)))  # in the report of a failure: every state the page showed, in order
    partials = partial_states(shown)
    finished = [state for state in shown if state["finished"]]
    for trick in finished[1:]:  # the first may have been begun by the bots before the page opened
        for count in range(1, len(trick["cards"])):
            assert " ".join(trick["cards"][:count]) in partials, (trick["cards"][:count], said(shown))
    assert page.evaluate("window.__moving") > 0  # the cards travelled
    assert int(page.locator(".table-page").get_attribute("data-card-sounds-played") or 0) > 0
    page.screenshot(path=shots / "instant-bots-replayed.png")


def test_reduced_motion_shows_the_same_moves_without_movement(browser, server) -> None:
    """With the system's reduced motion, nothing on the felt moves, every card is still seen on its own, and a
    member who did not ask for card sounds hears none."""
    page = member_with(browser, server, reduced_motion="reduce")
    open_table(page, server, "hawk", 4, bots=True, bot_level="easy", speed="instant")
    assert page.locator(".table-page").get_attribute("data-card-sounds") == "off"
    shown = play_tricks(page, 3)
    print("\n".join(said(shown)))  # in the report of a failure: every state the page showed, in order
    partials = partial_states(shown)
    for trick in [state for state in shown if state["finished"]][1:]:
        for count in range(1, len(trick["cards"])):
            assert " ".join(trick["cards"][:count]) in partials, (trick["cards"][:count], said(shown))
    assert page.evaluate("window.__moving") == 0
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.locator(".table-page").get_attribute("data-card-sounds-played") is None
