"""A Hawk round played in German in real Chromium: the browser asks for German (Accept-Language from the context's
locale), the member takes the table's buttons through a whole round, and reads German prompts, facts and result,
with none of the board's English. Screenshots on a desktop and on a phone (390 x 844), where the longer German
words must still fit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, log_in, new_member, open_table

pytestmark = pytest.mark.e2e

# English the board would show in this round; none may be left on the German page.
ENGLISH_MARKERS = (
    "Your hand", "Your turn", "Your lead", "Waiting for", "House rules", "What happened this round", "the result",
    "Match total", "This round", "took the trick", "takes trick", " pips", "Trick ", "may trump", "Score sheet",
    "Leave (", "The match is over", "Won by", "Back to the lobby", "Factor k", "to each LAFH player",
)


def _german_page(browser, server, viewport: dict[str, int], login: str):
    context = browser.new_context(viewport=viewport, locale="de-DE")
    page = context.new_page()
    log_in(page, server, login)
    return page


def _english_left(page) -> list[str]:
    text = page.locator("#board").inner_text()
    return [marker for marker in ENGLISH_MARKERS if marker in text]


def test_a_hawk_round_in_german_from_the_first_card_to_the_result(browser, server, e2e_env, shots) -> None:
    member = new_member(e2e_env, "deutsch")  # the seeded members may be playing at another test's table
    player = _german_page(browser, server, {"width": 1200, "height": 900}, member)
    url = open_table(player, server, "hawk", 4, bots=True, rounds="1")
    prompts = []
    clicks = 0
    while clicks < 40:
        expect(player.locator("#board [data-move], #board .result").first).to_be_visible()
        if player.locator("#board .result").count():
            break
        prompts.append(player.locator("#board .prompt").inner_text())
        assert not _english_left(player), _english_left(player)
        click_move(player)
        clicks += 1
        if clicks == 3:
            expect(player.locator("#board .game-facts")).to_contain_text("Stich")
            player.screenshot(path=str(shots / "hawk-german-playing.png"), full_page=True)
            phone = _german_page(browser, server, {"width": 390, "height": 844}, member)
            phone.goto(url)
            expect(phone.locator("#board .hand")).to_be_visible()
            phone.screenshot(path=str(shots / "hawk-german-playing-phone.png"), full_page=True)
            overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"the German board is {overflow}px wider than the phone"
            phone.context.close()
    assert clicks == 10  # every card of a 4-player Hawk hand, by clicking
    assert all(p.startswith(("Du spielst aus", "Du bist dran")) for p in prompts), prompts
    result = player.locator("#board .result")
    expect(result).to_contain_text("das Ergebnis")
    expect(result).to_contain_text("Augen")
    expect(result).to_contain_text("Die Partie ist vorbei")
    expect(player.locator("#board .move-log")).to_contain_text("Was in dieser Runde geschah")
    assert not _english_left(player), _english_left(player)
    player.screenshot(path=str(shots / "hawk-german-result.png"), full_page=True)

    phone = _german_page(browser, server, {"width": 390, "height": 844}, member)
    phone.goto(url)
    expect(phone.locator("#board .result")).to_contain_text("das Ergebnis")
    phone.screenshot(path=str(shots / "hawk-german-result-phone.png"), full_page=True)
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the German result is {overflow}px wider than the phone"
    phone.context.close()
    player.context.close()
