"""The lobby on a phone and on a desktop, in real Chromium (issue 18, item 3).

At 390 x 844 the open tables and quick play must not sit below the new-table form: the lobby shows four tabs
(Tables first), so the first open table is on the first screen and quick play's button one tap away; the tabs
work by keyboard as ARIA tabs do. At 1200 x 900 the three panels stand side by side, the tables and quick play's
button on the first screen. Screenshots of both go to var/screenshots/ for a person to look at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import log_in, new_member

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}

FIRST_TABLE = "#table-list [data-table]"
QUICK_BUTTON = "#quick-form button[type=submit]"


def lobby_at(browser, server, e2e_env, viewport: dict[str, int], path: str = "/lobby/") -> Page:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    log_in(page, server, new_member(e2e_env))
    if path != "/lobby/":
        page.goto("about:blank")  # a fresh load of the lobby, not a jump within it
        page.goto(f"{server.url}{path}")
    expect(page.locator("#online-count")).to_contain_text("online")
    return page


def on_first_screen(locator: Locator, height: int) -> None:
    """The element is shown and wholly within the first screen of the page (the page not scrolled)."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None
    scrolled = locator.page.evaluate("window.scrollY")
    assert scrolled == 0, scrolled
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box


def tab(page: Page, name: str) -> Locator:
    return page.get_by_role("tablist", name="The lobby").get_by_role("tab", name=name)


def selected_tab(page: Page) -> str:
    return page.locator(".lobby-tabs [role=tab][aria-selected=true]").inner_text()


def test_on_a_phone_the_tables_come_first_and_quick_play_is_one_tap_away(browser, server, e2e_env, shots) -> None:
    page = lobby_at(browser, server, e2e_env, PHONE)
    assert page.locator(FIRST_TABLE).count() > 0, "the seeded club has open tables"

    # Tables is the open tab: the first open table, with its button, on the first screen; the form is not there.
    expect(tab(page, "Tables")).to_have_attribute("aria-selected", "true")
    on_first_screen(page.locator(FIRST_TABLE).first, PHONE["height"])
    on_first_screen(page.locator(FIRST_TABLE).first.locator("a.button"), PHONE["height"])
    expect(page.locator("#new-table")).to_be_hidden()
    expect(page.locator(QUICK_BUTTON)).to_be_hidden()
    page.screenshot(path=str(shots / "lobby-phone-tables.png"))

    # One tap on "Quick play" (on the first screen too): quick play's button on the first screen.
    on_first_screen(tab(page, "Quick play"), PHONE["height"])
    tab(page, "Quick play").click()
    expect(tab(page, "Quick play")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_attribute("id", "panel-quick")
    page.screenshot(path=str(shots / "lobby-phone-quick-play.png"), full_page=True)
    on_first_screen(page.locator(QUICK_BUTTON), PHONE["height"])
    expect(page.locator(FIRST_TABLE).first).to_be_hidden()

    # "Start a table" holds the form, whole (scrolling down it as far as it goes).
    tab(page, "Start a table").click()
    expect(page.locator("#new-table")).to_be_visible()
    expect(page.locator("#new-table button[type=submit]")).to_be_visible()
    expect(page.locator(QUICK_BUTTON)).to_be_hidden()
    page.screenshot(path=str(shots / "lobby-phone-start-a-table.png"), full_page=True)

    # The tabs by keyboard, as ARIA tabs: one Tab stop (the open tab); arrows move and open, and wrap; Home, End.
    tab(page, "Start a table").focus()
    page.keyboard.press("ArrowRight")
    expect(tab(page, "Tables")).to_be_focused()
    assert selected_tab(page) == "Tables"
    page.keyboard.press("ArrowLeft")
    expect(tab(page, "Start a table")).to_be_focused()
    page.keyboard.press("Home")
    expect(tab(page, "Tables")).to_be_focused()
    page.keyboard.press("End")
    assert selected_tab(page) == "Start a table"
    page.keyboard.press("ArrowLeft")
    assert selected_tab(page) == "Chat"  # the lobby's chat (issue 19), between quick play and the form
    page.keyboard.press("ArrowLeft")
    assert selected_tab(page) == "Quick play"
    expect(page.locator(".lobby-tabs [tabindex='0']")).to_have_count(1)
    expect(page.locator(".lobby-tabs [tabindex='0']")).to_have_text("Quick play")
    page.keyboard.press("Tab")  # out of the tab list, into the open panel
    focused_in_panel = page.evaluate("() => !!document.activeElement.closest('#panel-quick')")
    assert focused_in_panel

    # Turned to a wide screen, the panels stand side by side and the tab list goes.
    page.set_viewport_size(DESKTOP)
    expect(page.locator(".lobby-tabs")).to_be_hidden()
    for shown in (FIRST_TABLE, QUICK_BUTTON, "#new-table"):
        expect(page.locator(shown).first).to_be_visible()
    expect(page.get_by_role("tabpanel")).to_have_count(0)


def test_quick_plays_answers_come_back_to_its_tab_on_a_phone(browser, server, e2e_env) -> None:
    """Quick play's answers without JavaScript's htmx (a redirect) come back to /lobby/#quick-play."""
    page = lobby_at(browser, server, e2e_env, PHONE, path="/lobby/#quick-play")
    expect(tab(page, "Quick play")).to_have_attribute("aria-selected", "true")
    expect(page.locator(QUICK_BUTTON)).to_be_visible()
    expect(page.locator(FIRST_TABLE).first).to_be_hidden()


def test_on_a_desktop_tables_quick_play_and_the_form_stand_side_by_side(browser, server, e2e_env, shots) -> None:
    page = lobby_at(browser, server, e2e_env, DESKTOP)
    expect(page.locator(".lobby-tabs")).to_be_hidden()
    page.screenshot(path=str(shots / "lobby-desktop.png"), full_page=True)
    on_first_screen(page.locator(FIRST_TABLE).first, DESKTOP["height"])
    on_first_screen(page.locator(QUICK_BUTTON), DESKTOP["height"])
    expect(page.locator("#new-table")).to_be_visible()
    tables = page.locator("#panel-tables").bounding_box()
    quick = page.locator("#panel-quick").bounding_box()
    assert tables and quick and quick["x"] >= tables["x"] + tables["width"], (tables, quick)



def test_the_lobby_in_german_fits_a_phone(browser, server, e2e_env, shots) -> None:
    """German's longer words (issue 23): the tabs, quick play's form and the new-table form stay within the phone's
    width, in German; a screenshot of each tab for a person to look at."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    log_in(page, server, new_member(e2e_env))
    expect(page.locator("#online-count")).to_contain_text("online")
    tabs = page.get_by_role("tablist", name="Die Lobby")
    for name, shot in (("Tische", "tables"), ("Schnellspiel", "quick"), ("Chat", "chat"), ("Tisch eröffnen", "new")):
        tabs.get_by_role("tab", name=name).click()
        expect(tabs.get_by_role("tab", name=name)).to_have_attribute("aria-selected", "true")
        page.screenshot(path=str(shots / f"lobby-german-phone-{shot}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the German lobby's {name} tab is {overflow}px wider than the phone"
    expect(page.locator("#quick-form summary")).to_have_text("Mehr Optionen: Spieler, Bots, Hausregeln")
    context.close()
