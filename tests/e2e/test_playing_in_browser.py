"""Whole games in real Chromium: clicking cards, watching live, two members at one table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import board_version, click_move, in_step, member_page, open_table

pytestmark = pytest.mark.e2e


def test_a_member_plays_sheepshead_against_bots_while_another_watches(browser, server, shots) -> None:
    player = member_page(browser, server, "alice")
    # Easy bots (the heuristics, decided at once under the table's lock): this test is about the member's clicks and
    # the watcher's board. A searching bot's move waits its turn in the club's search budget (up to 10 s) behind the
    # searches of the other tables still running on this server (in the merged run, three laptop tests' tables left
    # to their normal bots), then searches on a loaded machine: once, Bot 5 took longer than the 20 s wait below.
    url = open_table(player, server, "sheepshead", 5, bots=True, bot_level="easy", rounds="1")
    watcher = member_page(browser, server, "bob")
    watcher.goto(url)
    expect(watcher.locator("#live")).to_have_text("live")
    expect(player.locator("#live")).to_have_text("live")
    clicks = 0
    cards_played = 0
    while clicks < 60:
        # The bots play one card at a time after the member's: wait for the member's turn, or the round's end.
        expect(player.locator("#board [data-move], #board .result").first).to_be_visible()
        if player.locator("#board .result").count():
            break
        move = click_move(player)
        version = board_version(player)
        # The watcher's board follows without a reload (the bots may have moved on already), and never shows a hand.
        watcher.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v", arg=version)
        assert watcher.locator(".hand").count() == 0
        assert watcher.locator("#board [data-move]").count() == 0
        if move.startswith("play "):
            cards_played += 1
        clicks += 1
        if clicks == 3:
            player.screenshot(path=str(shots / "sheepshead-playing.png"), full_page=True)
            watcher.screenshot(path=str(shots / "sheepshead-watching.png"), full_page=True)
    # Every card of a 5-player hand (6 cards): clicked, or, where the rules left her one card, played for her after
    # a pause (her option "play forced cards for me", on by default: tables.play.autoplay). Both are "You played".
    own = player.locator(".move-log .log-lines li").filter(has_text=re.compile(r"^\s*You played"))
    assert 1 <= cards_played <= 6 and own.count() == 6
    for page in (player, watcher):
        expect(page.locator(".result")).to_contain_text("the result")
        expect(page.locator(".result")).to_contain_text("$")
        expect(page.locator(".winners")).to_be_visible()
    player.screenshot(path=str(shots / "sheepshead-settled.png"), full_page=True)
    player.context.close()
    watcher.context.close()


def test_two_members_play_hawsker_until_the_first_round_is_scored(browser, server, shots) -> None:
    alice = member_page(browser, server, "carol")
    bob = member_page(browser, server, "dave")
    bob.goto(f"{server.url}/lobby/")
    url = open_table(alice, server, "hawsker", 2, bots=False)
    code = url.rstrip("/").split("/")[-1]
    # The new table appears in bob's lobby without a reload.
    listed = bob.locator(f"[data-table='{code}']")
    expect(listed).to_be_visible()
    listed.get_by_role("link", name="Sit down").click()
    bob.get_by_role("button", name="Take a seat").click()
    for page in (alice, bob):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
    in_step(alice, bob)
    moves = 0
    while alice.locator(".result").count() == 0 and moves < 80:
        mover = alice if alice.locator("#board [data-move]").count() else bob
        click_move(mover)
        other = bob if mover is alice else alice
        in_step(other, mover)
        moves += 1
    for page in (alice, bob):
        expect(page.locator(".result")).to_contain_text("Round 1: the result")
        expect(page.locator(".result table").first).to_contain_text("Total")
    assert re.search(r"\d+ points?\b", alice.locator(".seats").inner_text())
    alice.screenshot(path=str(shots / "hawsker-scored.png"), full_page=True)
    alice.context.close()
    bob.context.close()
