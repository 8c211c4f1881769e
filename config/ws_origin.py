"""WebSocket handshakes pass the origin rule Django's CSRF check applies to a POST.

Channels' `AllowedHostsOriginValidator` compares the Origin's host with ALLOWED_HOSTS and ignores scheme
and port, so a page on `http://localhost:9999` (any local app) could open a member's sockets to the club
on `localhost:8000` with their cookie. Here the Origin must equal the socket's own origin (the scheme
Django would see, `https` behind a TLS proxy named by SECURE_PROXY_SSL_HEADER, and the validated Host)
or match CSRF_TRUSTED_ORIGINS, exactly as `CsrfViewMiddleware` decides; a Host outside ALLOWED_HOSTS is
refused, as Django refuses any such request.

A handshake without an Origin (or with `null`) is refused, as Channels did before. Browsers always send
one with a WebSocket handshake, so this turns away only non-browser clients, which no page needs;
Django's CSRF check over HTTPS likewise refuses a POST that names neither Origin nor Referer.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

Scope = dict[str, Any]


def _as_request(scope: Scope) -> ASGIRequest:
    """The handshake as Django sees an HTTP request: its Host checks and proxy settings then apply unchanged."""
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return ASGIRequest({**scope, "type": "http", "method": "GET", "scheme": scheme}, io.BytesIO())


def origin_allowed(scope: Scope) -> bool:
    request = _as_request(scope)
    origin = request.META.get("HTTP_ORIGIN")
    if not origin or origin == "null":
        return False
    try:
        own_origin = f"{'https' if request.is_secure() else 'http'}://{request.get_host()}"
    except DisallowedHost:
        return False
    if origin == own_origin:
        return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in (entry for entry in trusted if "*" not in entry):
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        pattern.scheme == parsed.scheme and is_same_domain(parsed.netloc, pattern.netloc.lstrip("*"))
        for pattern in (urlsplit(entry) for entry in trusted if "*" in entry)
    )


class SameOriginValidator:
    """ASGI middleware for the websocket protocol: refuses the handshake (403) unless `origin_allowed`."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
