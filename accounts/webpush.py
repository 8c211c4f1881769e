"""Web Push (RFC 8030, encrypted by RFC 8291, signed by VAPID, RFC 8292) to a member's devices, through pywebpush.

Why a module of the member's: a device that agreed to be told things belongs to the member, not to a feature; the
features (the notices of correspondence tables) say what to tell, this says it to every device the member has.

What goes out is only what the lock screen may show anyone who picks the phone up: a title, a sentence naming a table
and a person, and the address to open. Never a card (the callers are tested for it, as every email is).

The VAPID key: production sets `WEBPUSH_VAPID_PRIVATE_KEY` (deploy/README.md says how to make one). Without it, a key
is made once and kept in `var/` (the site's own folder for what it writes), so `make run` works on a fresh machine and
its subscriptions outlive a restart; a browser subscribed under one key cannot be pushed to under another.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from accounts.models import PushSubscription, User

log = logging.getLogger(__name__)

GONE = (404, 410)  # the push service no longer knows the subscription (RFC 8030 7.3): it is removed
PUSH_TTL = 24 * 3600  # seconds a push service keeps a message for a device that is off (a turn lasts hours)
TIMEOUT = 10  # seconds for one push service to answer
DEVICES_PER_MEMBER = 10  # a member's phones, tablets and computers: more than anyone has


class PushFailed(Exception):
    """A push service refused or did not answer for a reason that may pass (the caller retries later)."""


@dataclass(frozen=True)
class Message:
    """What a member's devices show: nothing in it may be private to a table (no card, no hand)."""

    title: str
    body: str
    url: str  # a path of the site, opened when the notification is clicked
    tag: str  # one notification per tag on a device: a newer "your turn" at a table replaces the older

    def encoded(self) -> bytes:
        return json.dumps({"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}).encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@cache
def _key_pem(configured: str, path: str) -> bytes:
    """The VAPID private key as PEM: the setting's (PEM, or the raw 32-byte key base64url-encoded as many tools print
    it), else the one kept at `path`, made there the first time."""
    if configured:
        text = configured.strip()
        if "BEGIN" in text:
            return text.encode()
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
    kept = Path(path)
    if not kept.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        # Written whole under a name of this process's, then linked into place: of several processes starting at
        # once, the first link wins and every process reads that key (a link never overwrites).
        draft = kept.with_name(f".{kept.name}.{os.getpid()}.{secrets.token_hex(4)}")
        draft.write_bytes(pem)
        draft.chmod(0o600)
        try:
            os.link(draft, kept)
            log.warning("web push: no WEBPUSH_VAPID_PRIVATE_KEY set; made a key at %s (set one in production)", kept)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return kept.read_bytes()


def vapid() -> Vapid02:
    return Vapid02.from_pem(_key_pem(settings.WEBPUSH_VAPID_PRIVATE_KEY, str(settings.WEBPUSH_VAPID_KEY_FILE)))


def public_key() -> str:
    """The application server key a page subscribes with (`applicationServerKey`): the uncompressed P-256 point,
    base64url."""
    point = vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(point)


def subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> PushSubscription:
    """Keep the device's subscription for `user` (a subscription sent again is updated, not doubled; one another
    member's browser held before is theirs no more: an endpoint names one browser profile). A member keeps at most
    `DEVICES_PER_MEMBER`: the oldest go, so one member subscribing in a loop cannot make every push of theirs (sent on
    the clock's pass, which every table shares) a thousand POSTs."""
    with transaction.atomic():
        found, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]})
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk").values("pk")
        PushSubscription.objects.filter(user=user).exclude(pk__in=kept[:DEVICES_PER_MEMBER]).delete()
    return found


def unsubscribe(*, user: User, endpoint: str) -> bool:
    """Forget the device's subscription, if it is this member's; whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def send(*, subscription: PushSubscription, message: Message) -> bool:
    """Push `message` to one device; False when the push service says the subscription is gone (it is removed
    here). Raises `PushFailed` for anything that may pass (the caller keeps it to try again)."""
    info: dict[str, Any] = {"endpoint": subscription.endpoint,
                            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(subscription_info=info, data=message.encoded(), vapid_private_key=vapid(),
                vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT}, ttl=PUSH_TTL, timeout=TIMEOUT,
                content_encoding="aes128gcm")
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            log.info("web push: subscription %s of member %s is gone (%s): removed", subscription.pk,
                     subscription.user_id, status)
            return False
        raise PushFailed(f"push service answered {status}") from error
    except Exception as error:  # refused connection, timeout, TLS: the service may be back later
        raise PushFailed(str(error)) from error
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=timezone.now())
    return True


@dataclass(frozen=True)
class Reached:
    """What one round of pushes to a member's devices did: the subscriptions that took the message, and how many
    failed for a reason that may pass (to be tried again, those alone)."""

    delivered: tuple[int, ...]
    failed: int


def send_to_member(*, user_id: int, message: Message, done: Collection[int] = ()) -> Reached:
    """Push `message` to every device of the member but those in `done` (reached by an earlier try: a retry tells
    only the devices it missed). One device failing keeps no other from its message."""
    delivered, failed = [], 0
    for subscription in PushSubscription.objects.filter(user_id=user_id).exclude(pk__in=list(done)).order_by("pk"):
        try:
            if send(subscription=subscription, message=message):
                delivered.append(subscription.pk)
        except PushFailed as error:
            log.warning("web push: subscription %s of member %s failed: %s", subscription.pk, user_id, error)
            failed += 1
    return Reached(delivered=tuple(delivered), failed=failed)
