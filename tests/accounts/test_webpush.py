"""Web Push to a member's devices (accounts.webpush), against a push service of the tests' own that decrypts what it
gets as the device would (tests/push_service.py): what a device keeps, what it is sent, and what a push service's
answers do to it."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse

from accounts import webpush
from accounts.models import PushSubscription
from tests.push_service import PushService
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db

MESSAGE = webpush.Message(title="Your turn", body="Your turn at Alice's Hawsker table", url="/tables/abc/",
                          tag="turn-abc")


@pytest.fixture
def service(pushes: PushService, settings) -> PushService:
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:treasurer@club.example"
    return pushes


def subscribe(client, body: object) -> tuple[int, dict]:
    response = client.post(reverse("push_subscribe"), data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def test_a_device_subscribes_once_and_gets_the_message_encrypted_to_it_and_signed(make_member, service) -> None:
    alice = make_member("alice")
    phone, laptop = service.device("phone"), service.device("laptop")
    client = client_for(alice)
    assert subscribe(client, service.subscription(phone))[0] == 201
    assert subscribe(client, service.subscription(phone))[0] == 201  # sent again: kept once
    assert subscribe(client, service.subscription(laptop))[0] == 201
    assert PushSubscription.objects.filter(user=alice).count() == 2

    reached = webpush.send_to_member(user_id=alice.pk, message=MESSAGE)
    assert len(reached.delivered) == 2 and reached.failed == 0
    for device in (phone, laptop):
        assert service.messages(device) == [{"title": "Your turn", "body": "Your turn at Alice's Hawsker table",
                                             "url": "/tables/abc/", "tag": "turn-abc"}]
    claims = service.vapid_claims(service.received[0], webpush.public_key())
    assert claims["sub"] == "mailto:treasurer@club.example"
    assert claims["aud"] == service.base.removesuffix("/push/")
    assert claims["exp"] > time.time()
    assert int(service.received[0].headers["ttl"]) == webpush.PUSH_TTL


def test_what_is_not_a_subscription_is_refused_and_nothing_is_kept(make_member, service) -> None:
    client = client_for(make_member("alice"))
    device = service.device("phone")
    good = service.subscription(device)
    for body in ("not json", [], {}, {"endpoint": good["endpoint"]},
                 {**good, "endpoint": "https://attacker.example/push/x"},
                 {**good, "endpoint": "http://127.0.0.1:5432/"},
                 {**good, "keys": {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]}},
                 {**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "!!!"}},
                 {**good, "keys": "nonsense"}):
        response = client.post(reverse("push_subscribe"), data=body if isinstance(body, str) else json.dumps(body),
                               content_type="application/json")
        assert response.status_code == 400, body
        assert "nothing was changed" in response.json()["error"]
    assert not PushSubscription.objects.exists()
    assert client.get(reverse("push_subscribe")).status_code == 405


def test_a_subscription_the_service_says_is_gone_is_removed_and_one_down_is_kept_for_a_retry(
        make_member, service) -> None:
    alice = make_member("alice")
    gone, down, fine = service.device("gone"), service.device("down"), service.device("fine")
    for device in (gone, down, fine):
        webpush.subscribe(user=alice, endpoint=service.endpoint(device), p256dh=device.p256dh, auth=device.auth_text)
    gone.status, down.status = 410, 500
    reached = webpush.send_to_member(user_id=alice.pk, message=MESSAGE)
    assert reached.failed == 1 and len(reached.delivered) == 1
    assert not PushSubscription.objects.filter(endpoint=service.endpoint(gone)).exists()
    assert PushSubscription.objects.filter(endpoint=service.endpoint(down)).exists()
    # The retry reaches the device that was down, and only it: the one reached already is not told twice.
    down.status = 201
    again = webpush.send_to_member(user_id=alice.pk, message=MESSAGE, done=reached.delivered)
    assert again.failed == 0 and len(again.delivered) == 1
    assert len(service.messages(fine)) == 1 and len(service.messages(down)) == 1


def test_a_member_turns_off_their_own_device_only(make_member, service) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    device = service.device("phone")
    webpush.subscribe(user=alice, endpoint=service.endpoint(device), p256dh=device.p256dh, auth=device.auth_text)
    body = json.dumps({"endpoint": service.endpoint(device)})
    assert client_for(bob).post(reverse("push_unsubscribe"), data=body,
                                content_type="application/json").json() == {"removed": False}
    assert PushSubscription.objects.filter(user=alice).exists()
    assert client_for(alice).post(reverse("push_unsubscribe"), data=body,
                                  content_type="application/json").json() == {"removed": True}
    assert not PushSubscription.objects.exists()
    assert webpush.send_to_member(user_id=alice.pk, message=MESSAGE).delivered == ()
    assert service.received == []


def test_without_a_configured_key_one_is_made_once_and_kept(settings, tmp_path) -> None:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_VAPID_KEY_FILE = tmp_path / "var" / "vapid.pem"
    first = webpush.public_key()
    assert settings.WEBPUSH_VAPID_KEY_FILE.exists()
    assert settings.WEBPUSH_VAPID_KEY_FILE.stat().st_mode & 0o077 == 0  # the operator's alone
    webpush._key_pem.cache_clear()  # as a restarted process would read it
    assert webpush.public_key() == first
    assert len(webpush._b64(b"x" * 65)) == len(first)  # an uncompressed P-256 point, base64url


def test_a_member_subscribing_in_a_loop_keeps_only_the_newest_devices(make_member, service) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    bobs = service.device("bobs")
    webpush.subscribe(user=bob, endpoint=service.endpoint(bobs), p256dh=bobs.p256dh, auth=bobs.auth_text)
    devices = [service.device(f"d{i}") for i in range(webpush.DEVICES_PER_MEMBER + 3)]
    for device in devices:
        webpush.subscribe(user=alice, endpoint=service.endpoint(device), p256dh=device.p256dh, auth=device.auth_text)
    kept = set(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True))
    assert kept == {service.endpoint(d) for d in devices[3:]}  # the newest ten; one push reaches ten at most
    assert PushSubscription.objects.filter(user=bob).count() == 1  # another member's are not hers to push out
    assert len(webpush.send_to_member(user_id=alice.pk, message=MESSAGE).delivered) == webpush.DEVICES_PER_MEMBER
