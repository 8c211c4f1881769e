"""The treasurer replaces a hand recorded with the wrong member, in real Chromium: the form starts with the old hand,
the preview shows the old and new settlement side by side, and "Replace" writes both in one step."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page

pytestmark = pytest.mark.e2e


def test_the_treasurer_replaces_a_wrong_member_after_a_preview(browser, server, shots) -> None:
    page = member_page(browser, server, "treasurer")
    note = f"replace-e2e-{uuid.uuid4().hex[:8]}"
    # The hand as first (wrongly) recorded: Erin in seat 5, where Frank sat.
    page.goto(f"{server.url}/admin/tables/inpersonrecord/record/sheepshead/")
    for seat, name in enumerate(["alice", "bob", "carol", "dave", "erin"], 1):
        page.fill(f"input[name=player_{seat}]", name)
    page.fill("input[name=picker]", "alice")
    page.fill("input[name=partner]", "bob")
    page.fill("input[name=picker_points]", "75")
    page.fill("input[name=note]", note)
    page.click("#in-person-form input[type=submit]")
    expect(page.locator(".messagelist")).to_contain_text("Recorded")

    page.goto(f"{server.url}/admin/tables/inpersonrecord/?q={note}")
    page.locator("#result_list tbody tr th a").first.click()
    page.get_by_role("link", name="Replace this hand…").click()
    expect(page.locator("#id_seat_5")).to_have_value("erin")
    expect(page.locator("#id_picker")).to_have_value("alice")

    page.fill("#id_seat_5", "Frank")  # by display name
    with page.expect_response(lambda response: "/replace/" in response.url):
        page.get_by_role("button", name="Preview").click()
    comparison = page.locator("#comparison")
    expect(comparison).to_be_visible()
    expect(comparison.locator("tr[data-member='Erin'] td.old")).to_have_text("-$1.00")
    expect(comparison.locator("tr[data-member='Erin'] td.new")).to_have_text("—")
    expect(comparison.locator("tr[data-member='Frank'] td.new")).to_have_text("-$1.00")
    expect(comparison.locator("tr[data-member='Alice'] td.difference")).to_have_text("$0.00")
    page.screenshot(path=str(shots / "treasury-replace-preview.png"), full_page=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.goto(page.url)
    small.fill("#id_seat_5", "frank")
    with small.expect_response(lambda response: "/replace/" in response.url):
        small.get_by_role("button", name="Preview").click()
    expect(small.locator("#comparison tr[data-member='Frank'] td.new")).to_have_text("-$1.00")
    small.screenshot(path=str(shots / "treasury-replace-preview-phone.png"), full_page=True)
    phone.close()

    # Without a reason nothing is written; with one, the hand is replaced.
    page.get_by_role("button", name="Replace").click()
    expect(page.locator(".errornote")).to_contain_text("Say why the hand is replaced")
    page.fill("#id_reason", "Frank sat in seat 5, not Erin")
    page.get_by_role("button", name="Replace").click()
    page.wait_for_url(re.compile(r".*/admin/tables/inpersonrecord/\d+/change/"))
    expect(page.locator(".messagelist")).to_contain_text("Replaced in-person result")
    expect(page.locator("body")).to_contain_text("Frank sat in seat 5, not Erin")
    expect(page.locator(".field-summary_shown")).to_contain_text("Frank -$1.00")
    page.screenshot(path=str(shots / "treasury-replace-done.png"), full_page=True)
    page.context.close()
