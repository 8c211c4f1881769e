"""Error answers to a move in real Chromium: the site's refusals go to the error box, anything else leaves
the board alone and asks for a reload. The server runs with DEBUG on, so django-htmx's debug helper (which
puts Django's error page in place of the whole page for a 400, 403, 404 or 500) is loaded here too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TableSockets, board_version, click_move, member_page, new_member, open_table

pytestmark = pytest.mark.e2e

# htmx and its extensions, as django-htmx serves them.
HTMX_SCRIPTS = re.compile(r".*/django_htmx/.*\.js$")


@pytest.fixture
def newcomer(e2e_env: dict[str, str]) -> str:
    return new_member(e2e_env, "errors")


def table_to_move_at(browser, server, login: str, *, by_post: bool = False):
    """The member's page at a table, their move to make: sent over the page's socket, or (`by_post`) by POST, the
    page's way once its socket has closed for good."""
    page = member_page(browser, server, login)
    sockets = TableSockets(page)
    open_table(page, server, "hawsker", 2, bots=True)
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("#board [data-move]").first).to_be_visible()
    if by_post:
        sockets.close_for_good()
        expect(page.locator("#live")).to_have_text("not found: reload the page")
    return page


def assert_board_untouched(page, version: int) -> None:
    """Still the board (a bot's move pushed meanwhile may have made it newer), with the member's hand and
    buttons that work."""
    board = page.locator("#board")
    expect(board).to_have_attribute("data-version", re.compile(r"^\d+$"))
    assert board_version(page) >= version
    expect(board).not_to_have_class(re.compile(r"\bbusy\b"))
    expect(page.locator("#board .hand .card").first).to_be_visible()
    assert page.locator("#board [data-move]").count() > 0


@pytest.mark.parametrize("way", ["socket", "post"])
def test_a_refusal_is_shown_in_the_error_box_and_the_board_stays(browser, server, newcomer, way) -> None:
    page = table_to_move_at(browser, server, newcomer, by_post=way == "post")
    version = board_version(page)
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if "/move/" in request.url else None)
    button = page.locator("#board [data-move]").first
    button.evaluate("el => el.setAttribute('hx-vals', JSON.stringify({...JSON.parse(el.getAttribute('hx-vals')), "
                    "version: 'abc'}))")
    button.click()
    expect(page.locator("#table-error")).to_contain_text("no table version")
    assert_board_untouched(page, version)
    assert len(posts) == (1 if way == "post" else 0)


def test_a_csrf_failure_leaves_the_board_and_asks_for_a_reload(browser, server, newcomer) -> None:
    """A move goes by POST (and so through Django's CSRF check) once the page's socket has closed for good."""
    page = table_to_move_at(browser, server, newcomer, by_post=True)
    version = board_version(page)
    # As after logging in again in another tab: the cookie's secret no longer matches the page's token.
    page.context.add_cookies([{"name": "csrftoken", "value": "x" * 32, "url": server.url}])
    with page.expect_response(lambda response: "/move/" in response.url) as answer:
        page.locator("#board [data-move]").first.click()
    assert answer.value.status == 403
    assert "hx-retarget" not in answer.value.headers
    error = page.locator("#table-error")
    expect(error).to_contain_text("Something went wrong: please reload the page")
    assert_board_untouched(page, version)
    # The reload gives a page whose token matches again, and moves work.
    with page.expect_navigation():
        error.get_by_role("button", name="Reload").click()
    expect(page.locator("#board [data-move]").first).to_be_visible()
    expect(page.locator("#table-error")).to_be_empty()
    click_move(page)


def test_a_log_out_in_another_tab_stops_the_table_socket_and_says_so(browser, server, newcomer) -> None:
    """The server closes the socket with 4401 (stop): the page does not come back, it says why."""
    page = table_to_move_at(browser, server, newcomer)
    opened = page.locator("#live").get_attribute("data-opens")
    other_tab = page.context.new_page()
    other_tab.goto(f"{server.url}/lobby/")
    other_tab.get_by_role("button", name="Log out").click()
    expect(page.locator("#live")).to_have_text("signed out: reload the page")
    page.wait_for_timeout(3000)  # longer than a come-back's delay: no new socket opens
    expect(page.locator("#live")).to_have_attribute("data-opens", opened)
    expect(page.locator("#live")).to_have_text("signed out: reload the page")


def test_the_boards_buttons_wait_for_htmx_so_an_early_click_is_never_lost(browser, server, newcomer, e2e_env) -> None:
    """On a loaded machine a member can click a board button before htmx's deferred script has wired it up, and
    such a click did nothing. The buttons come disabled and htmx's load enables them: with htmx held back they
    stay disabled (the click waits), and once it runs the same button takes the member's seat."""
    host = member_page(browser, server, newcomer)
    url = open_table(host, server, "hawsker", 2, bots=False)
    guest = member_page(browser, server, new_member(e2e_env, "errors"))
    guest.route(HTMX_SCRIPTS, lambda route: route.abort())
    guest.goto(url)
    take_seat = guest.get_by_role("button", name="Take a seat")
    expect(take_seat).to_be_visible()
    expect(take_seat).to_be_disabled()
    guest.unroute(HTMX_SCRIPTS)
    guest.reload()
    with guest.expect_response(lambda response: "/join/" in response.url) as answer:
        guest.get_by_role("button", name="Take a seat").click()
    assert answer.value.status == 200
    expect(guest.locator("#board .hand")).to_be_visible()
    host.context.close()
    guest.context.close()
