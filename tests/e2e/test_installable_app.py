"""The club as an installable app, in real Chromium (issue 44; the server's side is tests/test_pwa.py).

Installability as Chromium judges it (its own list of installability errors, over the DevTools protocol, is empty)
and as Lighthouse checks it: the page links a manifest whose fields pass, the service worker is registered with the
whole site as its scope from /sw.js, and the start URL answers. Then the worker at work: with the network gone a
page is answered with the offline page from its cache (screenshots at 1200 x 900 and 390 x 844 in var/screenshots/
for a person to look at), the site works again once the network is back, and after a member has played at a table
the cache holds the shell and the offline page and nothing else: no table page, no board, no fragment.

These contexts allow service workers (the other e2e tests' contexts block them: see WatchedBrowser).
"""

from __future__ import annotations

import struct
import time
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import click_move, log_in, new_member, open_table

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
FELT = "rgb(31, 95, 63)"  # club.css's --felt: the header's green, from the cached stylesheet

WORKER_READY = """async () => {
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise((resolve, reject) => setTimeout(() => reject(new Error("no worker ready within 20 s")), 20000)),
  ]);
  return {scope: registration.scope, script: registration.active ? registration.active.scriptURL : null};
}"""

CACHED = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) found.push([name, request.url]);
  }
  return found;
}"""


def app_context(browser, viewport: dict[str, int] = DESKTOP, **options: Any) -> BrowserContext:
    return browser.new_context(viewport=viewport, service_workers="allow", **options)


def controlled(page: Page, timeout: float = 20.0) -> dict[str, str]:
    """The worker is active and controls the page (it claims the pages open when it activates)."""
    ready = page.evaluate(WORKER_READY)
    deadline = time.monotonic() + timeout
    while not page.evaluate("() => !!navigator.serviceWorker.controller"):
        assert time.monotonic() < deadline, "the worker never took control of the page"
        page.wait_for_timeout(100)
    return ready


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_chromium_finds_the_club_installable(browser, server) -> None:
    context = app_context(browser)
    page = context.new_page()
    page.goto(f"{server.url}/")

    manifest_url = urljoin(page.url, page.locator("link[rel=manifest]").get_attribute("href"))
    answer = context.request.get(manifest_url)
    assert answer.ok and answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "The Card Club" and manifest["short_name"]
    assert manifest["display"] in {"standalone", "fullscreen", "minimal-ui"}
    sizes = set()
    for icon in manifest["icons"]:
        image = context.request.get(urljoin(manifest_url, icon["src"]))
        assert image.ok and image.headers["content-type"] == "image/png", icon
        width, height = png_size(image.body())
        assert icon["sizes"] == f"{width}x{height}", icon
        sizes.add(width)
    assert {192, 512} <= sizes

    # The start URL answers, and lies in the worker's scope.
    start = urljoin(manifest_url, manifest["start_url"])
    assert context.request.get(start).status == 200
    assert start.startswith(urljoin(manifest_url, manifest["scope"]))

    worker = controlled(page)
    assert worker == {"scope": f"{server.url}/", "script": f"{server.url}/sw.js"}

    # Chromium's own verdict: what stops it offering "Install" (a manifest field, an icon, the worker), if anything.
    devtools = context.new_cdp_session(page)
    # A Playwright context is an incognito profile, where Chromium installs nothing ("in-incognito"): about the
    # browser, not the site; any other error is the site's.
    errors = [error for error in devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
              if error["errorId"] != "in-incognito"]
    assert errors == [], errors
    parsed = devtools.send("Page.getAppManifest")
    assert parsed["url"] == manifest_url and not [e for e in parsed["errors"] if e.get("critical")], parsed["errors"]
    context.close()


def test_offline_a_page_is_the_offline_page_and_the_site_comes_back_with_the_network(
        browser, server, e2e_env, shots) -> None:
    context = app_context(browser)
    page = context.new_page()
    log_in(page, server, new_member(e2e_env, "app"))
    controlled(page)

    context.set_offline(True)
    page.goto(f"{server.url}/history/")
    # The worker answered with its copy of the offline page; the address is still the page the member asked for.
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    assert urlsplit(page.url).path == "/history/"
    expect(page).to_have_title("You are offline · The Card Club")
    # Its stylesheet came from the cache as well.
    assert page.locator("header.site").evaluate("header => getComputedStyle(header).backgroundColor") == FELT
    expect(page.locator("[data-testid=who]")).to_have_count(0)  # nothing of the member's in the kept page
    page.screenshot(path=str(shots / "offline-desktop.png"), full_page=True)

    page.set_viewport_size(PHONE)
    expect(page.get_by_role("link", name="Try again")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the offline page is {overflow}px wider than the phone"
    try_again = page.get_by_role("link", name="Try again").bounding_box()
    assert try_again is not None and try_again["y"] + try_again["height"] <= PHONE["height"], try_again
    page.screenshot(path=str(shots / "offline-phone.png"), full_page=True)

    # Still offline, "Try again" brings the offline page again; with the network back, the page asked for.
    page.get_by_role("link", name="Try again").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    page.wait_for_url(f"{server.url}/history/")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("You are offline")
    expect(page.locator("[data-testid=who]")).to_be_visible()  # the member's own page, signed in
    page.goto(f"{server.url}/lobby/")
    expect(page.locator("#online-count")).to_contain_text("online")  # the lobby's socket is live again
    context.close()


def test_after_a_table_the_cache_holds_the_shell_and_nothing_of_the_table(browser, server, e2e_env) -> None:
    context = app_context(browser)
    page = context.new_page()
    log_in(page, server, new_member(e2e_env, "app"))
    controlled(page)
    worker_names = context.request.get(f"{server.url}/sw.js").text()

    table = open_table(page, server, "sheepshead", 3, bots=True)
    expect(page.locator("#live")).to_have_text("live")
    click_move(page)  # a POST, and boards over the socket
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    page.goto(f"{server.url}/history/")
    page.goto(table)
    expect(page.locator("#board")).to_be_visible()

    cached = page.evaluate(CACHED)
    names = {name for name, _ in cached}
    assert len(names) == 1, names  # this worker's cache alone
    [name] = names
    assert f'"cache": "{name}"' in worker_names
    paths = [urlsplit(url).path for _, url in cached]
    assert "/offline/" in paths and "/static/css/club.css" in paths
    stray = [path for path in paths if not (path == "/offline/" or path.startswith("/static/"))]
    assert not stray, f"the cache holds more than the shell: {stray}"
    assert not any(urlsplit(table).path in url for _, url in cached)

    # Offline, the table's address brings the offline page: no copy of the table anywhere.
    context.set_offline(True)
    page.goto(table)
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    expect(page.locator("#board")).to_have_count(0)
    context.set_offline(False)
    context.close()
