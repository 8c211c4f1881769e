"""A table of strong bots plays live in the browser: the search decides each bot move on the server's clock,
off the member's request, and the member plays the whole round by clicking."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, member_page, new_member, open_table

pytestmark = pytest.mark.e2e


def test_a_member_plays_a_round_of_sheepshead_against_strong_bots(browser, server, e2e_env, shots) -> None:
    player = member_page(browser, server, new_member(e2e_env, "strong"))
    open_table(player, server, "sheepshead", 3, bots=True, bot_level="strong", rounds="1")
    expect(player.locator("#live")).to_have_text("live")
    seats = player.locator(".seats")
    expect(seats).to_contain_text("bot · strong")
    expect(player.locator(".house-rules dt:text-is('Bots play') + dd")).to_have_text("strong")
    clicks = 0
    while clicks < 40:
        # Strong bots think for up to a fifth of a second a move, then the table's pace: wait for the member's
        # turn or the round's end.
        expect(player.locator("#board [data-move], #board .result").first).to_be_visible(timeout=30_000)
        if player.locator("#board .result").count():
            break
        click_move(player)
        clicks += 1
        if clicks == 4:
            player.screenshot(path=str(shots / "strong-bots-playing.png"), full_page=True)
    expect(player.locator(".result")).to_contain_text("the result")
    assert clicks >= 10  # ten cards a hand at three players, each played by a click (and pick or pass)
    player.screenshot(path=str(shots / "strong-bots-settled.png"), full_page=True)
    player.context.close()
