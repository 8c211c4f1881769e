"""Notifications on this device, in real Chromium (issue 44): the member turns Web Push on and off on their email
settings page (static/js/push.js). Chromium here has no push service to reach (no vendor's servers), so the
browser's PushManager is given a subscription the test made (its keys, an address at FCM's, which the club accepts),
and everything else is real: the permission, the service worker's registration, the page's POST with its CSRF
token, the club keeping and forgetting the device. (The club's pushes themselves, encrypted and decrypted, are the
default and services tiers' tests: tests/accounts/test_webpush.py, tests/tables/notices/across_days.py.)"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import log_in, new_member
from tests.push_service import Device

pytestmark = pytest.mark.e2e

FAKE_PUSH_MANAGER = """
(() => {
  const sent = %s;
  let current = null;
  const make = () => ({
    endpoint: sent.endpoint,
    toJSON: () => ({endpoint: sent.endpoint, expirationTime: null, keys: sent.keys}),
    unsubscribe: () => { current = null; window.__unsubscribed = true; return Promise.resolve(true); },
  });
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    window.__subscribedWith = Array.from(new Uint8Array(options.applicationServerKey)).length;
    current = make();
    return Promise.resolve(current);
  };
})();
"""


def test_a_member_turns_notifications_on_and_off_on_this_device(browser, server, e2e_env, shots) -> None:
    device = Device(name="phone")
    endpoint = f"https://fcm.googleapis.com/fcm/send/{uuid.uuid4().hex}"
    sent = {"endpoint": endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth_text}}
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow")
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(sent))
    page = context.new_page()
    log_in(page, server, new_member(e2e_env))
    page.goto(f"{server.url}/accounts/emails/")
    box = page.locator("[data-push]")
    expect(box).to_have_attribute("data-push-state", "off", timeout=20_000)
    expect(box).to_contain_text("0 devices of yours are told.")
    box.locator("[data-push-on]").click()
    expect(box).to_have_attribute("data-push-state", "on")
    expect(box.locator("[data-push-state-text]")).to_have_text(re.compile("This device is told"))
    assert page.evaluate("window.__subscribedWith") == 65  # the club's P-256 key, as the browser wants it
    page.screenshot(path=str(shots / "push-on-phone.png"), full_page=True)

    page.reload()
    expect(box).to_contain_text("1 device of yours is told.")
    expect(box).to_have_attribute("data-push-state", "off")  # a reload is a new page: the fake manager forgot it
    page.evaluate("() => navigator.serviceWorker.ready")
    # Turned off from another visit of the page (the browser's subscription still there): the club forgets it.
    box.locator("[data-push-on]").click()
    expect(box).to_have_attribute("data-push-state", "on")
    box.locator("[data-push-off]").click()
    expect(box).to_have_attribute("data-push-state", "off")
    assert page.evaluate("window.__unsubscribed") is True
    page.reload()
    expect(box).to_contain_text("0 devices of yours are told.")
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(box).to_have_attribute("data-push-state", "off")
    page.screenshot(path=str(shots / "push-off-desktop.png"), full_page=True)
