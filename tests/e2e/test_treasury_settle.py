"""The treasurer settles the month in two clicks and prints a member's statement, in real Chromium; screenshots of
both pages (desktop, phone and print emulation) and PDFs land in var/screenshots/ for a person to look at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page

pytestmark = pytest.mark.e2e


def pdf_pages(pdf: bytes) -> int:
    """The page count of Chromium's PDF: its page tree's /Count (a page object may sit in a compressed stream)."""
    counts = [int(n) for n in re.findall(rb"/Count\s+(\d+)", pdf)]
    assert counts, pdf[:200]
    return max(counts)


def cents(text: str) -> int:
    found = re.fullmatch(r"([+-]?)\$(\d+)\.(\d\d)", text.strip())
    assert found, text
    return (-1 if found.group(1) == "-" else 1) * (int(found.group(2)) * 100 + int(found.group(3)))


def test_the_treasurer_settles_up_and_prints_a_statement(browser, server, shots) -> None:
    page = member_page(browser, server, "treasurer")
    page.goto(f"{server.url}/admin/tables/ledgerentry/")
    page.get_by_role("link", name="Settle up").click()  # first click: open the page
    expect(page.locator("#balances")).to_be_visible()
    balances = [cents(cell) for cell in page.locator("#balances td.balance").all_inner_texts()]
    assert balances and sum(balances) == 0, balances  # the seeded games include bots: the house squares them
    expect(page.locator("#payments")).to_be_visible()
    for line in page.locator("#payments li").all_inner_texts():
        assert re.fullmatch(r".+ pays .+ \$\d+\.\d\d", line), line
    page.screenshot(path=str(shots / "treasury-settle.png"), full_page=True)
    page.emulate_media(media="print")
    page.screenshot(path=str(shots / "treasury-settle-print.png"), full_page=True)
    expect(page.locator("#header")).to_be_hidden()
    page.emulate_media(media="screen")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.goto(page.url)
    expect(small.locator("#mark-settled")).to_be_visible()
    small.screenshot(path=str(shots / "treasury-settle-phone.png"), full_page=True)
    phone.close()

    through = page.locator("#settle-form input[name=through]").input_value()
    page.click("#mark-settled")  # second click: confirm
    # Other e2e tests' bot tables may still be finishing hands: those wait for the next settlement, they do not
    # stop this one (the unit tests pin "nothing since" and the entries left open).
    expect(page.locator(".messagelist")).to_contain_text("Settled")
    expect(page.locator("#past-settlements tbody tr")).not_to_have_count(0)
    settled_through = page.locator("#settle-form input[name=through]")
    if settled_through.count():
        assert int(settled_through.input_value()) > int(through)
    else:
        expect(page.locator("#balances")).to_contain_text("Nothing has been played since the last settlement")

    page.goto(f"{server.url}/treasury/statements/")
    page.fill("#id_member", "alice")
    page.select_option("#id_game", "sheepshead")
    page.click("form.period input[type=submit]")
    statement = page.locator("article.statement")
    expect(statement).to_be_visible()
    expect(statement.locator("h2")).to_contain_text("Statement for")
    rows = statement.locator("tr.entry")
    expect(rows.first).to_be_visible()
    expect(page.locator("#statement-csv")).to_be_visible()
    page.screenshot(path=str(shots / "treasury-statement.png"), full_page=True)
    page.emulate_media(media="print")
    expect(page.locator("#header")).to_be_hidden()
    expect(page.locator(".breadcrumbs")).to_be_hidden()
    expect(page.locator("form.period")).to_be_hidden()
    expect(statement).to_be_visible()
    page.screenshot(path=str(shots / "treasury-statement-print.png"), full_page=True)
    # Printed: the statement alone (other e2e tests add alice's hands, so it may run to more than one page).
    assert pdf_pages(page.pdf(path=str(shots / "treasury-statement.pdf"), format="A4")) >= 1
    page.emulate_media(media="screen")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.goto(page.url)
    expect(small.locator("article.statement")).to_be_visible()
    small.screenshot(path=str(shots / "treasury-statement-phone.png"), full_page=True)
    phone.close()

    page.goto(f"{server.url}/treasury/statements/everyone/?game=sheepshead")
    expect(page.locator("article.statement").first).to_be_visible()
    members = page.locator("article.statement").count()
    page.emulate_media(media="print")  # page.pdf() prints with the media last emulated, and screen was, above
    pdf = page.pdf(format="A4")
    (shots / "treasury-statements-everyone.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) >= members > 1, (pdf_pages(pdf), members)  # each member's statement on a page of its own
    page.context.close()
