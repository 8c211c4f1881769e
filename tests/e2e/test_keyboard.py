"""A whole Hawsker round played with the keyboard only, in real Chromium (issue 18, item 4).

A new member opens a two-seat Hawsker table from the lobby's form, the other seat a bot at the "normal" pace,
and plays every move of the round with Tab, Shift+Tab, Enter and Space (never the mouse). The board is swapped
whole after each move (the POST's answer) and at each of the bot's moves (the socket's pushes): the page records,
for every board it shows, where the focus is once the board has settled (`RECORD`: an init script, so it sees the
page from its first board), and every line the one live region (#announcer, outside the board) is given.

What a keyboard and screen-reader member needs, asserted:
- after each of their moves, and on every board after that, the focus is in their hand or on the move buttons:
  never the page top (the body);
- the announcer says each new line of the move log once, in order, and never the whole board;
- when it becomes their turn, the announcer says so with the prompt.
Boards and focus are read by the markup hooks of /work/shared/ARCHITECTURE.md (`#board[data-version]`,
`.hand`, `[data-move]`, `.prompt`, `.move-log`).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import expect_new_board, log_in, new_member
from tests.e2e.test_table_life import open_paced_table, version_of

pytestmark = pytest.mark.e2e

MOST_MOVES = 40  # a Hawsker round asks a player for about ten
MOST_TABS = 80  # from the page top to the first card that may be played

# Installed before the page's own scripts. After every new board has settled (a 0 ms timer, behind every htmx:load
# listener of the page), notes its version and where the focus is; notes every announcement, part by part; and the
# move log as the first board showed it (the page itself says that, so the announcer does not).
RECORD = """
(() => {
  window.__focus = [];
  window.__said = [];
  window.__firstLog = null;
  const logOf = () => Array.from(document.querySelectorAll("#board .move-log .log-lines li"))
    .map((li) => li.textContent.replace(/\\s+/g, " ").trim());
  const where = () => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    if (el.closest("#board .hand")) return "hand";
    if (el.closest("#board .moves")) return "moves";
    return el.closest("#board") ? "board" : "page";
  };
  document.addEventListener("htmx:load", () => setTimeout(() => {
    const board = document.getElementById("board");
    if (!board) return;
    if (window.__firstLog === null) window.__firstLog = logOf();
    window.__focus.push({version: Number(board.dataset.version), where: where()});
  }, 0));
  document.addEventListener("DOMContentLoaded", () => {
    const announcer = document.getElementById("announcer");
    if (!announcer) return;  // not a table page
    new MutationObserver(() => {
      const parts = Array.from(document.querySelectorAll("#announcer [data-said]"))
        .map((span) => ({kind: span.dataset.said, text: span.textContent}));
      if (parts.length) window.__said.push(parts);
    }).observe(announcer, {childList: true, subtree: true});
  });
})();
"""

PLAYABLE = "#board [data-move]:not([disabled])"
FOCUS_ON_A_MOVE = f"() => !!document.activeElement && document.activeElement.matches({PLAYABLE!r})"
MY_TURN_OR_OVER = "() => !!document.querySelector('#board .result, #board.my-turn [data-move]:not([disabled])')"
# The announcer has said the newest line of the move log (words as the page shows them, spaces folded).
NEWEST_LINE_SAID = """() => {
  const lines = document.querySelectorAll("#board .move-log .log-lines li");
  if (!lines.length) return false;
  const newest = lines[lines.length - 1].textContent.replace(/\\s+/g, " ").trim();
  return Array.from(document.querySelectorAll("#announcer [data-said=log]")).some((s) => s.textContent === newest);
}"""


def log_lines(page: Page) -> list[str]:
    return page.evaluate("""() => Array.from(document.querySelectorAll("#board .move-log .log-lines li"))
        .map((li) => li.textContent.replace(/\\s+/g, " ").trim())""")


def focus_place(page: Page) -> str:
    return page.evaluate("""() => {
      const el = document.activeElement;
      if (!el || el === document.body) return "body";
      return el.closest("#board .hand") ? "hand" : el.closest("#board .moves") ? "moves" : el.outerHTML.slice(0, 80);
    }""")


def wait_until_said(page: Page) -> None:
    """Wait until the announcer has said the newest line; on a time-out, fail with what the page showed and said."""
    try:
        page.wait_for_function(NEWEST_LINE_SAID)
    except PlaywrightTimeout:
        shown = page.evaluate("""() => ({
            version: document.getElementById("board").dataset.version,
            announcer: document.getElementById("announcer").innerHTML,
            said: window.__said.slice(-6),
            focus: window.__focus.slice(-6),
        })""")
        pytest.fail(f"the newest log line was not said: log {log_lines(page)[-4:]}, page {shown}")


def tab_to_a_move(page: Page) -> int:
    """Tab from wherever the focus is until it is on a move the member may make; returns the presses."""
    for presses in range(MOST_TABS):
        if page.evaluate(FOCUS_ON_A_MOVE):
            return presses
        page.keyboard.press("Tab")
    pytest.fail(f"{MOST_TABS} presses of Tab never reached a move")


def keyboard_move(page: Page, key: str) -> str:
    """Make the focused move with `key` (Enter or Space) and wait for the answer's board; returns the move."""
    move = page.evaluate("() => document.activeElement.getAttribute('data-move')")
    before = version_of(page)
    page.keyboard.press(key)
    expect_new_board(page, before, move)
    return move


def test_a_whole_hawsker_round_by_keyboard_keeps_the_focus_in_the_hand_and_says_each_move_once(
        browser, server, e2e_env, shots) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(RECORD)
    page = context.new_page()
    log_in(page, server, new_member(e2e_env))
    open_paced_table(page, server, "hawsker", 2, bots=True, speed="normal")
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#board .hand")).to_be_visible()
    first_version = version_of(page)

    moves: list[str] = []
    first_keyboard_version: int | None = None
    for number in range(MOST_MOVES):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#board .result").count():
            break
        if not moves:
            tab_to_a_move(page)  # into the board from the page top, as a keyboard member comes in
        else:
            # The focus came back by itself: on a move, now that it is the member's turn again.
            page.wait_for_function(FOCUS_ON_A_MOVE)
            # Tab on and Shift+Tab back: the moves are in the tab order, one stop each.
            page.keyboard.press("Tab")
            if not page.evaluate(FOCUS_ON_A_MOVE):
                page.keyboard.press("Shift+Tab")
            assert page.evaluate(FOCUS_ON_A_MOVE), focus_place(page)
        if first_keyboard_version is None:
            first_keyboard_version = version_of(page)
        moves.append(keyboard_move(page, "Enter" if number % 2 == 0 else "Space"))
        # After the move the focus is in the hand or on the move buttons (never the page top) ...
        page.wait_for_function("() => !!document.activeElement && !!document.activeElement.closest("
                               "'#board .hand, #board .moves')")
        # ... and the one live region has said what happened (the newest line of the move log).
        wait_until_said(page)
    else:
        pytest.fail(f"the round did not end after {MOST_MOVES} moves: {moves}")
    expect(page.locator("#board .result")).to_be_visible()
    wait_until_said(page)
    # Two discards at the least: a member who cannot answer the bot's first card is stuck, and the round ends there.
    assert len(moves) >= 2 and all(move.startswith("discard") for move in moves[:2]), moves
    page.screenshot(path=str(shots / "keyboard-round-over.png"), full_page=True)

    focus: list[dict[str, Any]] = page.evaluate("window.__focus")
    said: list[list[dict[str, str]]] = page.evaluate("window.__said")
    first_log: list[str] = page.evaluate("window.__firstLog")
    log = log_lines(page)

    # Every board shown from the member's first move on (answers and pushes alike) left the focus in the hand or
    # on the moves; boards before it leave the page alone (the member had not come to the board yet). The round's
    # last board has no hand and no moves: the focus stays on the board then (never the page top).
    after = [f for f in focus if f["version"] > first_keyboard_version]
    assert after, focus
    assert all(f["where"] in ("hand", "moves") for f in after[:-1]), after
    assert after[-1]["where"] in ("hand", "moves", "board"), after
    assert focus[0]["version"] == first_version and focus[0]["where"] in ("body", "page"), focus[:3]

    # Each new line of the move log was said once, in order, one announcement at a time, never the whole board.
    said_lines = [part["text"] for announcement in said for part in announcement if part["kind"] == "log"]
    assert log[:len(first_log)] == first_log, (first_log, log)
    assert said_lines == log[len(first_log):], (said_lines, log)
    board_text = page.locator("#board").inner_text()
    for announcement in said:
        words = " ".join(part["text"] for part in announcement)
        assert len(words) < len(board_text) / 2, words
        assert "What happened this round" not in words and "Your hand" not in words, words
    # The member's turns were announced with the prompt, and the round's end with its result.
    turns = [part["text"] for announcement in said for part in announcement if part["kind"] == "turn"]
    assert turns and all(t.startswith("Your turn") for t in turns), turns
    assert any(part["kind"] == "result" for announcement in said for part in announcement), said
    assert re.search(r"Round \d+", " ".join(p["text"] for a in said for p in a if p["kind"] == "result"))

