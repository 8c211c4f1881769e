"""The home page, the lobby and its new-table form: thin views that parse input, call one service or
selector, and render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from rules.engine import registry
from tables.lobby.selectors import lobby_tables, my_tables
from tables.lobby.services.presence import online_count
from tables.play import member_tables as member_tables_selector
from tables.play.forms import NewTableForm
from tables.play.services import tables as table_services
from tables.play.services.errors import PlayingElsewhere, TableError


@login_not_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby/home.html", {"specs": registry.all_specs()})


def lobby(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(game=request.GET.get("game"))
    return render(request, "tables/lobby/lobby.html", {
        "online_count": online_count(), "tables": lobby_tables(), "mine": my_tables(request.user), "form": form,
    })


def lobby_tables_fragment(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby/lobby.html#table-list", {"tables": lobby_tables()})


def new_table_form(request: HttpRequest) -> HttpResponse:
    """The form again for another game (htmx swaps it in when the game changes)."""
    return render(request, "tables/lobby/lobby.html#new-table", {"form": NewTableForm(game=request.GET.get("game"))})


@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(request.POST)
    if form.is_valid():
        try:
            table = table_services.create_table(
                creator=request.user, game=form.cleaned_data["game"], players=form.cleaned_data["players"],
                options=form.game_options(), **form.table_settings(),
            )
        except TableError as error:
            form.add_error(None, str(error))
            # Also at the top of the page, where the member sees it without scrolling down to the form (issue 41),
            # with a link to the table they are playing at when that is why.
            refusal = {"message": str(error),
                       "table": error.table_code if isinstance(error, PlayingElsewhere) else ""}
        else:
            return redirect("table", code=table.code)
    else:
        refusal = None
    return render(request, "tables/lobby/lobby.html", {
        "online_count": online_count(), "tables": lobby_tables(), "mine": my_tables(request.user), "form": form,
        "refusal": refusal,
    }, status=400)


def member_tables(request: HttpRequest) -> HttpResponse:
    """The member's tables, where it is their turn first (tables.play.member_tables)."""
    return render(request, "tables/lobby/mine.html", {"rows": member_tables_selector.member_tables(request.user)})
