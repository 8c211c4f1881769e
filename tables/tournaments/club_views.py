"""The club's side of a tournament round, for staff: the round's print page (seat cards and score sheets), opening
the treasurer's night sheet for a session table played at the club, the winner of a Swiss or round-robin match
played there, each player's final total of a Puskiyon session played there, and where a drawn table plays. Thin:
each parses, calls one service or selector, renders.

Staff only: a member who is not staff gets 403 (the draw before it is announced, and other members' seats, are not
theirs to see); a visitor who is not logged in is sent to log in first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from tables.models import Tournament, TournamentRound, TournamentTable
from tables.play.request_numbers import WholeNumberField
from tables.play.services.errors import TableError
from tables.tournaments import club_tables, services
from tables.tournaments.club_print import round_print


def staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_active and request.user.is_staff):
            raise PermissionDenied(gettext("Only the club's staff can run tournaments."))
        return view(request, *args, **kwargs)
    return guarded


def _print_url(table: TournamentTable) -> str:
    return reverse("tournament_round_print", args=[table.round.tournament_id, table.round.number])


def _table(table_id: int) -> TournamentTable:
    return get_object_or_404(TournamentTable.objects.select_related("round__tournament"), pk=table_id)


@staff_only
def round_print_page(request: HttpRequest, tournament_id: int, number: int) -> TemplateResponse:
    # The tournament by its key first: a lookup through the foreign key would hand an id too large for the
    # database's integers to the database (a 500), where the primary key's lookup finds nothing (a 404).
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    drawn = get_object_or_404(TournamentRound.objects.select_related("tournament"), tournament=tournament,
                              number=number)
    page = round_print(tournament=drawn.tournament, round=drawn)
    return TemplateResponse(request, "tables/tournaments/print_round.html", {
        **admin.site.each_context(request),
        "title": gettext("%(tournament)s: %(round)s, seat cards and score sheets")
        % {"tournament": drawn.tournament.name, "round": page.round_title},
        "page": page, "drawn": drawn.status == TournamentRound.Status.DRAWN,
        "playing": drawn.status == TournamentRound.Status.PLAYING,
    })


@staff_only
@require_POST
def table_where(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(table_id)
    try:
        club_tables.set_where(table_id=table.pk, staff=request.user, where=request.POST.get("where", ""))
    except TableError as error:
        messages.error(request, str(error))
    return redirect(_print_url(table) + f"#table-{table.number}")


@staff_only
@require_POST
def table_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """Opens (or re-opens: one per table) the treasurer's night sheet for the club table and goes there."""
    table = _table(table_id)
    try:
        draft = club_tables.open_table_sheet(table_id=table.pk, staff=request.user)
    except TableError as error:
        messages.error(request, str(error))
        return redirect(_print_url(table) + f"#sheet-{table.number}")
    return redirect("treasury_night_sheet", token=draft.token)


class WinnerForm(forms.Form):
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, widget=forms.RadioSelect)

    def __init__(self, *args: Any, players: list[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {player.pk: player for player in players}
        self.fields["winner"].choices = [(player.pk, player.shown_name) for player in players]

    def chosen(self) -> User:
        return self.players[self.cleaned_data["winner"]]


@staff_only
@require_http_methods(["GET", "POST"])
def table_winner(request: HttpRequest, table_id: int) -> HttpResponse:
    """A Swiss or round-robin match played at the club: who won."""
    table = _table(table_id)
    by_id = User.objects.in_bulk(table.players)
    players = [by_id[member_id] for member_id in table.players]
    form = WinnerForm(request.POST or None, players=players, initial={"winner": table.winner_id})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                club_tables.record_club_winner(table_id=table.pk, staff=request.user, winner=form.chosen())
            except TableError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, gettext("Recorded: %(member)s won %(table)s.")
                                 % {"member": form.chosen().shown_name, "table": club_tables.table_label(table)})
                return redirect(_print_url(table) + f"#sheet-{table.number}")
        status = 400
    return TemplateResponse(request, "tables/tournaments/club_winner.html", {
        **admin.site.each_context(request), "title": club_tables.table_label(table), "table": table, "form": form,
        "players": players, "print_url": _print_url(table),
        "round_title": club_tables.round_word(table.round.tournament, table.round.number),
    }, status=status)


class TotalsForm(forms.Form):
    """One final total per seat, in seat order; the service checks what the totals may be (the form only reads
    whole numbers), so a page and a call are refused alike."""

    def __init__(self, *args: Any, players: list[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for seat, player in enumerate(players, start=1):
            self.fields[f"total_{seat}"] = WholeNumberField(
                label=gettext("%(seat)s. %(member)s") % {"seat": seat, "member": player.shown_name}, min_value=0)

    def totals(self) -> list[int]:
        return [self.cleaned_data[f"total_{seat}"] for seat in range(1, len(self.players) + 1)]


@staff_only
@require_http_methods(["GET", "POST"])
def table_totals(request: HttpRequest, table_id: int) -> HttpResponse:
    """A Puskiyon session played at the club: each player's final total."""
    table = _table(table_id)
    by_id = User.objects.in_bulk(table.players)
    players = [by_id[member_id] for member_id in table.players]
    recorded = table.points or {}
    form = TotalsForm(request.POST or None, players=players,
                      initial={f"total_{seat}": recorded.get(str(member_id))
                               for seat, member_id in enumerate(table.players, start=1)})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                club_tables.record_club_totals(table_id=table.pk, staff=request.user, totals=form.totals())
            except TableError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, gettext("Recorded: the final totals of %(table)s.")
                                 % {"table": club_tables.table_label(table)})
                return redirect(_print_url(table) + f"#sheet-{table.number}")
        status = 400
    return TemplateResponse(request, "tables/tournaments/club_totals.html", {
        **admin.site.each_context(request), "title": club_tables.table_label(table), "table": table, "form": form,
        "target": services.session_target(table.round.tournament), "recorded": table.points is not None,
        "print_url": _print_url(table),
    }, status=status)
