"""Invitations in real Chromium: a member opens a private table and invites two members by name; each, with the lobby
open (one on a desktop, one on a phone), sees the invitation arrive live and takes the seat from it."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DEMO_PASSWORD, log_in
from tests.servers import manage

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}
# Set before any page script runs: the lobby's socket is open (the server joined it to the member's group first).
SOCKET_OPEN = "document.addEventListener('htmx:wsOpen', function () { window.clubSocketOpen = true; });"


def make_members(env: dict[str, str], *display_names: str) -> list[tuple[str, str]]:
    """Members of the test's own (the seeded ones may be playing at another test's table): (username, display name)
    pairs, the display names made unique to this run."""
    tag = uuid.uuid4().hex[:6]
    made = [(f"inv{tag}{n}", f"{shown} {tag}") for n, shown in enumerate(display_names)]
    code = "from accounts.models import User\nfrom allauth.account.models import EmailAddress\n" + "".join(
        f"u = User.objects.create_user(username={name!r}, email='{name}@example.org', password={DEMO_PASSWORD!r}, "
        f"display_name={shown!r})\nEmailAddress.objects.create(user=u, email=u.email, verified=True, primary=True)\n"
        for name, shown in made)
    manage("shell", "-c", code, env=env)
    return made


def page_for(browser, server, login: str, viewport: dict[str, int]):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(SOCKET_OPEN)
    page = context.new_page()
    log_in(page, server, login)
    return page


def lobby_live(page, server) -> None:
    page.goto(f"{server.url}/lobby/")
    page.wait_for_function("() => window.clubSocketOpen === true")


def test_a_member_invites_two_by_name_and_each_takes_the_seat_from_the_lobby(browser, server, e2e_env, shots):
    (host_login, host_name), (guest_login, guest_name), (phone_login, phone_name), (stranger_login, _) = make_members(
        e2e_env, "Hester", "Gwendolyn", "Percival", "Mallory")
    host = page_for(browser, server, host_login, DESKTOP)
    guest = page_for(browser, server, guest_login, DESKTOP)
    lobby_live(guest, server)
    expect(guest.locator("#invitations")).to_be_hidden()

    # The host opens a private Hawk table for four.
    host.goto(f"{server.url}/lobby/")
    with host.expect_response(lambda response: "/lobby/new/" in response.url):
        host.select_option("#id_game", "hawk")
    host.wait_for_selector("#new-table[data-game=hawk] #id_players option[value='4']", state="attached")
    host.select_option("#id_players", "4")
    host.check("input[name=private]")
    host.uncheck("input[name=fill_with_bots]")  # the guests take the seats
    host.click("#new-table button[type=submit]")
    host.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    table_url = host.url
    panel = host.locator("#invitations-panel")
    expect(panel.locator("#invite-form")).to_be_visible()

    # Suggestions come as the host types part of the name; the invitation goes by the whole display name.
    field = panel.locator("input[name=member]")
    field.press_sequentially(guest_name[:4], delay=50)
    expect(host.locator("#invite-suggestions option")).not_to_have_count(0)
    field.fill(guest_name)
    with host.expect_response(lambda response: "/invitations/new/" in response.url) as answer:
        panel.locator("button[type=submit]").click()
    assert answer.value.status == 200, answer.value.text()
    expect(host.locator("#invitations-panel [data-status=pending]")).to_contain_text(guest_name)

    # A member who holds the link but was not invited is told whom to ask, and sees nothing of the table (issue 39).
    stranger = page_for(browser, server, stranger_login, DESKTOP)
    refused = stranger.goto(table_url)
    assert refused is not None and refused.status == 403
    expect(stranger.locator("#private-table")).to_contain_text(f"ask {host_name}, who opened it, for an invitation")
    expect(stranger.locator("#board")).to_have_count(0)

    # The guest's lobby shows it live: said once (a notice for screen readers), shown once (the list above the tabs).
    notice = guest.locator("#notices [data-notice=invitation-invited]")
    expect(notice).to_contain_text(f"{host_name} invites you")
    expect(guest.locator("#invitations [data-invitation]")).to_have_count(1)
    expect(guest.get_by_role("button", name="Take the seat")).to_have_count(1)
    guest.screenshot(path=str(shots / "invitations-lobby-desktop.png"), full_page=True)
    guest.locator("#invitations [data-invitation]").get_by_role("button", name="Take the seat").click()
    expect(guest).to_have_url(table_url)
    expect(guest.locator("#board .seat.me")).to_be_visible()
    expect(guest.locator("#board .seat.me")).to_contain_text(guest_name)
    # The host's panel shows the answer (its list looks again while one is awaited).
    expect(host.locator("#invitations-panel [data-status=accepted]")).to_contain_text(guest_name)

    # A third member, on a phone with the lobby open, is invited by name and answers from the list.
    phone = page_for(browser, server, phone_login, PHONE)
    lobby_live(phone, server)
    field.fill(phone_name.lower())
    panel.locator("button[type=submit]").click()
    expect(host.locator("#invitations-panel [data-status=pending]")).to_contain_text(phone_name)
    listed = phone.locator("#invitations [data-invitation]")
    expect(listed).to_contain_text(host_name)
    expect(listed.get_by_role("button", name="Take the seat")).to_be_in_viewport()  # first screen, whatever the tab
    phone.screenshot(path=str(shots / "invitations-lobby-phone.png"), full_page=False)
    listed.get_by_role("button", name="Take the seat").click()
    expect(phone).to_have_url(table_url)
    expect(phone.locator("#board .seat.me")).to_contain_text(phone_name)
    expect(host.locator("#invitations-panel [data-status=accepted]")).to_have_count(2)
    host.screenshot(path=str(shots / "invitations-table-desktop.png"), full_page=True)

    host_phone = page_for(browser, server, host_login, PHONE)
    host_phone.goto(table_url)
    expect(host_phone.locator("#invitations-panel #invite-form")).to_be_visible()
    host_phone.locator("#invitations-panel").scroll_into_view_if_needed()
    host_phone.screenshot(path=str(shots / "invitations-table-phone.png"), full_page=True)


def test_an_invitation_whose_table_starts_leaves_the_open_lobby_without_a_reload(browser, server, e2e_env, shots):
    """The host fills a private Hawsker table for two with a bot instead: the table starts, and the invited member's
    open lobby drops "Take the seat" and says why, pushed over its socket (issue 19: it stayed until a reload)."""
    (host_login, host_name), (guest_login, guest_name) = make_members(e2e_env, "Horatio", "Griselda")
    host = page_for(browser, server, host_login, DESKTOP)
    guest = page_for(browser, server, guest_login, PHONE)
    lobby_live(guest, server)
    host.goto(f"{server.url}/lobby/")
    with host.expect_response(lambda response: "/lobby/new/" in response.url):
        host.select_option("#id_game", "hawsker")
    host.wait_for_selector("#new-table[data-game=hawsker]", state="attached")
    host.check("input[name=private]")
    host.uncheck("input[name=fill_with_bots]")  # the guest takes the seat
    host.click("#new-table button[type=submit]")
    host.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    panel = host.locator("#invitations-panel")
    panel.locator("input[name=member]").fill(guest_name)
    with host.expect_response(lambda response: "/invitations/new/" in response.url):
        panel.locator("button[type=submit]").click()
    expect(guest.get_by_role("button", name="Take the seat")).to_have_count(1)

    add_bot = host.get_by_role("button", name="Add a bot")
    expect(add_bot).to_be_enabled()  # htmx is ready on the host's board
    add_bot.click()  # the table is full: it starts without the guest
    expect(host.locator("#board [data-presence=bot]")).to_have_count(1)
    notice = guest.locator("#notices [data-notice=invitation-table_started]")
    expect(notice).to_contain_text("has started without you")
    expect(notice).to_contain_text(host_name)  # the table is the host's, by name
    expect(guest.get_by_role("button", name="Take the seat")).to_have_count(0)
    expect(guest.locator("#invitations")).to_be_hidden()  # nothing left to answer: the list hides itself
    guest.screenshot(path=str(shots / "invitations-table-started-phone.png"), full_page=False)
