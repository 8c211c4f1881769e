"""The `browser` fixture's watch fails a test on what a member's console would show as a script's error: an uncaught
exception, a promise rejected with nobody to handle it, an error a script logged (htmx logs its error events so). It
does not fail one on the browser's own network logs (a refused socket, a 4xx answer: the page says those in words),
and a test declares the script errors it provokes on purpose."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1200, "height": 900}


def test_the_watch_catches_uncaught_and_logged_errors_and_not_network_logs(browser, browser_problems, server) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{server.url}/")
    browser_problems.expect_console(r"^htmx:sendError, ")  # as a test that provokes it would
    page.evaluate("""async () => {
        setTimeout(() => { throw new Error("thrown and not caught"); }, 0);
        Promise.reject(new Error("rejected and not handled"));
        console.error("htmx:swapError, [object HTMLElement]");
        console.error("htmx:sendError, [object HTMLElement]");
        await fetch("/no-such-page/");  // a 404: the browser logs it, as it does a refusal's 4xx
        new WebSocket("ws://" + location.host + "/ws/no-such-socket/");
    }""")
    page.wait_for_timeout(1000)
    seen = "\n".join(browser_problems.seen)
    assert "uncaught thrown and not caught" in seen, seen
    assert "uncaught rejected and not handled" in seen, seen
    assert "console error 'htmx:swapError, [object HTMLElement]'" in seen, seen
    assert "htmx:sendError" not in seen, seen
    assert "Failed to load resource" not in seen and "WebSocket" not in seen, seen
    assert len(browser_problems.seen) == 3, seen
    browser_problems.seen.clear()  # seen on purpose: the teardown checks the rest of the test
