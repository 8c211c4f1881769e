"""The outbox and the devices in the admin: staff read what the club told whom, by which channel, and what failed;
they add and change nothing there, and a device's keys are never shown."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from accounts import webpush
from tables.models import Notice
from tables.notices import outbox
from tests.push_service import Device
from tests.tables.helpers import client_for, full_table

pytestmark = pytest.mark.django_db


def test_staff_read_the_outbox_by_state_and_channel_and_change_nothing(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    table = full_table("hawsker", [alice, bob])
    now = timezone.now()
    for channel, key in ((Notice.Channel.EMAIL, "turn:x"), (Notice.Channel.PUSH, "push:turn:x")):
        outbox.add_notice(key=key, kind=Notice.Kind.TURN, user=alice, now=now, table=table, channel=channel)
    Notice.objects.filter(key="turn:x").update(sent_at=now, next_try_at=None)
    Notice.objects.filter(key="push:turn:x").update(attempts=2, last_error="1 device(s) not reached")
    client = client_for(boss)
    url = reverse("admin:tables_notice_changelist")
    page = client.get(url).content.decode()
    assert "1 device(s) not reached" in page and escape(str(table)) in page
    waiting = client.get(url, {"state": "waiting"}).content.decode()
    assert "1 device(s) not reached" in waiting
    sent = client.get(url, {"state": "sent", "channel__exact": "email"}).content.decode()
    assert "1 device(s) not reached" not in sent and "1 result" in sent
    assert client.get(reverse("admin:tables_notice_add")).status_code == 403
    notice = Notice.objects.get(key="turn:x")
    assert client.post(reverse("admin:tables_notice_change", args=[notice.pk]), {"attempts": 7}).status_code == 403
    assert Notice.objects.get(pk=notice.pk).attempts == 0


def test_staff_see_whose_device_but_never_its_keys_and_may_remove_a_lost_one(make_member) -> None:
    alice = make_member("alice")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    device = Device(name="phone")
    kept = webpush.subscribe(user=alice, endpoint="https://fcm.googleapis.com/fcm/send/abc", p256dh=device.p256dh,
                             auth=device.auth_text, user_agent="Firefox on Android")
    client = client_for(boss)
    for page in (client.get(reverse("admin:accounts_pushsubscription_changelist")),
                 client.get(reverse("admin:accounts_pushsubscription_change", args=[kept.pk]))):
        text = page.content.decode()
        assert page.status_code == 200 and "Firefox on Android" in text
        assert device.p256dh not in text and device.auth_text not in text
    assert client.get(reverse("admin:accounts_pushsubscription_add")).status_code == 403
    client.post(reverse("admin:accounts_pushsubscription_delete", args=[kept.pk]), {"post": "yes"})
    assert not alice.push_subscriptions.exists()
