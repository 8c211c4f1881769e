"""A member's profile in real Chromium, on a desktop and on a phone (390 x 844): the name in the header leads
there, the rating chart is drawn (server-side SVG, no script), nothing scrolls the page sideways, axe finds
nothing serious, and the edit page is one link away and links back. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import log_in, new_member
from tests.servers import manage

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
# One member at each size, with names of their own: no two members' names may read alike (accounts/names.py).
NAMES = {"desktop": "Rosalind Quill", "phone": "Rosamund Quayle"}
HAWSKER = [(7, 3), (2, 5), (6, 1), (4, 4), (8, 2), (3, 6), (9, 1)]  # (member, bot): won, lost, won, tie, ...


def member_with_matches(env: dict[str, str], shown: str) -> str:
    """A member of the test's own, with seven Hawsker matches against the bot (an established rating) and two
    of Puskiyon at four (provisional), recorded and rated as the ledger does it."""
    name = new_member(env)
    hawsker = ", ".join(f"({me}, {bot}, {9 - n})" for n, (me, bot) in enumerate(HAWSKER))
    manage("shell", "-c", (
        "from accounts.models import User\n"
        "from tests.tables.ratings.factories import record_match, days_ago\n"
        f"u = User.objects.get(username={name!r}); u.display_name = {shown!r}; u.save()\n"
        f"for me, bot, ago in [{hawsker}]:\n"
        "    record_match('hawsker', [u, 'bot'], [me, bot], finished_at=days_ago(ago))\n"
        "record_match('puskiyon', [u, 'bot', 'bot', 'cautious bot'], [12, 30, 25, 40], finished_at=days_ago(1))\n"
        "record_match('puskiyon', ['bot', u, 'bot', 'cautious bot'], [10, 31, 25, 40], finished_at=days_ago(0.5))\n"
    ), env=env)
    return name


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_member_opens_their_profile_from_the_header(browser, server, e2e_env, shots, size: str) -> None:
    shown = NAMES[size]
    name = member_with_matches(e2e_env, shown)
    page = browser.new_context(viewport=SIZES[size]).new_page()
    log_in(page, server, name)
    page.get_by_test_id("who").click()
    page.wait_for_url(f"{server.url}/members/{name}/")

    expect(page.get_by_role("heading", level=1)).to_contain_text(shown)
    hawsker = page.locator("[data-game=hawsker]")
    expect(hawsker.locator("[data-rating]")).to_contain_text(".")  # an ordinal, one decimal: established
    expect(page.locator("[data-game=puskiyon] [data-rating]")).to_contain_text("provisional (2 of 5)")
    chart = hawsker.get_by_role("img", name=f"{shown}'s Hawsker rating, match by match")
    expect(chart).to_be_visible()
    expect(hawsker.locator("svg circle")).to_have_count(len(HAWSKER) + 1)
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 60, box
    expect(hawsker.locator("figcaption")).to_contain_text(f"after {len(HAWSKER)} matches")
    expect(hawsker.locator("table.recent tbody tr")).to_have_count(5)
    wider = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wider <= 0, f"the profile scrolls sideways by {wider} px at {size}"
    page.screenshot(path=str(shots / f"profile-{size}.png"), full_page=True)

    violations = Axe().run(page).response["violations"]
    serious = [f"{v['id']}: {v['help']}" for v in violations if v["impact"] in {"serious", "critical"}]
    assert serious == []

    page.get_by_test_id("edit-profile").click()
    page.wait_for_url(f"{server.url}/accounts/profile/")
    page.get_by_test_id("profile-page").click()
    page.wait_for_url(f"{server.url}/members/{name}/")

    page.goto(f"{server.url}/ratings/?game=hawsker")
    mine = page.locator(f"table.ratings tr.me a[href='/members/{name}/']")
    expect(mine).to_have_text(shown)
    wider = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wider <= 0, f"the ratings page scrolls sideways by {wider} px at {size}"
    page.screenshot(path=str(shots / f"ratings-{size}.png"), full_page=True)
