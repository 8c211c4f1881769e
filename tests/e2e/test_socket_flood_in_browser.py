"""A page whose socket sends more than its rate (here: the table's chat form sent 40 times at once, more than the
socket's burst of 30) is closed with 4420, says so in its live indicator in words, and does not come back by itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import member_page, new_member, open_table

pytestmark = pytest.mark.e2e

FLOOD = """() => {
  const form = document.querySelector("#chat-form-table");
  const input = form.querySelector("input[name=text]");
  for (let n = 0; n < 40; n++) {
    input.value = "line " + n;
    window.htmx.trigger(form, "submit");
  }
}"""


def test_a_page_over_its_socket_rate_says_so_and_stays_closed(browser, server, e2e_env) -> None:
    page = member_page(browser, server, new_member(e2e_env))
    open_table(page, server, "hawsker", 2, bots=True)
    live = page.locator("#live")
    expect(live).to_have_text("live")
    page.evaluate(FLOOD)
    expect(live).to_have_attribute("data-last-close", "4420")
    expect(live).to_have_text("too many messages at once: reload the page")
    expect(live).not_to_have_class("live")
    expect(live).to_have_attribute("data-opens", "1")  # not reopened: 4420 means stop
    page.reload()  # what the words ask: the page is whole and live again
    expect(page.locator("#live")).to_have_text("live")
