"""Invitation pages: thin views that parse input, call one service or selector, and render.

Answers are POSTs (CSRF: the form's token, or the header every htmx request carries from base.html). A refusal is
answered 4xx with HX-Retarget (static/js/refusals.js puts it in place) and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tables.invitations import rendering
from tables.invitations.forms import InviteForm
from tables.invitations.selectors import suggestions
from tables.invitations.services import invitations as services
from tables.models import Table
from tables.play.services.errors import TableError


def _refusal(html: str, target: str, status: int) -> HttpResponse:
    response = HttpResponse(html, status=status)
    response["HX-Retarget"] = target
    response["HX-Reswap"] = "outerHTML"
    return response


# The creator's panel on the table page.

@require_GET
def table_panel(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    return render(request, f"{rendering.PANEL}#panel", rendering.panel_context(table, request.user))


@require_GET
def table_list(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code, created_by=request.user)
    return render(request, f"{rendering.PANEL}#list", rendering.panel_context(table, request.user))


@require_GET
def member_suggestions(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code, created_by=request.user, private=True)
    found = suggestions(table, request.user, request.GET.get("member", "")[:254])
    return render(request, f"{rendering.PANEL}#suggestions", {"members": found})


@require_POST
def invite(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    form = InviteForm(request.POST, table=table, inviter=request.user)
    error, status = "", 400
    if form.is_valid():
        try:
            made = services.invite(table_id=table.pk, inviter=request.user, member=form.cleaned_data["member"])
        except TableError as refusal:
            error, status = str(refusal), refusal.status
        else:
            done = gettext("%(member)s is invited; they are told in the lobby.") % {
                "member": made.invited.shown_name}
            if not request.htmx:
                messages.success(request, done)
                return redirect("table", code=table.code)
            return render(request, f"{rendering.PANEL}#panel", rendering.panel_context(table, request.user, done=done))
    if not request.htmx:
        messages.error(request, error or "; ".join(form.errors.get("member", []))
                       or gettext("That invitation was refused."))
        return redirect("table", code=table.code)
    html = render(request, f"{rendering.PANEL}#panel",
                  rendering.panel_context(table, request.user, form=form, error=error)).content
    return _refusal(html.decode(), "#invitations-panel", status)


@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        invitation = services.withdraw(invitation_id=pk, user=request.user)
    except TableError as refusal:
        table = Table.objects.filter(invitations__pk=pk, created_by=request.user).first()
        if table is None or not request.htmx:
            messages.error(request, str(refusal))
            return redirect("table", code=table.code) if table is not None else redirect("lobby")
        html = render(request, f"{rendering.PANEL}#panel",
                      rendering.panel_context(table, request.user, error=str(refusal))).content
        return _refusal(html.decode(), "#invitations-panel", refusal.status)
    done = gettext("The invitation to %(member)s is withdrawn.") % {"member": invitation.invited.shown_name}
    if not request.htmx:
        messages.success(request, done)
        return redirect("table", code=invitation.table.code)
    return render(request, f"{rendering.PANEL}#panel",
                  rendering.panel_context(invitation.table, request.user, done=done))


# The invited member's answers, from the lobby's list or a pushed notice.

@require_GET
def lobby_list(request: HttpRequest) -> HttpResponse:
    return HttpResponse(rendering.lobby_list_html(request.user))


@require_POST
def accept(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        answer = services.accept(invitation_id=pk, user=request.user)
    except TableError as refusal:
        return _answer_refused(request, refusal, pk)
    where = reverse("table", kwargs={"code": answer.table.code})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = where
        return response
    return redirect(where)


@require_POST
def decline(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        invitation = services.decline(invitation_id=pk, user=request.user)
    except TableError as refusal:
        return _answer_refused(request, refusal, pk)
    done = gettext("You declined %(member)s's invitation.") % {"member": invitation.invited_by.shown_name}
    if not request.htmx:
        messages.success(request, done)
        return redirect("lobby")
    return HttpResponse(rendering.lobby_list_html(request.user, done=done, answered=pk))


def _answer_refused(request: HttpRequest, refusal: TableError, pk: int) -> HttpResponse:
    if not request.htmx:
        messages.error(request, str(refusal))
        return redirect("lobby")
    return _refusal(rendering.lobby_list_html(request.user, error=str(refusal)), "#invitations", refusal.status)
