"""Tables of strong bots play live in the browser in every game: the search decides each bot move on the server's
clock, off the member's request, and the member plays by clicking (a whole Sheepshead round; the first moves of
Hawk, Hawsker and Puskiyon, with every bot seat moving in between)."""

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


@pytest.mark.parametrize(("game", "players"), [("hawk", 4), ("hawsker", 2), ("puskiyon", 4)])
def test_strong_bots_play_live_in_the_other_games(browser, server, e2e_env, shots, game: str, players: int) -> None:
    player = member_page(browser, server, new_member(e2e_env, f"strong-{game}"))
    open_table(player, server, game, players, bots=True, bot_level="strong")
    expect(player.locator("#live")).to_have_text("live")
    expect(player.locator(".seats .seat[data-presence=bot]")).to_have_count(players - 1)
    for bot in player.locator(".seats .seat[data-presence=bot]").all():
        expect(bot).to_contain_text("bot · strong")
    for _ in range(6):
        # the member's turn comes back after the bots' (each a search on the table clock, then the table's pace)
        expect(player.locator("#board [data-move]").first).to_be_visible(timeout=30_000)
        click_move(player)
    expect(player.locator("#board [data-move], #board .result").first).to_be_visible(timeout=30_000)
    log = player.locator("#board .log-lines li").all_inner_texts()
    for seat in range(2, players + 1):  # every bot seat ("Bot 2" ...) has moved on this page, live
        assert any(line.startswith(f"Bot {seat} ") for line in log), (seat, log)
    player.screenshot(path=str(shots / f"strong-bots-{game}.png"), full_page=True)
    player.context.close()
