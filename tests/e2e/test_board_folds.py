"""What a member unfolds on the board (house rules, card order, the score sheet) stays unfolded while the
board is replaced by every move that follows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import board_version, click_move, member_page, new_member
from tests.e2e.test_table_life import open_paced_table

pytestmark = pytest.mark.e2e


def test_an_unfolded_section_stays_open_across_the_bots_moves(browser, server, e2e_env) -> None:
    page = member_page(browser, server, new_member(e2e_env))
    open_paced_table(page, server, "hawk", 4, bots=True, speed="brisk")
    rules = page.locator("#board details.house-rules")
    expect(rules).to_have_count(1)
    rules.locator("summary").click()
    expect(rules).to_have_attribute("open", "")
    expect(page.locator("#board [data-move]").first).to_be_visible()
    click_move(page)
    after_mine = board_version(page)
    # the bots' boards replace this one, one move each
    page.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v + 2",
                           arg=after_mine)
    expect(page.locator("#board details.house-rules")).to_have_attribute("open", "")
    page.locator("#board details.house-rules summary").click()  # and folded again, it stays folded
    expect(page.locator("#board details.house-rules")).not_to_have_attribute("open", "")
