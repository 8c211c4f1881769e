"""The Content-Security-Policy middleware: django-csp's, with the page's own WebSocket origin allowed.

CSP3 lets `connect-src 'self'` match ws:/wss: on the page's own host, and Chromium and Firefox do so, but
older Safari does not; naming `ws://host` (`wss://` over HTTPS) keeps the table socket working there
without opening connections to any other host. The host is the one Django already validated against
ALLOWED_HOSTS.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


def same_host_socket(request: HttpRequest) -> str | None:
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"


class SameHostSocketCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False,
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        socket = same_host_socket(request)
        if socket is not None:
            update = dict(parts.update or {})
            already = update.get("connect-src") or []
            update["connect-src"] = [*([already] if isinstance(already, str) else already), socket]
            parts.update = update
        return parts
