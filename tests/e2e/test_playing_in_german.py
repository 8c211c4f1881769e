"""A Hawk round played in German in real Chromium: the browser asks for German (Accept-Language from the context's
locale), the member takes the table's buttons through a whole round, and reads German prompts, facts and result,
with none of the board's English. Screenshots on a desktop and on a phone (390 x 844), where the longer German
words must still fit."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import click_move, log_in, new_member, open_table

pytestmark = pytest.mark.e2e

# English the board would show in this round; none may be left on the German page.
ENGLISH_MARKERS = (
    "Your hand", "Your turn", "Your lead", "Waiting for", "House rules", "What happened this round", "the result",
    "Match total", "This round", "took the trick", "takes trick", " pips", "Trick ", "may trump", "Score sheet",
    "Leave (", "The match is over", "Won by", "Back to the lobby", "Factor k", "to each LAFH player",
    "Playing your only card", "Playing your chosen card",
)
FORCED_PROMPT = "Deine einzige Karte wird gespielt"  # "Playing your only card…": the table plays it for the member

# What the board asks of the member now: its prompt, whether it has a move to click, whether the round is over.
BOARD_NOW = """() => {
  const prompt = document.querySelector("#board .prompt");
  return {prompt: prompt ? prompt.innerText : "", move: !!document.querySelector("#board [data-move]"),
          result: !!document.querySelector("#board .result")};
}"""


def _german_page(browser, server, viewport: dict[str, int], login: str):
    context = browser.new_context(viewport=viewport, locale="de-DE")
    page = context.new_page()
    log_in(page, server, login)
    return page


def _english_left(page) -> list[str]:
    text = page.locator("#board").inner_text()
    return [marker for marker in ENGLISH_MARKERS if marker in text]


def _until_a_move_or_the_result(page, seen: set[str], timeout: float = 20.0) -> None:
    """Waits for the member's turn (a move to click) or the round's end, noting every prompt the board shows on the
    way: a card the table plays for the member (their only one, option `auto_play_forced`, on by default) says so on
    the board for a moment, with nothing to click."""
    deadline = time.monotonic() + timeout
    while True:
        now = page.evaluate(BOARD_NOW)
        seen.add(now["prompt"])
        if now["move"] or now["result"]:
            return
        assert time.monotonic() < deadline, f"neither a move nor the result on the board; last prompt {now['prompt']!r}"
        time.sleep(0.05)


def test_a_hawk_round_in_german_from_the_first_card_to_the_result(browser, server, e2e_env, shots) -> None:
    member = new_member(e2e_env, "deutsch")  # the seeded members may be playing at another test's table
    player = _german_page(browser, server, {"width": 1200, "height": 900}, member)
    url = open_table(player, server, "hawk", 4, bots=True, rounds="1")
    prompts = []
    seen: set[str] = set()
    clicks = 0
    while clicks < 40:
        _until_a_move_or_the_result(player, seen)
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
    # Every card of a 4-player Hawk hand (10) was played: clicked, or, where the rules left the member one card (her
    # last at least), played for her by the table. Both are "Du hast … gespielt" in her move log.
    own = player.locator("#board .move-log .log-lines li").filter(has_text=re.compile(r"^\s*Du hast \S+ gespielt"))
    expect(own).to_have_count(10)
    assert 1 <= clicks <= 9, clicks  # her last card is always her only one
    assert all(p.startswith(("Du spielst aus", "Du bist dran")) for p in prompts), prompts
    # A prompt seen while the table played her only card was German (it shows for a moment only: maybe not caught).
    forced = [p for p in seen if "Karte" in p and "gespielt" in p]
    assert all(p.startswith(FORCED_PROMPT) for p in forced), forced
    assert not [p for p in seen if "Playing your" in p], seen
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
