"""Quick-play pages: thin views that parse the form, call one matchmaking service and render the panel.

With htmx they answer with the panel fragment (or move the member to a table that formed at once);
without it they redirect, so the forms work with JavaScript off too. A refusal changes nothing: with htmx it
is the panel again with the message, a 4xx carrying HX-Retarget (the site's mark of a refusal, which
static/js/refusals.js swaps in whether DEBUG is on or off); without htmx it is the lobby with the message.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tables.models import QueueRequest, Table
from tables.play.services.errors import PlayingElsewhere, TableError
from tables.quickplay.forms import QuickPlayForm
from tables.quickplay.rendering import PANEL, panel_context
from tables.quickplay.services import matchmaking


def _panel(request: HttpRequest, *, form: QuickPlayForm | None = None, error: str = "", error_table: str = "",
           status: int = 200) -> HttpResponse:
    context = panel_context(request.user, form=form, error=error)
    context["quick_error_table"] = error_table
    return render(request, f"{PANEL}#quick-mine", context, status=status)


def _refused(request: HttpRequest, message: str, *, form: QuickPlayForm | None = None,
             status: int = 400, table_code: str = "") -> HttpResponse:
    """The refusal where the member clicked (the panel), with a link to their running table when that is why."""
    if not request.htmx:
        if table_code:
            message = format_html('{} <a href="{}">{}</a>', message, reverse("table", args=[table_code]),
                                  gettext("Go to your table"))
        messages.error(request, message)
        return redirect("lobby")
    response = _panel(request, form=form, error=message, error_table=table_code, status=status)
    response["HX-Retarget"] = "#quick-mine"
    response["HX-Reswap"] = "outerHTML"
    return response


def _form_errors(form: QuickPlayForm) -> str:
    """One line a member can read, naming the field each error is about."""
    parts = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = (field.label or name.replace("_", " ").capitalize()) if field is not None else ""
        parts.extend(gettext("%(field)s: %(error)s") % {"field": label, "error": error} if label else error
                     for error in errors)
    return gettext("Quick play: %(errors)s") % {"errors": "; ".join(parts)}


def _running(error: TableError) -> str:
    return error.table_code if isinstance(error, PlayingElsewhere) else ""


def _to_table(request: HttpRequest, code: str) -> HttpResponse:
    url = reverse("table", args=[code])
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)


@require_GET
def panel(request: HttpRequest) -> HttpResponse:
    if not request.htmx:
        return redirect(reverse("lobby") + "#quick-play")
    return _panel(request)


@require_GET
def form(request: HttpRequest) -> HttpResponse:
    """The form again for another game (htmx swaps it in when the game changes)."""
    return render(request, "tables/quickplay/form.html", {"form": QuickPlayForm(game=request.GET.get("game"))})


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    bound = QuickPlayForm(request.POST)
    if not bound.is_valid():
        return _refused(request, _form_errors(bound), form=bound)
    try:
        queued = matchmaking.enqueue(user=request.user, **bound.request_kwargs())
    except TableError as error:
        return _refused(request, str(error), form=bound, status=error.status, table_code=_running(error))
    if queued.state == QueueRequest.State.MATCHED and queued.table_id is not None:
        return _to_table(request, queued.table.code)
    if request.htmx:
        return _panel(request)
    return redirect(reverse("lobby") + "#quick-play")


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Stop waiting for members: a table with bots in the seats nobody came for, at once."""
    try:
        queued = matchmaking.play_now(user=request.user)
    except TableError as error:
        return _refused(request, str(error), status=error.status, table_code=_running(error))
    return _to_table(request, queued.table.code)


@require_POST
def cancel(request: HttpRequest) -> HttpResponse:
    try:
        matchmaking.cancel(user=request.user)
    except TableError as error:
        return _refused(request, str(error), status=error.status)
    if request.htmx:
        return _panel(request)
    return redirect(reverse("lobby") + "#quick-play")


@require_GET
def go(request: HttpRequest, code: str) -> HttpResponse:
    """Where a "your table is ready" notice sends the page: a full navigation to the table."""
    found = get_object_or_404(Table, code=code)
    return _to_table(request, found.code)
