"""Tables of bots play live in the browser at every level in every game: the search decides each bot move on the
server's clock, off the member's request, and the member plays by clicking (a whole Sheepshead round against strong
bots; the first moves of strong tables of Hawk, Hawsker and Puskiyon, and of an easy and a normal table, with every
bot seat moving in between)."""

from __future__ import annotations

import re

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
    # Ten cards a hand at three players, each played by a click or, when the rules left her one card, for her (her
    # option "play forced cards for me", on by default): both read "You played" in the log.
    own = player.locator(".move-log .log-lines li").filter(has_text=re.compile(r"^\s*You played"))
    expect(own).to_have_count(10)
    assert clicks >= 1
    player.screenshot(path=str(shots / "strong-bots-settled.png"), full_page=True)
    player.context.close()


@pytest.mark.parametrize(("game", "players", "level"), [
    ("hawk", 4, "strong"), ("hawsker", 2, "strong"), ("puskiyon", 4, "strong"),
    ("sheepshead", 4, "easy"), ("puskiyon", 4, "normal"),
])
def test_bots_of_each_level_play_live_in_every_game(browser, server, e2e_env, shots, game: str, players: int,
                                                     level: str) -> None:
    """Strong in every game (Sheepshead's above); easy and normal too, which the lobby's other tests play less."""
    player = member_page(browser, server, new_member(e2e_env, f"{level}-{game}"))
    open_table(player, server, game, players, bots=True, bot_level=level)
    expect(player.locator("#live")).to_have_text("live")
    expect(player.locator(".house-rules dt:text-is('Bots play') + dd")).to_have_text(level)
    expect(player.locator(".seats .seat[data-presence=bot]")).to_have_count(players - 1)
    for bot in player.locator(".seats .seat[data-presence=bot]").all():
        expect(bot).to_contain_text(f"bot · {level}")
    clicks = 0
    while clicks < 6:
        # the member's turn comes back after the bots' (each a search on the table clock, then the table's pace),
        # unless the round ended first (a Hawsker player who cannot play ends pegging at once)
        expect(player.locator("#board [data-move], #board .result").first).to_be_visible(timeout=30_000)
        if player.locator("#board .result").count():
            break
        click_move(player)
        clicks += 1
    expect(player.locator("#board [data-move], #board .result").first).to_be_visible(timeout=30_000)
    assert clicks >= 2, clicks  # every round gives the member two moves at least (Hawsker's two discards)
    log = player.locator("#board .log-lines li").all_inner_texts()
    for seat in range(2, players + 1):  # every bot seat ("Bot 2" ...) has moved on this page, live
        assert any(line.startswith(f"Bot {seat} ") for line in log), (seat, log)
    player.screenshot(path=str(shots / f"{level}-bots-{game}.png"), full_page=True)
    player.context.close()
