"""A card chosen ahead, in real Chromium: while the bots play, the member clicks a card of her hand; it stands raised
with a note, and when her turn comes the table plays it for her (tables.play.autoplay).

Hawk for four against slow bots (a card every 1.5 s), so there is time to choose while a bot is to act. The card
chosen is one that will still be legal at her turn: one of the suit led to the trick on the table (or any card when
she holds none of it), chosen only while a trick another seat led waits for her card."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import click_move, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def is_my_turn(page: Page) -> bool:
    return "my-turn" in (page.locator("#board").get_attribute("class") or "").split()


def a_card_to_choose(page: Page, name: str) -> str | None:
    """The move of a card that will be legal at her turn, if the table shows a trick another seat led that waits
    for her card (and her hand may be clicked); else None."""
    trick = page.locator("#board .trick:not(.last-trick):not(.pile) figure")
    if not trick.count() or not page.locator("#board .hand [data-premove]").count():
        return None
    captions = [text.strip() for text in trick.locator("figcaption").all_inner_texts()]
    if name in captions or trick.count() >= 4:
        return None
    # Nothing here waits for an element: the board may be swapped under these reads (the trick taken, her turn to
    # lead), and a read that waited would wait through her turn, when nothing else moves.
    suits = trick.first.locator(".suit").all_inner_texts()
    if not suits:
        return None
    led = SUIT_LETTERS.get(suits[0].strip())
    moves = page.locator(f"#board .hand [data-premove$='{led}']").evaluate_all("els => els.map(e => e.dataset.premove)")
    moves = moves or page.locator("#board .hand [data-premove]").evaluate_all("els => els.map(e => e.dataset.premove)")
    return moves[0] if moves else None


def test_a_card_chosen_ahead_is_played_when_her_turn_comes(browser, server, e2e_env, shots) -> None:
    name = new_member(e2e_env)
    page = member_page(browser, server, name)
    open_table(page, server, "hawk", 4, bots=True, speed="slow")
    expect(page.locator("#live")).to_have_text("live")
    chosen = None
    # Until a trick another seat led waits for her card: a hand that takes trick after trick leads them all, and each
    # such trick passes in the bots' 4.5 s with nothing to choose; a loaded machine makes every step slower.
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if is_my_turn(page):
            click_move(page)
            continue
        move = a_card_to_choose(page, name)
        if move is None:
            page.wait_for_timeout(200)
            continue
        page.locator(f"#board .hand [data-premove='{move}']").click()
        try:
            expect(page.locator("#board .premove-note")).to_contain_text("Chosen for your turn", timeout=5_000)
        except AssertionError:  # her turn came first (the choice refused as stale): try again at a later trick
            page.evaluate("document.getElementById('table-error').replaceChildren()")
            continue
        chosen = move
        break
    assert chosen is not None, "no trick waited for her card while she could choose"
    shown = chosen.split()[1][:-1] + {v: k for k, v in SUIT_LETTERS.items()}[chosen[-1]]
    expect(page.locator(f"#board .hand [data-premove='{chosen}']")).to_have_class(re.compile(r"\bchosen\b"))
    page.screenshot(path=str(shots / "premove-chosen.png"), full_page=True)
    # Her turn comes by the bots' cards; the table plays the chosen card for her, without a click.
    played = page.locator(".move-log .log-lines li").filter(has_text=re.compile(rf"^\s*You played {re.escape(shown)}"))
    expect(played).to_have_count(1, timeout=30_000)
    in_hand = f"#board .hand [data-premove='{chosen}'], #board .hand [data-move='{chosen}']"
    expect(page.locator(in_hand)).to_have_count(0)
    assert not page.locator("#table-error").text_content()
    assert "could no longer be played" not in page.locator("#board").inner_text()
    page.screenshot(path=str(shots / "premove-played.png"), full_page=True)
