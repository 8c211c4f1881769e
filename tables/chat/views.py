"""The chat by plain POST (for a page whose socket is not open, or no JavaScript), mutes, and staff hiding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.next_page import same_site_next
from tables.chat import rendering
from tables.chat.errors import ChatError
from tables.chat.services import chat
from tables.models import Table
from tables.play.request_numbers import record_id


def _back(table: Table | None) -> str:
    return (reverse("table", args=[table.code]) if table else reverse("lobby") + "#panel-chat")


def _post(request: HttpRequest, table: Table | None) -> HttpResponse:
    try:
        chat.post_line(author=request.user, table_id=table.pk if table else None, text=request.POST.get("text", ""))
    except ChatError as refused:
        if request.htmx:
            return HttpResponse(rendering.answer_html(table.pk if table else None, str(refused)), status=refused.status)
        messages.error(request, str(refused))
    if request.htmx:
        return HttpResponse(rendering.answer_html(table.pk if table else None))
    return redirect(_back(table))


@require_POST
def post_table(request: HttpRequest, code: str) -> HttpResponse:
    return _post(request, get_object_or_404(Table, code=code))


@require_POST
def post_lobby(request: HttpRequest) -> HttpResponse:
    return _post(request, None)


def _room(request: HttpRequest) -> Table | None:
    code = request.POST.get("room", "")
    return get_object_or_404(Table, code=code) if code else None


def _muting(request: HttpRequest, member_id: str, change: Callable[..., Any]) -> HttpResponse:
    muted = record_id(member_id)
    if muted is None:
        raise Http404
    table = _room(request)
    try:
        change(member=request.user, muted_id=muted)
    except ChatError as refused:
        if request.htmx:
            return HttpResponse(rendering.answer_html(table.pk if table else None, str(refused)), status=refused.status)
        messages.error(request, str(refused))
    if request.htmx:
        return HttpResponse(rendering.body_html(request, table))
    return redirect(_back(table))


@require_POST
def mute(request: HttpRequest, member_id: str) -> HttpResponse:
    return _muting(request, member_id, chat.mute)


@require_POST
def unmute(request: HttpRequest, member_id: str) -> HttpResponse:
    return _muting(request, member_id, chat.unmute)


@require_POST
def hide(request: HttpRequest, message_id: str) -> HttpResponse:
    line = record_id(message_id)
    if line is None or not request.user.is_staff:
        raise Http404
    chat.hide_lines(staff=request.user, message_ids=[line])
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(same_site_next(request, request.POST.get("next")) or reverse("lobby"))
