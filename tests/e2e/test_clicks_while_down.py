"""A click while the table's socket is down is never lost without a word (issue 41, item 3).

The page's way (static/js/sockets.js): a move clicked while the socket is not open is POSTed at once. When the server
cannot be reached at all, that move is refused at once in #table-error ("Not connected: ...") and the card stays
playable; it is not kept to be sent later. A move made on a board that is out of date by then (the socket missed a
change) is refused by the server in words. Neither is an uncaught error in the page (the `browser` fixture fails the
test on one, and on an error a script logged that the test did not declare).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import (
    TableSockets,
    board_version,
    click_move,
    in_step,
    member_page,
    new_member,
    open_table,
    socket_said,
)

pytestmark = pytest.mark.e2e

NOT_SENT = "Not connected: your move was not sent. Play it again when the table is live."
MOVED_ON = "The table has moved on since you looked; nothing was changed."
# After a while down, htmx's next try may be some seconds off (a random wait, doubling with each failed try).
BACK_WITHIN_MS = 60_000


def test_a_click_while_the_server_is_away_is_refused_at_once_in_words(
        browser, browser_problems, server, e2e_env) -> None:
    # htmx reports the POST that could not be made as error events, which it logs: this test's doing.
    browser_problems.expect_console(r"^htmx:(afterRequest|sendError), ")
    page = member_page(browser, server, new_member(e2e_env))
    sockets = TableSockets(page)
    open_table(page, server, "sheepshead", 3, bots=True)
    expect(page.locator("#live")).to_have_text("live")
    button = page.locator("#board [data-move]").first
    expect(button).to_be_enabled()
    move = button.get_attribute("data-move")
    version = board_version(page)

    # The server cannot be reached: the socket is lost and cannot be opened again, and a POST is refused its
    # connection (as when Daphne is down).
    page.route("**/move/", lambda route: route.abort("connectionrefused"))
    sockets.go_down()
    expect(page.locator("#live")).to_have_text("reconnecting…")
    sent = len(sockets.sent)
    button.click()
    # Said at once, where refusals go, and nothing else changed: the same board, the move still there to play.
    expect(page.locator("#table-error")).to_have_text(NOT_SENT)
    assert board_version(page) == version
    expect(page.locator("#board")).not_to_have_class("busy")
    expect(page.locator(f"#board [data-move='{move}']")).to_be_enabled()

    page.unroute("**/move/")
    sockets.come_back()
    expect(page.locator("#live")).to_have_text("live", timeout=BACK_WITHIN_MS)
    assert board_version(page) >= version  # (a presence change may have made versions: offline, online again)
    assert len(sockets.sent) == sent, sockets.sent[sent:]  # the refused click was not sent when the socket came back
    # Played again on the live table: it is made, and the word about the last try is gone.
    click_move(page)
    expect(page.locator("#table-error")).to_be_empty()


def test_a_stale_click_while_the_socket_is_down_is_refused_in_words_and_never_sent_later(
        browser, server, e2e_env) -> None:
    first = member_page(browser, server, new_member(e2e_env))
    sockets = TableSockets(first)
    url = open_table(first, server, "sheepshead", 3, bots=True)
    # The same member in a second tab of the same browser, on its own socket.
    second = first.context.new_page()
    second.goto(url)
    for page in (first, second):
        expect(page.locator("#live")).to_have_text("live")
    in_step(first, second)
    stale = first.locator("#board [data-move]").first
    expect(stale).to_be_enabled()
    version = board_version(first)

    sockets.go_down()
    expect(first.locator("#live")).to_have_text("reconnecting…")
    sent = len(sockets.sent)
    click_move(second)  # the member moves in the other tab: the first one's board is out of date and cannot know it
    assert board_version(first) == version

    stale.click()  # POSTed (the socket is down) with the version its board showed: refused in words
    expect(first.locator("#table-error")).to_have_text(MOVED_ON)
    expect(first.locator("#board")).not_to_have_class("busy")
    assert board_version(first) == version

    sockets.come_back()
    try:
        expect(first.locator("#live")).to_have_text("live", timeout=BACK_WITHIN_MS)
    except AssertionError:
        raise AssertionError(f"the socket did not come back: {socket_said(first)}") from None
    # The fresh socket brings the board as it stands; the refused move was not kept to be sent over it.
    in_step(first, second)
    assert board_version(first) > version
    assert len(sockets.sent) == sent, sockets.sent[sent:]
