"""A treasurer's night entered on a laptop and a phone in turn, in real Chromium: the sheet is on the server.

The laptop (1366x768) opens the sheet and types the first hands, and its browser is closed; the phone (390x844,
touch), logged in on its own, finds the sheet under "Open sheets", taps in more and voids a misdealt hand (it stays
on the sheet, numbered, and is not booked); the laptop carries on the same way, then the phone saves the night. The
laptop's page, still open from before, saves too and is told the night was already saved: one night, every hand.
Screenshots of the open sheets and the sheet on the phone are left in var/screenshots.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import log_in
from tests.e2e.test_treasury_night import PLAYERS, SHOWN, no_sideways_scroll, open_sheet, totals_on, type_hand
from tests.tables.treasury.night_support import SeededHand, seeded_sheepshead_hands

pytestmark = pytest.mark.e2e

WAIT = 30_000  # ms: a loaded machine answers slowly, never wrongly


def device(browser, server, width: int, height: int, *, phone: bool) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone)
    page = context.new_page()
    log_in(page, server, "treasurer")
    return page


def entry_ready(page: Page, number: int) -> None:
    """Row `number` is the one being entered (the hands before it are on the sheet)."""
    expect(page.locator("#entry")).to_have_attribute("data-number", str(number), timeout=WAIT)


def resume_from_open_sheets(page: Page, server, token: str, hands_so_far: int, listed: str) -> None:
    page.goto(f"{server.url}/treasury/nights/")
    page.locator("a.night-open-sheets").click()
    sheet = page.locator(f"#open-sheets li.open-sheet[data-token='{token}']")
    expect(sheet).to_contain_text(listed, timeout=WAIT)
    expect(sheet).to_contain_text(", ".join(SHOWN))
    sheet.locator("a.open-sheet-link").click()
    page.wait_for_url(re.compile(r".*/treasury/nights/sheet/[^/]+/$"), timeout=WAIT)
    expect(page.locator("#sheet-rows .sheet-row.checked")).to_have_count(hands_so_far, timeout=WAIT)


def tap_hand(page: Page, hand: SeededHand) -> None:
    """A hand as a phone enters it: choosing from the lists and typing the numbers, then tapping "Add hand"."""
    entry = page.locator("#entry")
    if hand.picker is None:
        entry.locator("select[name=picker]").select_option(value="leaster")
        entry.locator("input[name=leaster_points]").fill(" ".join(map(str, hand.leaster_points or [])))
        entry.locator("input[name=leaster_tricks]").fill(" ".join(map(str, hand.leaster_tricks or [])))
    else:
        entry.locator("select[name=picker]").select_option(label=SHOWN[hand.picker])
        if hand.partner is not None:
            entry.locator("select[name=partner]").select_option(label=SHOWN[hand.partner])
        entry.locator("input[name=points]").fill(str(hand.points))
    entry.locator("button.check").tap()


def test_a_night_entered_on_a_laptop_and_a_phone_in_turn_is_saved_once(browser, server, shots) -> None:
    hands = seeded_sheepshead_hands(seed=4242, count=8, players=5, stake_cents=100)
    voided = 2  # the paper's hand 2 was a misdeal: the phone voids it, it stays on the sheet and counts nothing
    expected = {name: sum(hand.money[seat] for number, hand in enumerate(hands, 1) if number != voided)
                for seat, name in enumerate(SHOWN)}

    laptop = device(browser, server, 1366, 768, phone=False)
    open_sheet(laptop, server, "sheepshead", PLAYERS)
    token = laptop.url.rstrip("/").rsplit("/", 1)[-1]
    for number, hand in enumerate(hands[:3], 1):
        entry_ready(laptop, number)
        expect(laptop.locator("#entry select[name=picker]")).to_be_focused(timeout=WAIT)
        type_hand(laptop, hand)
    entry_ready(laptop, 4)
    laptop.context.close()  # the laptop's browser is closed: nothing is lost, the sheet is on the server

    phone = device(browser, server, 390, 844, phone=True)
    resume_from_open_sheets(phone, server, token, 3, "3 hands so far")
    phone.goto(f"{server.url}/treasury/nights/sheets/")
    assert no_sideways_scroll(phone), "the open sheets scroll sideways on a phone"
    phone.screenshot(path=str(shots / "treasury-open-sheets-390x844.png"), full_page=True)
    phone.locator(f"#open-sheets li[data-token='{token}'] a.open-sheet-link").click()
    for number, hand in enumerate(hands[3:6], 4):
        entry_ready(phone, number)
        tap_hand(phone, hand)
    entry_ready(phone, 7)
    phone.locator(f"#row-{voided} details.row-actions summary").tap()
    phone.locator(f"#row-{voided} .row-void input[name=reason]").fill("misdeal")
    phone.locator(f"#row-{voided} .row-void button").tap()
    expect(phone.locator(f"#row-{voided}")).to_have_attribute("data-void", "1", timeout=WAIT)
    expect(phone.locator(f"#row-{voided} .row-summary")).to_contain_text("misdeal")
    assert no_sideways_scroll(phone), "the sheet scrolls sideways on a phone"
    phone.locator("#row-5 details.row-actions summary").tap()
    expect(phone.locator("#row-5 .row-by")).to_contain_text("Entered by", timeout=WAIT)
    phone.screenshot(path=str(shots / "treasury-night-sheet-phone-390x844.png"), full_page=True)

    laptop = device(browser, server, 1366, 768, phone=False)
    resume_from_open_sheets(laptop, server, token, 6, "5 hands so far (and 1 void)")
    for number, hand in enumerate(hands[6:], 7):
        entry_ready(laptop, number)
        expect(laptop.locator("#entry select[name=picker]")).to_be_focused(timeout=WAIT)
        type_hand(laptop, hand)
    entry_ready(laptop, 9)
    assert totals_on(laptop) == expected
    laptop.screenshot(path=str(shots / "treasury-night-sheet-laptop-1366x768.png"), full_page=False)

    # The phone, reloading, sees the laptop's hands and saves the night.
    phone.reload()
    expect(phone.locator("#sheet-rows .sheet-row.checked")).to_have_count(8, timeout=WAIT)
    phone.locator("#save-night").tap()
    phone.wait_for_url(re.compile(r".*/treasury/nights/\d+/$"), timeout=WAIT)
    expect(phone.locator(".messagelist")).to_contain_text("Saved: 7 hands", timeout=WAIT)
    night_url = phone.url

    # The laptop's page, loaded before the phone saved, saves too: told so, and nothing more is written.
    laptop.locator("#save-night").click()
    laptop.wait_for_url(night_url, timeout=WAIT)
    expect(laptop.locator(".messagelist")).to_contain_text("already saved", timeout=WAIT)
    expect(laptop.locator(".sheet-row.checked")).to_have_count(7, timeout=WAIT)  # the void hand is not booked
    expect(laptop.locator(f".sheet-row.checked[data-number='{voided}']")).to_have_count(0)
    assert totals_on(laptop) == expected
    laptop.goto(f"{server.url}/treasury/nights/")
    assert laptop.locator(f"#nights a[href='{night_url.removeprefix(server.url)}']").count() == 1
    laptop.goto(f"{server.url}/treasury/nights/sheets/")
    expect(laptop.locator("#open-sheets")).to_be_visible(timeout=WAIT)
    assert laptop.locator(f"#open-sheets li[data-token='{token}']").count() == 0
    laptop.context.close()
    phone.context.close()
