"""A push service of the tests' own (RFC 8030's side that browsers' vendors run): it takes the site's POSTs over
HTTP on a free local port, keeps them, and reads them as a device would: it holds the device's private key and auth
secret (RFC 8291), so a test decrypts each message (http_ece) and checks the VAPID signature (RFC 8292) of who sent
it. An endpoint may be made to answer 410 (the device unsubscribed) or 500 (the service down for a while)."""

from __future__ import annotations

import base64
import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser profile subscribed at the service: its keys, and what its endpoint answers."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    status: int = 201

    @property
    def p256dh(self) -> str:
        return _b64(self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint))

    @property
    def auth_text(self) -> str:
        return _b64(self.auth)


@dataclass(frozen=True)
class Received:
    device: str
    headers: dict[str, str]
    body: bytes


class PushService:
    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                device = service.devices.get(name)
                status = device.status if device is not None else 404
                if status < 300:
                    with service._lock:
                        service.received.append(Received(name, {k.lower(): v for k, v in self.headers.items()},
                                                         body))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/push/"

    def device(self, name: str) -> Device:
        self.devices[name] = Device(name)
        return self.devices[name]

    def endpoint(self, device: Device) -> str:
        return self.base + device.name

    def subscription(self, device: Device) -> dict[str, Any]:
        """As the browser's `PushSubscription.toJSON()` gives it to the page."""
        return {"endpoint": self.endpoint(device), "keys": {"p256dh": device.p256dh, "auth": device.auth_text}}

    def messages(self, device: Device | None = None) -> list[dict[str, Any]]:
        """Every message the service took (for `device`), decrypted as that device would."""
        with self._lock:
            taken = [r for r in self.received if device is None or r.device == device.name]
        return [self.decrypt(r) for r in taken]

    def decrypt(self, received: Received) -> dict[str, Any]:
        device = self.devices[received.device]
        assert received.headers.get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(received.body, private_key=device.key, auth_secret=device.auth,
                                 version="aes128gcm")
        return json.loads(plain)

    def vapid_claims(self, received: Received, public_key: str) -> dict[str, Any]:
        """The VAPID JWT's claims, after checking its ES256 signature with the site's public key (the `k=` of the
        Authorization header must be that key)."""
        scheme, _, params = received.headers["authorization"].partition(" ")
        assert scheme == "vapid"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts["k"] == public_key
        header, claims, signature = parts["t"].split(".")
        raw = _unb64(signature)
        point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(public_key))
        point.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                     f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        return json.loads(_unb64(claims))


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()
    thread = threading.Thread(target=service.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()


def vapid_key_pem() -> str:
    """A VAPID private key of the test's own, as WEBPUSH_VAPID_PRIVATE_KEY takes it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


@pytest.fixture
def pushes(settings: Any) -> Iterator[PushService]:
    """The push service running, the site signing with a key of the test's and allowed to push there alone."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid_key_pem()
    with push_service() as running:
        settings.WEBPUSH_ENDPOINTS = [re.escape(running.base)]
        yield running
