"""A member away from a running table, in real Chromium (issue 41; README, "When a member is away"): the bot
finishes the round they left in; after it the other member chooses to go on with the bot, and the next round is the
house's in the away member's seat; the member who takes the seat back is told what was played for them."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_life import (
    LEAVE,
    click_one,
    is_to_act,
    my_position,
    play_until_turn_of,
    seat,
    two_members_at_puskiyon,
)

pytestmark = pytest.mark.e2e


def test_a_member_who_leaves_has_the_house_play_their_seat_from_the_next_round_and_is_told_when_back(
        browser, server, e2e_env, shots: Path) -> None:
    x, y, _url = two_members_at_puskiyon(browser, server, e2e_env)
    x_seat, y_seat = my_position(x), my_position(y)
    play_until_turn_of(y_seat, x, y)
    click_one(y, y.locator("#board [data-move]").first)  # Y has moved: the match counts

    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    y.once("dialog", answer)
    with y.expect_response(lambda response: "/leave/" in response.url) as left:
        y.locator("#board").get_by_role("button", name=LEAVE).click()
    assert left.value.status == 200, left.value.text()
    assert asked and asked[0].startswith("Leave the table? The bot finishes this round for you"), asked
    expect(y.locator("#board").get_by_role("button", name="Take my seat back")).to_be_visible()

    # X plays the round out; the bot plays Y's turns.
    result = x.locator("#board .result")
    deadline = time.monotonic() + 240  # a whole Puskiyon round: on a loaded machine each of its moves is slower
    while time.monotonic() < deadline:
        if result.count():
            break
        moves = x.locator("#board [data-move]")
        if is_to_act(x, x_seat) and moves.count():
            click_one(x, moves.first)
        else:
            x.wait_for_timeout(100)  # polling for the bot's move: the assertion is the result below
    expect(result).to_be_visible()
    choice = x.locator("#board .away-choice")
    expect(choice).to_contain_text(re.compile(r"is away: unless you wait, the house plays that seat"))
    expect(choice.get_by_role("button", name=re.compile(r"^Wait for "))).to_be_visible()
    x.screenshot(path=str(shots / "away-choice-desktop.png"), full_page=True)
    choice.get_by_role("button", name="Go on with the bot").click()

    # Round 2 is dealt with the house in Y's seat.
    expect(x.locator("#board h1")).to_contain_text("round 2")
    expect(seat(x, y_seat)).to_have_attribute("data-presence", "bot")
    expect(seat(x, y_seat)).to_contain_text("the house plays this round")

    # Y comes back: the house keeps the seat for this round, and Y is told what was played for them.
    y.locator("#board").get_by_role("button", name="Take my seat back").click()
    report = y.locator("#board .away-report")
    expect(report).to_contain_text("While you were away")
    expect(report).to_contain_text(re.compile(r"Round 1: the bot played for you; its result, .+, is yours\."))
    expect(report).to_contain_text("The house plays your seat in this round")
    expect(y.locator("#board .hand .card[data-move]")).to_have_count(0)
    y.screenshot(path=str(shots / "away-report-desktop.png"), full_page=True)
    report.get_by_role("button", name="Close").click()
    expect(y.locator("#board .away-report")).to_have_count(0)
