"""Each request runs in the zone and the language of the member asking, so every time a page shows is in their
zone and every word in their language."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.languages import saved_language
from accounts.time_zones import member_zone


class MemberTimeZoneMiddleware:
    """Activates the signed-in member's zone (the club's for everyone else) for the request and lets it go
    at the end: the site's ASGI handler keeps threads from one request to the next (config/asgi_handler.py),
    and the next request on the thread may be someone else's.

    Synchronous only, like the rest of the chain there; `request.user` is the one AuthenticationMiddleware
    loads anyway (LoginRequiredMiddleware asks it), so this costs no query of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.activate(member_zone(getattr(request, "user", None)))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class MemberLanguageMiddleware:
    """The signed-in member's saved language wins over the language cookie and Accept-Language (which Django's
    LocaleMiddleware, earlier in the chain, read): a member who chose German reads German on any browser.

    Nothing to undo at the end: LocaleMiddleware activates a language afresh for every request, and its response
    half (which runs after this returns) names this one in Content-Language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = saved_language(getattr(request, "user", None))
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
