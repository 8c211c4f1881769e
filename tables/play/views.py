"""Pages of the club: thin views that parse input, call one service or selector, and render."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from rules.engine import registry
from tables import snapshots
from tables.forms import NewTableForm
from tables.models import Table
from tables.rendering import render_board, snapshot_html
from tables.request_numbers import whole_number
from tables.selectors import lobby_tables, my_tables
from tables.services import play
from tables.services import tables as table_services
from tables.services.errors import TableError
from tables.services.presence import online_count


@login_not_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/home.html", {"specs": registry.all_specs()})


def lobby(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(game=request.GET.get("game"))
    return render(request, "tables/lobby.html", {
        "online_count": online_count(), "tables": lobby_tables(), "mine": my_tables(request.user), "form": form,
    })


def lobby_tables_fragment(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby.html#table-list", {"tables": lobby_tables()})


def new_table_form(request: HttpRequest) -> HttpResponse:
    """The form again for another game (htmx swaps it in when the game changes)."""
    return render(request, "tables/lobby.html#new-table", {"form": NewTableForm(game=request.GET.get("game"))})


@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST)
    if form.is_valid():
        try:
            table = table_services.create_table(
                creator=request.user, game=form.cleaned_data["game"], players=form.cleaned_data["players"],
                options=form.game_options(), private=form.cleaned_data["private"],
                turn_seconds=form.cleaned_data["turn_seconds"], fill_with_bots=form.cleaned_data["fill_with_bots"],
            )
        except TableError as error:
            form.add_error(None, str(error))
        else:
            return redirect("table", code=table.code)
    return render(request, "tables/lobby.html", {
        "online_count": online_count(), "tables": lobby_tables(), "mine": my_tables(request.user), "form": form,
    }, status=400)


def table(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    return render(request, "tables/table.html", {"table": found, "board_html": render_board(found, request.user)})


def board(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    return HttpResponse(render_board(found, request.user))


def _refused(request: HttpRequest, found: Table, error: TableError) -> HttpResponse:
    if request.htmx:
        response = render(request, "tables/table_error.html", {"message": str(error)}, status=error.status)
        response["HX-Retarget"] = "#table-error"
        response["HX-Reswap"] = "outerHTML"
        return response
    messages.error(request, str(error))
    response = redirect("table", code=found.code)
    return response


def _version(request: HttpRequest) -> int:
    version = whole_number(request.POST.get("version"))
    if version is None:
        raise TableError("This request carries no table version; reload the page.")
    return version


def _after(request: HttpRequest, code: str, version: object = None) -> HttpResponse:
    """The board after a change. A service that returns the version it made left a snapshot of it in
    this process, so the mover's board is built without reading the table again."""
    if not request.htmx:
        return redirect("table", code=code)
    snapshot = snapshots.recall(code, version) if isinstance(version, int) else None
    if snapshot is not None:
        return HttpResponse(snapshot_html(snapshot, request.user)[0])
    found = Table.objects.get(code=code)
    return HttpResponse(render_board(found, request.user))


def _table_action(request: HttpRequest, code: str, action: Callable[[Table], object]) -> HttpResponse:
    """Run one service for this table; a refusal is shown as it is and changes nothing."""
    found = get_object_or_404(Table, code=code)
    try:
        made = action(found)
    except TableError as error:
        return _refused(request, found, error)
    return _after(request, code, made)


@require_POST
def move(request: HttpRequest, code: str) -> HttpResponse:
    return _table_action(request, code, lambda table: play.play_move(
        table_id=table.pk, user=request.user, move_text=request.POST.get("move", ""),
        expected_version=_version(request)))


@require_POST
def ready(request: HttpRequest, code: str) -> HttpResponse:
    return _table_action(request, code, lambda table: play.ready_for_next_round(
        table_id=table.pk, user=request.user, expected_version=_version(request)))


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    return _table_action(request, code, lambda table: table_services.join_table(table_id=table.pk, user=request.user))


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    try:
        table_services.leave_table(table_id=found.pk, user=request.user)
    except TableError as error:
        return _refused(request, found, error)
    if found.status == Table.Status.OPEN:
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": reverse("lobby")})
        return redirect("lobby")
    return _after(request, code)


@require_POST
def add_bot(request: HttpRequest, code: str) -> HttpResponse:
    return _table_action(request, code, lambda table: table_services.add_bot(table_id=table.pk, user=request.user))


@require_POST
def remove_bot(request: HttpRequest, code: str) -> HttpResponse:
    def remove(table: Table) -> None:
        position = whole_number(request.POST.get("position"))
        if position is None:
            raise TableError("Say which seat's bot to remove.")
        table_services.remove_bot(table_id=table.pk, user=request.user, position=position)

    return _table_action(request, code, remove)
