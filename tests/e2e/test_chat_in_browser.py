"""Two members chat at one table, live, in the browser: each sees the other's line arrive over the socket without
reloading; a line is text whatever it holds; on a phone (390 x 844) the chat is a closed fold below the board, so
the member's hand stays on the first screen, and it counts the lines that came while it was closed.

Screenshots of the table with its chat (desktop and phone) and of the lobby's chat tab are left in var/screenshots/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import in_step, member_page, new_member
from tests.e2e.test_table_life import PHONE, open_paced_table

pytestmark = pytest.mark.e2e


def say(page: Page, text: str) -> None:
    chat = page.locator("#chat-form-table")
    chat.locator("input[name=text]").fill(text)
    chat.get_by_role("button", name="Send").click()
    expect(chat.locator("input[name=text]")).to_have_value("")  # the server took it: the input is emptied


def test_two_members_chat_at_a_table_and_see_each_others_lines_live(browser, server, e2e_env, shots: Path) -> None:
    x = member_page(browser, server, new_member(e2e_env))
    y = member_page(browser, server, new_member(e2e_env))
    url = open_paced_table(x, server, "hawsker", 2, bots=False, turn_seconds=600)
    y.goto(url)
    y.get_by_role("button", name="Take a seat").click()
    for page in (x, y):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
        expect(page.locator("details.chat-fold")).to_have_attribute("open", "")  # a wide screen: open
    in_step(x, y)

    say(x, "Good luck! <b>not bold</b>")
    for page in (x, y):
        line = page.locator("#chat-lines-table .chat-line").last
        expect(line.locator(".chat-text")).to_have_text("Good luck! <b>not bold</b>")
        expect(page.locator("#chat-lines-table b")).to_have_count(0)
    say(y, "Thanks, you too")
    expect(x.locator("#chat-lines-table .chat-line").last.locator(".chat-text")).to_have_text("Thanks, you too")
    expect(x.locator("#chat-lines-table .chat-line")).to_have_count(2)  # each line once
    expect(y.locator("#chat-lines-table .chat-line")).to_have_count(2)
    expect(x.locator("#chat-log-table")).to_have_attribute("role", "log")  # a live region around the list of lines
    expect(x.locator("#chat-log-table > ol#chat-lines-table > li.chat-line")).to_have_count(2)
    expect(x.get_by_label("Say something to the table")).to_be_visible()

    # A line too long is refused with a message and kept in the input, to be shortened.
    x.locator("#chat-input-table").fill("z" * 301)
    x.locator("#chat-form-table").get_by_role("button", name="Send").click()
    expect(x.locator("#chat-answer-table")).to_contain_text("at most 300 characters")
    expect(x.locator("#chat-input-table")).to_have_value("z" * 301)
    x.locator("#chat-input-table").fill("")

    # The board changes (a move) and the chat stays as it was: it lives outside #board.
    mover = x if x.locator("#board .hand [data-move]").count() else y
    before = int(mover.locator("#board").get_attribute("data-version"))
    mover.locator("#board .hand [data-move]").first.click()
    for page in (x, y):
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
        expect(page.locator("#chat-lines-table .chat-line")).to_have_count(2)
    x.screenshot(path=str(shots / "chat-table-desktop.png"), full_page=True)

    # On a phone the chat is folded below the board; the hand is on the first screen; new lines are counted.
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    from tests.e2e.conftest import log_in

    small = phone.new_page()
    log_in(small, server, y.locator("[data-testid=who]").inner_text())
    small.goto(url)
    expect(small.locator("#live")).to_have_text("live")
    fold = small.locator("details.chat-fold")
    expect(fold).not_to_have_attribute("open", "")
    card = small.locator("#board .hand .card").first
    expect(card).to_be_visible()
    box = card.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    say(x, "Your turn, I think")
    expect(small.locator("#chat-unread-table")).to_have_text("1 new")
    small.screenshot(path=str(shots / "chat-table-phone.png"))
    small.locator("details.chat-fold > summary").click()
    expect(small.locator("#chat-lines-table .chat-line").last).to_contain_text("Your turn, I think")
    expect(small.locator("#chat-unread-table")).to_have_text("")
    small.locator("details.chat-fold").scroll_into_view_if_needed()
    small.screenshot(path=str(shots / "chat-table-phone-open.png"), full_page=True)

    # The lobby's chat is a tab on a phone.
    small.goto(f"{server.url}/lobby/")
    small.get_by_role("tab", name="Chat").click()
    expect(small.get_by_label("Say something to the lobby")).to_be_visible()
    small.screenshot(path=str(shots / "chat-lobby-phone.png"))
    x.goto(f"{server.url}/lobby/")
    x.screenshot(path=str(shots / "chat-lobby-desktop.png"), full_page=True)
