"""The treasurer records a Sheepshead hand played at the club's table, in real Chromium, and sees the balances move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page

pytestmark = pytest.mark.e2e


def cents(text: str) -> int:
    found = re.fullmatch(r"([+-]?)\$(\d+)\.(\d\d)", text.strip())
    assert found, text
    sign = -1 if found.group(1) == "-" else 1
    return sign * (int(found.group(2)) * 100 + int(found.group(3)))


def fill_seats(page, names: str) -> None:
    for number, name in enumerate(names.split(), 1):
        page.fill(f"input[name=player_{number}]", name)


def balance_of(page, name: str) -> int:
    row = page.locator(f"#balances tr[data-member='{name}'][data-game='sheepshead'] td.balance")
    return cents(row.inner_text()) if row.count() else 0


def test_the_treasurer_records_an_in_person_hand_and_the_balances_change(browser, server, shots) -> None:
    page = member_page(browser, server, "treasurer")
    page.goto(f"{server.url}/admin/tables/ledgerentry/balances/?game=sheepshead")
    expect(page.locator("#balances")).to_be_visible()
    before = {name: balance_of(page, name) for name in ("Alice", "Bob", "Carol", "Dave", "Erin")}

    page.goto(f"{server.url}/admin/tables/ledgerentry/")
    page.get_by_role("link", name="Record a Sheepshead hand").click()
    # Nonsense first: a partner at a 3-player table is refused with a clear message and nothing is written.
    fill_seats(page, "alice bob carol")
    page.fill("input[name=picker]", "alice")
    page.fill("input[name=partner]", "bob")
    page.fill("input[name=picker_points]", "75")
    page.click("#in-person-form input[type=submit]")
    expect(page.locator(".errornote")).to_contain_text("there is no partner")
    # Then the real hand: five players, alice picks with bob, 75 points, a dollar.
    fill_seats(page, "alice Bob carol dave erin")  # a display name does as well as a username
    page.fill("input[name=stake_cents]", "100")
    page.click("#in-person-form input[type=submit]")
    page.wait_for_url(re.compile(r".*/admin/tables/ledgerentry/balances/.*"))
    expect(page.locator(".messagelist")).to_contain_text("Recorded")
    after = {name: balance_of(page, name) for name in before}
    page.screenshot(path=str(shots / "admin-in-person-balances.png"), full_page=True)
    assert after["Alice"] - before["Alice"] == 200
    assert after["Bob"] - before["Bob"] == 100
    for name in ("Carol", "Dave", "Erin"):
        assert after[name] - before[name] == -100

    # The member sees the hand in their own history too.
    alice = member_page(browser, server, "alice")
    alice.goto(f"{server.url}/history/?game=sheepshead")
    expect(alice.locator("table.history")).to_contain_text("At the club's table")
    expect(alice.locator("tr[data-game='sheepshead'] .balance")).to_have_text(
        f"{'-' if after['Alice'] < 0 else '+' if after['Alice'] > 0 else ''}${abs(after['Alice']) / 100:.2f}"
    )
    alice.screenshot(path=str(shots / "member-history.png"), full_page=True)
    alice.context.close()
    page.context.close()
