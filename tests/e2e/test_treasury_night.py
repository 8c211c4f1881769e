"""The treasurer enters a whole club night of 40 Sheepshead hands with the keyboard alone, in real Chromium.

After the sheet opens there is no click: each hand is typed (a player is chosen by typing their name into the
sheet's list), Tab moves through the row and Enter adds it, the focus landing in the next row's first field; Tab
then reaches "Save the night" and Enter saves it. The time from the first keystroke to the saved night's page is
recorded (NIGHT_40_HANDS_SECONDS, with the load average: tests/e2e/timings.py) in var/e2e-timings.txt and the run's
terminal summary, never asserted: it depends on the machine's load.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import member_page
from tests.tables.treasury.night_support import SeededHand, seeded_sheepshead_hands

pytestmark = pytest.mark.e2e

PLAYERS = ["alice", "bob", "carol", "dave", "erin"]
SHOWN = ["Alice", "Bob", "Carol", "Dave", "Erin"]  # their display names, as the sheet's lists show them


def open_sheet(page: Page, server, game: str, players: list[str], stake: str = "100") -> None:
    page.goto(f"{server.url}/treasury/nights/new/")
    page.select_option("select[name=game]", game)
    page.fill("input[name=stake_cents]", stake)
    for number, name in enumerate(players, 1):
        page.fill(f"input[name=seat_{number}]", name)
    page.click("#open-night input[type=submit]")
    page.wait_for_url(re.compile(r".*/treasury/nights/sheet/[^/]+/$"))
    expect(page.locator("#entry")).to_be_visible()


def focused(page: Page) -> str:
    return page.evaluate("() => { const e = document.activeElement; return e ? (e.name || e.id || e.tagName) : '' }")


def wait_for_entry(page: Page, number: int) -> None:
    """Hand `number - 1` is on the sheet and the focus is in the first field of row `number`."""
    page.wait_for_function(
        "n => { const e = document.getElementById('entry'); const a = document.activeElement;"
        " return e && e.dataset.number === String(n) && a && e.contains(a) && a.name === 'picker'; }",
        arg=number, timeout=20_000)


def type_hand(page: Page, hand: SeededHand) -> None:
    keyboard = page.keyboard
    if hand.picker is None:
        keyboard.type("Leaster")
        keyboard.press("Tab")  # partner: stays "alone"
        keyboard.press("Tab")  # picker's points: none in a leaster
        keyboard.press("Tab")
        keyboard.type(" ".join(map(str, hand.leaster_points or [])))
        keyboard.press("Tab")
        keyboard.type(" ".join(map(str, hand.leaster_tricks or [])))
    else:
        keyboard.type(SHOWN[hand.picker])
        keyboard.press("Tab")
        if hand.partner is not None:
            keyboard.type(SHOWN[hand.partner])
        keyboard.press("Tab")
        keyboard.type(str(hand.points))
    keyboard.press("Enter")


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def totals_on(page: Page) -> dict[str, int]:
    rows = page.locator("#night-totals tr[data-member]")
    return {rows.nth(i).locator("th").inner_text(): int(rows.nth(i).get_attribute("data-amount"))
            for i in range(rows.count())}


def test_a_night_of_forty_hands_by_keyboard_alone(browser, server, shots, timings) -> None:
    hands = seeded_sheepshead_hands(seed=2020, count=40, players=5, stake_cents=100)
    expected = {name: sum(hand.money[seat] for hand in hands) for seat, name in enumerate(SHOWN)}
    page = member_page(browser, server, "treasurer")
    open_sheet(page, server, "sheepshead", PLAYERS)
    wait_for_entry(page, 1)

    started = time.monotonic()
    for number, hand in enumerate(hands, 1):
        type_hand(page, hand)
        wait_for_entry(page, number + 1)
        amounts = page.locator(f"#sheet-rows .sheet-row[data-number='{number}'] li[data-amount]")
        assert [int(amounts.nth(i).get_attribute("data-amount")) for i in range(amounts.count())] == hand.money
    for _ in range(30):  # Tab from the next row's first field to "Save the night"
        if focused(page) == "save-night":
            break
        page.keyboard.press("Tab")
    assert focused(page) == "save-night"
    assert totals_on(page) == expected
    page.screenshot(path=str(shots / "treasury-night-sheet-1200x900.png"), full_page=False)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/treasury/nights/\d+/$"))
    expect(page.locator(".messagelist")).to_contain_text("Saved: 40 hands")
    timings("NIGHT_40_HANDS_SECONDS", time.monotonic() - started,
            note="40 Sheepshead hands by keyboard, first keystroke to the saved night's page")

    assert totals_on(page) == expected
    expect(page.locator(".sheet-row.checked")).to_have_count(40)
    page.screenshot(path=str(shots / "treasury-night-saved-1200x900.png"), full_page=False)
    night_url = page.url
    for width, height in ((768, 1024), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(night_url)
        assert no_sideways_scroll(page), f"the saved night scrolls sideways at {width}x{height}"
        page.screenshot(path=str(shots / f"treasury-night-saved-{width}x{height}.png"), full_page=False)
    page.context.close()


@pytest.mark.parametrize("width,height", [(768, 1024), (390, 844)])
def test_the_sheet_on_a_tablet_and_a_phone(browser, server, shots, width, height) -> None:
    """Opened at the size of a tablet or a phone: rows wrap, nothing scrolls sideways, Enter still adds a hand and
    a refused hand says why on its row, keeping the focus there."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    from tests.e2e.conftest import log_in

    log_in(page, server, "treasurer")
    open_sheet(page, server, "sheepshead", PLAYERS, stake="50")
    wait_for_entry(page, 1)
    type_hand(page, SeededHand(picker=0, partner=1, points=75, leaster_points=None, leaster_tricks=None, money=[]))
    wait_for_entry(page, 2)
    page.keyboard.type("Carol")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("119")
    page.keyboard.press("Enter")
    expect(page.locator("#entry .row-error")).to_contain_text("119 points cannot happen")
    expect(page.locator("#entry")).to_have_attribute("data-number", "2")
    assert no_sideways_scroll(page), f"the sheet scrolls sideways at {width}x{height}"
    page.screenshot(path=str(shots / f"treasury-night-sheet-{width}x{height}.png"), full_page=True)
    page.goto(f"{server.url}/treasury/nights/new/")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"treasury-night-new-{width}x{height}.png"), full_page=False)
    context.close()
