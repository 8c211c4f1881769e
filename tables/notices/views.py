"""The unsubscribe link: one click (a GET) turns that kind of email off at once and says so, with a button to turn
it back on; a mail program's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`) turns it off too. Neither asks
for a login: the signed token is the member's say-so (tables.notices.tokens). A token that does not verify changes
nothing and gets a 400 page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from tables.notices import preferences
from tables.notices.tokens import read_token

PAGE = "tables/notices/unsubscribed.html"


def _bad_link(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/notices/bad_link.html", status=400)


@login_not_required
@csrf_exempt  # a mail program's one-click POST carries no CSRF token (RFC 8058); it can only turn emails off
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id, topic = read_token(token)
    except signing.BadSignature:
        return _bad_link(request)
    if request.method == "POST" and request.POST.get("List-Unsubscribe") != "One-Click":
        return _bad_link(request)
    if not User.objects.filter(pk=user_id).exists():
        return _bad_link(request)
    had = preferences.turn_off(user_id=user_id, topic=topic)
    if request.method == "POST":
        return HttpResponse("unsubscribed\n", content_type="text/plain")
    was = had if had in (User.TurnEmails.EACH, User.TurnEmails.DAILY) else User.TurnEmails.EACH
    return render(request, PAGE, {"token": token, "topic": topic, "on": False, "was": was})


@login_not_required
@require_POST
def resubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The page's button (CSRF-protected, as every form of the site): the kind on again, turns as they were."""
    try:
        user_id, topic = read_token(token)
    except signing.BadSignature:
        return _bad_link(request)
    was = request.POST.get("was", User.TurnEmails.EACH)
    if was not in (User.TurnEmails.EACH, User.TurnEmails.DAILY) or not User.objects.filter(pk=user_id).exists():
        return _bad_link(request)
    preferences.turn_on(user_id=user_id, topic=topic, turn_emails=was)
    return render(request, PAGE, {"token": token, "topic": topic, "on": True, "was": was})
