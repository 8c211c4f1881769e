"""A socket is opened only from the site's own origin (scheme, host and port) or a trusted one: the rule
Django's CSRF check applies to a POST, not Channels' host-only comparison."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.sockets import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def opens(make_member, *, origin: str | None, host: str = "127.0.0.1:8000", scheme: str = "ws",
                extra: list[tuple[bytes, bytes]] | None = None) -> bool:
    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)())
    headers = [(b"host", host.encode()), (b"cookie", f"sessionid={cookie}".encode()), *(extra or [])]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect()
    if connected:
        await comm.disconnect()
    return connected


async def test_the_sites_own_origin_is_accepted(make_member) -> None:
    assert await opens(make_member, origin="http://127.0.0.1:8000")
    assert await opens(make_member, origin="https://localhost", host="localhost", scheme="wss")


async def test_another_port_of_the_same_host_is_refused(make_member) -> None:
    assert not await opens(make_member, origin="http://127.0.0.1:9999")
    assert not await opens(make_member, origin="http://localhost:9999", host="localhost:8000")


async def test_another_scheme_is_refused(make_member) -> None:
    assert not await opens(make_member, origin="https://127.0.0.1:8000")
    assert not await opens(make_member, origin="http://localhost", host="localhost", scheme="wss")


async def test_a_csrf_trusted_origin_is_accepted(make_member, settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://club.example.org", "https://*.cards.example.org"]
    assert await opens(make_member, origin="https://club.example.org")
    assert await opens(make_member, origin="https://play.cards.example.org")
    assert not await opens(make_member, origin="http://club.example.org")
    assert not await opens(make_member, origin="https://club.example.org:8443")


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(make_member, settings) -> None:
    """Production sets SECURE_PROXY_SSL_HEADER: the proxy speaks https to the browser, ws to Daphne."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert await opens(make_member, origin="https://localhost", host="localhost", extra=forwarded)
    assert not await opens(make_member, origin="http://localhost", host="localhost", extra=forwarded)


async def test_a_host_the_site_does_not_serve_is_refused(make_member) -> None:
    assert not await opens(make_member, origin="http://evil.example.com", host="evil.example.com")


async def test_a_missing_or_null_origin_is_refused(make_member) -> None:
    assert not await opens(make_member, origin=None)
    assert not await opens(make_member, origin="null")
