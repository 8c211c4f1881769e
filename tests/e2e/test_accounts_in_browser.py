"""A newcomer's first minutes, in real Chromium."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import log_in

pytestmark = pytest.mark.e2e

PASSWORD = "a-browser-password-93"


def confirmation_link(server, email: str, timeout: float = 30.0) -> str:
    """The link of the confirmation mailed to `email`: the site prints its mails on its console (the server's log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log()
        start = log.rfind(f"To: {email}")
        if start >= 0 and (found := re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", log[start:])):
            return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no confirmation mailed to {email} in the server's log")


def test_newcomer_signs_up_logs_out_logs_in_and_sees_members_arrive(browser, server, shots) -> None:
    newcomer = browser.new_context()
    page = newcomer.new_page()
    page.goto(server.url)
    page.get_by_role("link", name="Join the club").first.click()
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=email]", "newcomer@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.fill("input[name=display_name]", "Nell Newcomer")
    page.click("main form button[type=submit]")  # main: the header has forms too (language)
    # Not in until the address is confirmed: the same answer whether or not the address was a member's already.
    page.wait_for_url(f"{server.url}/accounts/confirm-email/")
    page.goto(server.url + confirmation_link(server, "newcomer@example.org"))
    page.click("main form button[type=submit]")
    log_in(page, server, "newcomer", PASSWORD)
    expect(page.get_by_test_id("who")).to_have_text("Nell Newcomer")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()

    log_in(page, server, "newcomer@example.org", PASSWORD)
    count = page.locator("#online-count")
    expect(count).to_have_attribute("data-count", "1")
    page.screenshot(path=str(shots / "lobby-one-member.png"))

    second = browser.new_context()
    other = second.new_page()
    log_in(other, server, "bob")
    expect(count).to_have_attribute("data-count", "2")
    expect(count).to_have_text("2 members online")
    page.screenshot(path=str(shots / "lobby-two-members.png"))

    second.close()
    expect(count).to_have_attribute("data-count", "1")
    newcomer.close()
