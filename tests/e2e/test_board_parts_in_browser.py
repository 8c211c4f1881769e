"""The board from its parts in real Chromium (issue 43): after the whole board, the table socket sends only the parts
each version changed, and the page (static/js/board_parts.js) rebuilds the whole board from them. A message lost on
the way (here: dropped by the test) leaves the page holding another board than the next message builds on: the page
shows nothing built wrongly, asks the socket for the whole board, and is on the table's newest board again."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import board_version, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

DELTA = '<template id="board-delta"'
VERSION = re.compile(r'id="board"[^>]*data-version="(\d+)"')


class Relay:
    """The page's table sockets through Playwright: the server's messages are passed on, except the first delta after
    `drop_next` (lost), and what each side sent is kept."""

    def __init__(self, page) -> None:
        self.from_server: list[str] = []
        self.from_page: list[str] = []
        self.dropping = False
        self.dropped: list[str] = []
        page.route_web_socket(re.compile(r"/ws/table/"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            self.from_page.append(message if isinstance(message, str) else message.decode())
            server.send(message)

        def to_page(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if self.dropping and DELTA in text:
                self.dropping = False
                self.dropped.append(text)
                return
            self.from_server.append(text)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def newest_version(self) -> int:
        return max(int(found.group(1)) for text in self.from_server if (found := VERSION.search(text)))


def test_the_page_rebuilds_boards_from_parts_and_asks_for_the_whole_board_after_a_lost_one(browser, server,
                                                                                          e2e_env) -> None:
    page = member_page(browser, server, new_member(e2e_env, "parts"))
    relay = Relay(page)
    open_table(page, server, "hawsker", 2, bots=True)
    expect(page.locator("#live")).to_have_text("live")
    deadline = time.monotonic() + 120
    # Play on (the bot answers at its pace) until the page has shown boards it rebuilt from parts.
    while sum(DELTA in text for text in relay.from_server) < 3:
        assert time.monotonic() < deadline, "no boards from parts came"
        playable = page.locator("#board .hand [data-move], #board .moves [data-move]")
        if playable.count() and not page.locator("#board.replaying").count():
            playable.first.click()
        page.wait_for_timeout(300)
    expect(page.locator("#board")).to_have_attribute("data-version", str(relay.newest_version()), timeout=20_000)
    expect(page.locator("#board .hand")).to_be_visible()

    relay.dropping = True  # the next board from parts is lost on the way
    while not relay.dropped or not any('"kind":"board"' in text for text in relay.from_page):
        assert time.monotonic() < deadline, f"no board was lost, or the page never asked again: {relay.from_page[-3:]}"
        playable = page.locator("#board .hand [data-move], #board .moves [data-move]")
        if playable.count() and not page.locator("#board.replaying").count() and not relay.dropped:
            playable.first.click()
        page.wait_for_timeout(300)
    # The page asked for the whole board and got it: it is on the table's newest board, never on one built wrongly.
    expect(page.locator("#board")).to_have_attribute("data-version", str(relay.newest_version()), timeout=20_000)
    assert board_version(page) > min(int(VERSION.search(text).group(1)) for text in relay.dropped)
    expect(page.locator("#board .hand")).to_be_visible()
    page.context.close()
