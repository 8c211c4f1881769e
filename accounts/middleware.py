"""Each request runs in the zone of the member asking, so every time a page shows is in their zone."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

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
