"""Table life in real Chromium (issue 17): who is at the table, bots at the table's pace, tables that close.

Every board the table page shows is recorded in the page itself (`RECORD_BOARDS`: a MutationObserver that
notes each new `#board` version with its seats, in the order the page showed them), so the tests assert
what a member saw and in which order, never how fast it came. Boards are read only by the markup hooks of
/work/shared/ARCHITECTURE.md: `#board[data-version]`, `.seat[data-seat][data-presence][data-cards]`, `.me`,
`.to-act`, `.hand .card[data-move]`; and by visible text for the close reason and the buttons.

The e2e server runs its own table clock; each test's table is opened from the lobby's form with bots at the
"normal" speed and, where a member goes offline, a small grace (3 s) before the bot plays for them.
"""

from __future__ import annotations

import re
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tables.play.services.tables import EVERYONE_LEFT
from tests.e2e.conftest import expect_new_board, in_step, member_page, new_member

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
GRACE_SECONDS = 3
# "Leave (a bot plays for me)"; the last member's button says what leaving does there: "Leave (the table closes)".
LEAVE = re.compile(r"^Leave \(")

# Each board the page shows, once per version, in the order shown: its version, the seat to act, and each
# seat's position, cards held and presence; `at` is the page's clock (for the recorded timings only).
RECORD_BOARDS = """
(() => {
  if (window.__boards) return;
  window.__boards = [];
  const number = (text) => (text === undefined || text === null || text === "" ? null : Number(text));
  const note = () => {
    const board = document.getElementById("board");
    if (!board) return;
    const version = number(board.dataset.version);
    const last = window.__boards[window.__boards.length - 1];
    if (last && last.version === version) return;
    const seats = Array.from(board.querySelectorAll(".seat")).map((seat) => ({
      seat: number(seat.dataset.seat), cards: number(seat.dataset.cards), presence: seat.dataset.presence || null,
      toAct: seat.classList.contains("to-act"), me: seat.classList.contains("me"),
    }));
    const toAct = seats.find((seat) => seat.toAct);
    window.__boards.push({version, toAct: toAct ? toAct.seat : null, seats, at: Date.now()});
  };
  note();
  new MutationObserver(note).observe(document.documentElement, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-version"]});
})();
"""


def record_boards(page: Page) -> None:
    page.evaluate(RECORD_BOARDS)


def boards(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("window.__boards")


def version_of(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def my_position(page: Page) -> int:
    return int(page.locator("#board .seat.me").get_attribute("data-seat"))


def seat(page: Page, position: int):
    return page.locator(f"#board .seat[data-seat='{position}']")


def is_to_act(page: Page, position: int) -> bool:
    return "to-act" in (seat(page, position).get_attribute("class") or "").split()


def open_paced_table(page: Page, server, game: str, players: int, *, bots: bool, speed: str = "normal",
                     grace: int | None = None, turn_seconds: int | None = None) -> str:
    """As the conftest's `open_table`, with the table's pace chosen in the form (bot speed, the grace before the
    bot plays for an offline member, time per turn); returns the table's URL."""
    page.goto(f"{server.url}/lobby/")
    with page.expect_response(lambda response: "/lobby/new/" in response.url):
        page.select_option("#id_game", game)
    page.wait_for_selector(f"#new-table[data-game={game}] #id_players option[value='{players}']", state="attached")
    form = page.locator("#new-table")
    form.locator("[name=players]").select_option(str(players))
    form.locator("[name=bot_speed]").select_option(speed)
    if grace is not None:
        form.locator("[name=grace_seconds]").fill(str(grace))
    if turn_seconds is not None:
        form.locator("[name=turn_seconds]").fill(str(turn_seconds))
    form.locator("[name=fill_with_bots]").set_checked(bots)
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{server.url}/t/**")
    expect(page.locator("#board")).to_be_visible()
    return page.url


def click_one(page: Page, locator) -> str:
    """Click one move and wait for the board to move on (no refusal); returns the move."""
    before = version_of(page)
    move = locator.get_attribute("data-move")
    locator.click()
    expect_new_board(page, before, move)
    return move


def screenshots(page: Page, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def two_members_at_puskiyon(browser, server, e2e_env) -> tuple[Page, Page, str]:
    """X opens a two-player Puskiyon table (strict turns: after X's move, it is the other's, draws aside) with a
    small grace and long turns, and Y takes the other seat."""
    x = member_page(browser, server, new_member(e2e_env))
    y = member_page(browser, server, new_member(e2e_env))
    url = open_paced_table(x, server, "puskiyon", 2, bots=False, grace=GRACE_SECONDS, turn_seconds=600)
    y.goto(url)
    y.get_by_role("button", name="Take a seat").click()
    for page in (x, y):
        expect(page.locator("#board .hand")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
    in_step(x, y)
    return x, y, url


def play_until_turn_of(position: int, mover: Page, watcher: Page) -> None:
    """`mover` (the other member) makes moves until `position` is to act, as `watcher` sees it too."""
    for _ in range(30):
        in_step(watcher, mover)
        if is_to_act(mover, position):
            return
        expect(mover.locator("#board .seat.me")).to_have_class(re.compile(r"\bto-act\b"))
        click_one(mover, mover.locator("#board [data-move]").first)
    pytest.fail(f"seat {position} never came to act")


def test_an_offline_member_is_shown_so_the_bot_plays_for_them_after_the_grace_and_they_come_back(
        browser, server, e2e_env, shots, timings) -> None:
    x, y, url = two_members_at_puskiyon(browser, server, e2e_env)
    x_seat, y_seat = my_position(x), my_position(y)
    expect(seat(y, x_seat)).to_have_attribute("data-presence", "online")
    expect(seat(x, y_seat)).to_have_attribute("data-presence", "online")
    play_until_turn_of(x_seat, y, x)

    # X's turn, and X closes the page.
    record_boards(y)
    closed_at_version = version_of(y)
    closed_at = y.evaluate("Date.now()")
    started = time.monotonic()
    x.close()
    expect(seat(y, x_seat)).to_have_attribute("data-presence", "offline")
    seen_offline = time.monotonic() - started
    # After the grace the bot plays X's turn (and the turn after a draw), and it is Y's turn again, X still away.
    expect(y.locator("#board .seat.me")).to_have_class(re.compile(r"\bto-act\b"))
    seen_bot_move = time.monotonic() - started
    expect(seat(y, x_seat)).to_have_attribute("data-presence", "offline")
    assert version_of(y) > closed_at_version

    recorded = boards(y)
    x_cards = next(s["cards"] for s in recorded[0]["seats"] if s["seat"] == x_seat)
    shown = [b for b in recorded if b["version"] > closed_at_version]
    x_line = [{s["seat"]: s for s in b["seats"]}[x_seat] for b in shown]
    # X is shown offline no later than the bot's first move for X, and stays so. (The board in between, X offline
    # and still to act during the grace, is there unless the table clock ran late by more than the grace: then
    # the flip and the bot's move are one step, as the grace counts from when X went offline.)
    first_offline = next((i for i, line in enumerate(x_line) if line["presence"] == "offline"), None)
    first_moved = next((i for i, (b, line) in enumerate(zip(shown, x_line, strict=True))
                        if b["toAct"] != x_seat or line["cards"] != x_cards), None)
    assert recorded[0]["version"] == closed_at_version and recorded[0]["toAct"] == x_seat, recorded
    assert first_offline is not None and first_moved is not None, shown
    assert first_offline <= first_moved, shown
    assert all(line["presence"] == "offline" for line in x_line[first_offline:]), shown
    offline_after = (shown[first_offline]["at"] - closed_at) / 1000
    moved_after = (shown[first_moved]["at"] - closed_at) / 1000
    timings("CLOSE_TO_SHOWN_OFFLINE_SECONDS", offline_after,
            note=f"{seen_offline:.1f} s as the test saw it; shown offline after 2 s by design")
    timings("CLOSE_TO_BOT_MOVE_SECONDS", moved_after,
            note=f"grace {GRACE_SECONDS} s; Y's turn again seen after {seen_bot_move:.1f} s; "
                 f"boards between: {first_moved - first_offline}")
    screenshots(y, shots, "table-life-offline-member")

    # X opens the table again: online for Y at once, and X's own turn is X's to play, not the bot's.
    x = x.context.new_page()
    x.goto(url)
    expect(x.locator("#live")).to_have_text("live")
    expect(seat(y, x_seat)).to_have_attribute("data-presence", "online")
    expect(seat(x, x_seat)).to_have_attribute("data-presence", "online")
    for _ in range(30):
        in_step(x, y)
        if is_to_act(y, y_seat):
            click_one(y, y.locator("#board [data-move]").first)
            continue
        expect(x.locator("#board .seat.me")).to_have_class(re.compile(r"\bto-act\b"))
        card = x.locator("#board .hand .card[data-move]")
        if card.count() == 0:  # nothing to play: X draws (or passes), X's own move all the same
            click_one(x, x.locator("#board [data-move]").first)
            continue
        cards_before = int(seat(y, x_seat).get_attribute("data-cards"))
        played = click_one(x, card.first)  # taken (200) at X's version: the bot did not move for X meanwhile
        expect(x.locator(f"#board .hand .card[data-move='{played}']")).to_have_count(0)
        in_step(y, x)
        expect(seat(y, x_seat)).to_have_attribute("data-cards", str(cards_before - 1))
        expect(seat(y, x_seat)).to_have_attribute("data-presence", "online")
        break
    else:
        pytest.fail("X never had a card to play")


def assert_one_move_per_board(shown: list[dict[str, Any]], players: int) -> int:
    """Each board after the first is the next version and exactly one card more on the table, played by the seat
    the board before had to act; the turn then passes to the next seat, or, once a trick is complete (every hand
    the same size), to whoever took it. Returns how many of the moves were the bots'."""
    bot_moves = 0
    for before, after in pairwise(shown):
        assert after["version"] == before["version"] + 1, (before, after)
        cards_before = {s["seat"]: s["cards"] for s in before["seats"]}
        cards_after = {s["seat"]: s["cards"] for s in after["seats"]}
        movers = [p for p in cards_after if cards_after[p] != cards_before[p]]
        assert len(movers) == 1, (before, after)
        mover = movers[0]
        assert cards_after[mover] == cards_before[mover] - 1, (before, after)
        assert mover == before["toAct"], (before, after)
        if len(set(cards_after.values())) > 1:  # the trick goes on
            assert after["toAct"] == (mover + 1) % players, (before, after)
        presence = {s["seat"]: s["presence"] for s in before["seats"]}
        if presence[mover] == "bot":
            bot_moves += 1
    return bot_moves


def test_bot_moves_arrive_one_board_each_in_order(browser, server, e2e_env) -> None:
    page = member_page(browser, server, new_member(e2e_env))
    open_paced_table(page, server, "hawk", 4, bots=True, speed="normal")
    expect(page.locator("#live")).to_have_text("live")
    record_boards(page)
    me = my_position(page)
    for position in range(4):
        expect(seat(page, position)).to_have_attribute("data-presence", "online" if position == me else "bot")

    played = 0
    bot_moves = 0
    while played < 4:
        mine = page.locator("#board .seat.me")
        expect(mine).to_have_class(re.compile(r"\bto-act\b"))
        since = len(boards(page)) - 1
        click_one(page, page.locator("#board .hand .card[data-move]").first)
        played += 1
        # The bots answer one card at a time; the member's turn comes back (or the member took the trick).
        expect(mine).to_have_class(re.compile(r"\bto-act\b"))
        expect(page.locator("#board .hand .card[data-move]").first).to_be_enabled()
        shown = boards(page)[since:]
        bot_moves += assert_one_move_per_board(shown, 4)
        if bot_moves >= 3:
            break
    assert bot_moves >= 3, boards(page)
    whole = boards(page)
    assert_one_move_per_board(whole, 4)  # and across the member's turns: nothing skipped, nothing twice


def test_the_last_member_leaving_lets_the_bots_finish_the_round_and_closes_the_table(browser, server, e2e_env,
                                                                                      shots) -> None:
    page = member_page(browser, server, new_member(e2e_env))
    url = open_paced_table(page, server, "hawk", 4, bots=True, speed="normal")
    code = url.rstrip("/").split("/")[-1]
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#board .hand .card").first).to_be_visible()
    # The member moves once: until a member has moved, a match counts for nothing and no bot plays on for nobody.
    expect(page.locator("#board [data-move]").first).to_be_enabled()
    click_one(page, page.locator("#board [data-move]").first)
    lobby = page.context.new_page()
    lobby.goto(f"{server.url}/lobby/")
    expect(lobby.locator(f"[data-table='{code}']")).to_be_visible()

    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    with page.expect_response(lambda response: "/leave/" in response.url) as left:
        page.locator("#board").get_by_role("button", name=LEAVE).click()
    assert left.value.status == 200, left.value.text()
    assert len(asked) == 1
    assert re.search(r"\bbots?\b.*\bfinish\w*\b.*\bround\b", asked[0], re.IGNORECASE), asked[0]
    assert re.search(r"\btable\b.*\bclose", asked[0], re.IGNORECASE), asked[0]

    board = page.locator("#board")
    # The round is played out: nobody is to act, nobody holds a card, nothing to click.
    expect(board.locator(".seat")).to_have_count(4)
    for position in range(4):
        expect(seat(page, position)).to_have_attribute("data-cards", "0")
    expect(board.locator(".seat.to-act")).to_have_count(0)
    expect(board.locator("[data-move]")).to_have_count(0)
    # The table says it is closed, and why, and offers the way back.
    expect(board).to_contain_text(EVERYONE_LEFT)
    expect(board).to_contain_text(re.compile(r"\bclosed\b"))
    expect(board.get_by_role("button", name=LEAVE)).to_have_count(0)
    expect(board.get_by_role("button", name=re.compile("Take my seat back"))).to_have_count(0)
    back = board.get_by_role("link", name=re.compile(r"lobby", re.IGNORECASE))
    expect(back).to_be_visible()
    # The lobby left open in another tab drops it live.
    expect(lobby.locator(f"[data-table='{code}']")).to_have_count(0)
    screenshots(page, shots, "table-life-closed")
    # A page opened afresh shows the same.
    page.reload()
    expect(page.locator("#board")).to_contain_text(EVERYONE_LEFT)
    page.locator("#board").get_by_role("link", name=re.compile(r"lobby", re.IGNORECASE)).click()
    page.wait_for_url(f"{server.url}/lobby/")
    expect(page.locator("#online-count")).to_contain_text("online")
    expect(page.locator(f"[data-table='{code}']")).to_have_count(0)

