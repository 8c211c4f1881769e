"""A table page survives its socket closing: a broken event, an old socket, a Daphne restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tables.play.push import table_group
from tests.e2e.conftest import (
    board_version,
    click_move,
    in_step,
    member_page,
    open_table,
    send_to_group,
    socket_said,
)

pytestmark = pytest.mark.e2e

def table_id(db: Path, url: str) -> int:
    code = url.rstrip("/").split("/")[-1]
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id FROM tables_table WHERE code = ?", (code,)).fetchone()[0]


def send_broken_event(group: str) -> None:
    send_to_group(group, {"type": "table.changed", "version": "not a number"})


def opens(page) -> int:
    return int(page.locator("#live").get_attribute("data-opens") or 0)


def play_and_check_live(mover, other) -> None:
    click_move(mover)
    in_step(other, mover)


def two_member_hawsker(browser, server):
    alice = member_page(browser, server, "alice")
    bob = member_page(browser, server, "bob")
    url = open_table(alice, server, "hawsker", 2, bots=False)
    bob.goto(url)
    bob.get_by_role("button", name="Take a seat").click()
    for page in (alice, bob):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
    return alice, bob, url


def mover_of(alice, bob):
    in_step(alice, bob)
    return (alice, bob) if alice.locator("#board [data-move]").count() else (bob, alice)


def test_a_consumer_failure_and_old_sockets_do_not_strand_the_browser(browser, own_server) -> None:
    alice, bob, url = two_member_hawsker(browser, own_server)
    opened = {page: opens(page) for page in (alice, bob)}
    send_broken_event(table_group(table_id(own_server.db, url)))
    # Both sockets were closed to come back (4012); the page reconnects and the fresh socket sends the table.
    for page in (alice, bob):
        wait_for_reopen(page, opened[page])
    mover, other = mover_of(alice, bob)
    play_and_check_live(mover, other)
    # Sockets older than TABLE_SOCKET_MAX_AGE (6 s here) close themselves to come back too: each page's
    # socket really closes and opens again, and the fresh one carries the other player's next move.
    opened = {page: opens(page) for page in (alice, bob)}
    for page in (alice, bob):
        wait_for_reopen(page, opened[page])
    mover, other = mover_of(alice, bob)
    play_and_check_live(mover, other)
    assert "Traceback" in own_server.log()  # the broken event was logged, not swallowed
    assert "invalid close code" not in own_server.log()


def wait_for_reopen(page, opens_before: int) -> None:
    """The page's socket closed and opened again (static/js/sockets.js counts opens in #live[data-opens])
    and is live."""
    try:
        page.wait_for_function(
            "n => Number(document.getElementById('live').dataset.opens) > n", arg=opens_before, timeout=15000
        )
    except PlaywrightTimeoutError:
        raise AssertionError(f"the socket did not open again in 15 s (opened {opens_before} times before); "
                             f"now: {socket_said(page)}") from None
    expect(page.locator("#live")).to_have_text("live")


def test_daphne_stopped_mid_round_and_started_again(browser, own_server) -> None:
    alice, bob, _url = two_member_hawsker(browser, own_server)
    mover, other = mover_of(alice, bob)
    play_and_check_live(mover, other)
    version = board_version(alice)
    hand_before = alice.locator(".hand").inner_text()
    log_before = alice.locator("#board .move-log .log-lines").inner_text()
    own_server.stop()
    for page in (alice, bob):
        expect(page.locator("#live")).to_have_text("reconnecting…", timeout=10000)
    own_server.start()
    for page in (alice, bob):
        expect(page.locator("#live")).to_have_text("live", timeout=30000)
    # The game stands as it was: the same hand, the same moves. (The version may have moved on: a member whose
    # page was away longer than two seconds was shown offline, and online again, each a version of its own.)
    assert board_version(alice) >= version
    assert alice.locator(".hand").inner_text() == hand_before
    assert alice.locator("#board .move-log .log-lines").inner_text() == log_before
    mover, other = mover_of(alice, bob)
    play_and_check_live(mover, other)
    assert board_version(alice) > version
