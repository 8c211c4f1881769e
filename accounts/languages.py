"""Which language the site speaks to whom: the member's saved choice first, then what their browser asked for.

Pages get theirs per request (accounts.middleware.MemberLanguageMiddleware over Django's LocaleMiddleware); a
socket renders outside any request, so it asks `language_for(user, scope)` once and renders everything it sends
inside `translation.override` of that (tables.play.sockets.ClubConsumer): two members at one table read their
board each in their own language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def saved_language(user: Any) -> str:
    """The language the member chose on their profile or in the header's switcher; "" for a visitor, for a member
    who lets the browser decide, and for a language the site no longer offers."""
    if not getattr(user, "is_authenticated", False):
        return ""
    language = getattr(user, "language", "") or ""
    return language if language in dict(settings.LANGUAGES) else ""


def language_for(user: Any, scope: dict[str, Any] | None = None) -> str:
    """The language to render for `user`: their saved one, else what the socket's handshake asked for (Django's
    language cookie, then Accept-Language, as LocaleMiddleware reads a request), else the club's default."""
    saved = saved_language(user)
    if saved:
        return saved
    if scope is None:
        return settings.LANGUAGE_CODE
    return translation.get_language_from_request(_handshake(scope))


def _handshake(scope: dict[str, Any]) -> HttpRequest:
    """The socket's opening request, as far as choosing a language needs it: its cookies and Accept-Language."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return request
