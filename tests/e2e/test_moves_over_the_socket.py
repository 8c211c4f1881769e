"""A member's click sends the move over the table's socket while it is open, and by POST once it has closed."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TableSockets, board_version, click_move, member_page, new_member, open_table

pytestmark = pytest.mark.e2e


def test_moves_go_over_the_open_socket_and_by_post_once_it_has_closed(browser, server, e2e_env) -> None:
    page = member_page(browser, server, new_member(e2e_env))
    sockets = TableSockets(page)
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    # Sheepshead: every round gives the member more than the four moves this needs (a Hawsker round can end after
    # the member's third, when a player cannot play on the card led).
    url = open_table(page, server, "sheepshead", 3, bots=True)
    code = url.rstrip("/").split("/")[-1]
    expect(page.locator("#live")).to_have_text("live")
    posts.clear()  # the new table's form

    # Open socket: two moves, each a message over it, no POST; the board moves on each time.
    for _ in range(2):
        expect(page.locator("#board [data-move]").first).to_be_visible()
        version = board_version(page)
        move = click_move(page)
        frames = [json.loads(text) for text in sockets.sent]
        assert {"kind": "move", "table": code, "move": move, "version": str(version)}.items() <= frames[-1].items()
    assert posts == []
    sent_before_close = len(sockets.sent)

    # Closed for good (the server's "not found", which the page does not come back after) on the member's turn
    # (with the socket gone, no bot's move reaches the page): the click is a POST, answered with the new board,
    # and nothing waits in a queue for a socket that may never come.
    expect(page.locator("#board [data-move]").first).to_be_visible()
    sockets.close_for_good()
    expect(page.locator("#live")).to_have_text("not found: reload the page")
    with page.expect_response(lambda response: "/move/" in response.url) as answer:
        click_move(page)
    assert answer.value.status == 200
    assert posts == [f"{server.url}/t/{code}/move/"]
    assert len(sockets.sent) == sent_before_close

    # A reload opens a fresh socket, and moves go over it again.
    page.reload()
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#board [data-move]").first).to_be_visible()
    click_move(page)
    assert len(posts) == 1
    assert json.loads(sockets.sent[-1])["kind"] == "move"
    page.context.close()
