"""A device turning Web Push on or off for its member (static/js/push.js sends what the browser's PushManager gave
it). Thin: the form checks, accounts.webpush keeps."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import webpush
from accounts.push_form import PushSubscriptionForm


def _form_from(request: HttpRequest) -> PushSubscriptionForm:
    """The browser's subscription as `PushSubscription.toJSON()` gives it: {endpoint, keys: {p256dh, auth}}."""
    try:
        sent = json.loads(request.body or b"{}")
    except ValueError:
        sent = None
    if not isinstance(sent, dict):
        sent = {}
    keys = sent.get("keys") if isinstance(sent.get("keys"), dict) else {}
    return PushSubscriptionForm({"endpoint": sent.get("endpoint"), "p256dh": keys.get("p256dh"),
                                 "auth": keys.get("auth")})


def _refused(form: PushSubscriptionForm) -> JsonResponse:
    return JsonResponse({"error": gettext("This device's subscription could not be read; nothing was changed."),
                         "fields": {name: [str(e) for e in errors] for name, errors in form.errors.items()}},
                        status=400)


@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    form = _form_from(request)
    if not form.is_valid():
        return _refused(form)
    webpush.subscribe(user=request.user, endpoint=form.cleaned_data["endpoint"], p256dh=form.cleaned_data["p256dh"],
                      auth=form.cleaned_data["auth"], user_agent=request.headers.get("User-Agent", ""))
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    form = _form_from(request)
    endpoint = form.data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        return _refused(form)
    return JsonResponse({"removed": webpush.unsubscribe(user=request.user, endpoint=endpoint)})
