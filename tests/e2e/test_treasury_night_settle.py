"""The treasurer settles a saved club night at the table, in real Chromium: a 6-player, 40-hand Sheepshead night's
"who pays whom" for that night alone, a partial payment recorded through the page, and the sheet printed on ONE
A4 page without the admin's chrome or the form. Screenshots (screen, print, phone) and the PDF land in
var/screenshots/ for a person to look at."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page
from tests.e2e.test_treasury_settle import cents, pdf_pages
from tests.servers import manage

pytestmark = pytest.mark.e2e

NAMES = ["Anna", "Bruno", "Clara", "Dieter", "Emil", "Frieda"]

# Six members of the test's own and their night of 40 seeded hands, saved through the night sheet's services (the
# keyboard entry of a whole night has its own test: tests/e2e/test_treasury_night.py). Prints the night's id.
MAKE_NIGHT = """
from accounts.models import User
from tables.treasury.services import nights
from tests.tables.treasury.night_support import seeded_sheepshead_hands
admin = User.objects.get(username="treasurer")
players = [User.objects.create_user(username=f"{prefix}{n}", email=f"{prefix}{n}@example.org", password="x",
                                    display_name=name) for n, name in enumerate(NAMES)]
draft = nights.open_sheet(admin=admin, game="sheepshead", played_on=None, players=players, stake_cents=50,
                          note="Table 2")
for hand in seeded_sheepshead_hands(seed=42, count=40, players=6, stake_cents=50):
    nights.add_row(admin=admin, draft=draft, version=draft.version, members=players, row=hand.row(players))
print("night", nights.save_night(admin=admin, draft=draft, version=draft.version, members=players).night.pk)
"""


def test_the_treasurer_settles_a_night_and_prints_it_on_one_page(browser, server, e2e_env, shots) -> None:
    prefix = f"ns{uuid.uuid4().hex[:6]}_"
    said = manage("shell", "-c", f"prefix = {prefix!r}\nNAMES = {NAMES!r}\n{MAKE_NIGHT}", env=e2e_env)
    night = int(re.search(r"night (\d+)", said).group(1))

    page = member_page(browser, server, "treasurer")
    page.goto(f"{server.url}/treasury/nights/{night}/")
    page.locator("#settle-night").click()
    expect(page.locator("#night-balances")).to_be_visible(timeout=20_000)
    owed = [cents(text) for text in page.locator("#night-balances td.owed").all_inner_texts()]
    assert len(owed) == 6 and sum(owed) == 0 and any(owed), owed
    lines = page.locator("#to-pay li")
    expect(lines.first).to_be_visible()
    assert 1 <= lines.count() <= 5  # never more than one fewer than the players
    for text in lines.all_inner_texts():
        assert re.fullmatch(r"\s*\S+ pays \S+ \$\d+\.\d\d", text), text
    page.screenshot(path=str(shots / "treasury-night-settle.png"), full_page=True)

    first = lines.first
    payer, payee, amount = (first.get_attribute(name) for name in ("data-payer", "data-payee", "data-amount"))
    part = int(amount) // 2 or int(amount)
    before = int(page.locator(f"#night-balances tr[data-member='{payer}']").get_attribute("data-owed"))
    page.select_option("#id_payer", payer)
    page.select_option("#id_payee", payee)
    page.fill("#id_amount", f"{part / 100:.2f}")
    page.click("#record")
    expect(page.locator(".messagelist")).to_contain_text("Recorded:", timeout=20_000)
    expect(page.locator("#made li")).to_have_count(1)
    expect(page.locator(f"#night-balances tr[data-member='{payer}']")).to_have_attribute(
        "data-owed", str(before + part))

    page.emulate_media(media="print")
    expect(page.locator("#header")).to_be_hidden()
    expect(page.locator(".breadcrumbs")).to_be_hidden()
    expect(page.locator("#record-payment")).to_be_hidden()
    expect(page.locator("#to-pay")).to_be_visible()
    page.screenshot(path=str(shots / "treasury-night-settle-print.png"), full_page=True)
    pdf = page.pdf(format="A4")
    (shots / "treasury-night-settle.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
    page.emulate_media(media="screen")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.goto(page.url)
    expect(small.locator("#record")).to_be_visible()
    small.screenshot(path=str(shots / "treasury-night-settle-phone.png"), full_page=True)
    phone.close()
    page.context.close()
