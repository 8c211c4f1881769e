"""The tournament pages: the list, a tournament's page, a member's entry, and the organiser's controls.

Thin, as every view here: read the form, call one service, say what happened. A refusal (TableError) comes back as
a message on the tournament's page and changes nothing; a control posted by someone who is not staff is a 403
before any service is asked (the services refuse it too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import User
from tables.models import Entry, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import club_players, controls, rendering, replacing, selectors, services
from tables.tournaments.forms import ClubPlayerForm, EntrantForm, NewTournamentForm, ReasonForm
from tables.tournaments.services import REASON_LENGTH


def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = list(Tournament.objects.exclude(status=Tournament.Status.DRAFT)
                .order_by("-starts_at", "-created_at")) if not request.user.is_staff \
        else list(Tournament.objects.order_by("-starts_at", "-created_at"))
    counts = _entrant_counts(rows)
    for row in rows:
        row.entrant_count = counts.get(row.pk, 0)
    groups = [
        ("upcoming", gettext("Upcoming"), [row for row in rows if row.status in services.BEFORE_THE_START]),
        ("running", gettext("Running"), [row for row in rows if row.status == Tournament.Status.RUNNING]),
        ("finished", gettext("Finished"), [row for row in rows if row.status in (Tournament.Status.FINISHED,
                                                                                  Tournament.Status.CANCELLED)]),
    ]
    return render(request, "tables/tournaments/list.html", {"groups": groups})


def _entrant_counts(rows: list[Tournament]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tournament_id in Entry.objects.filter(status=Entry.Status.ENTERED, tournament__in=rows).values_list(
            "tournament_id", flat=True):
        counts[tournament_id] = counts.get(tournament_id, 0) + 1
    return counts


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.status == Tournament.Status.DRAFT and not request.user.is_staff:
        raise PermissionDenied
    field = rendering.entrants(tournament)
    entered = any(user.pk == request.user.pk for user in field)
    current, waiting = selectors.current_round(tournament) if request.user.is_staff else (None, [])
    context: dict[str, Any] = {
        **rendering.live_context(tournament),
        "entrants": field, "entered": entered,
        "prizes": rendering.prizes(tournament, len(field)),
        "session_target": services.session_target(tournament),
        "staff": request.user.is_staff, "reason_form": ReasonForm(), "entrant_form": EntrantForm(),
        "controls": sorted(controls.controls_available(tournament, current, waiting=waiting))
        if request.user.is_staff else [],
        "waiting_to_finish": waiting if current is not None and current.status == TournamentRound.Status.PLAYING
        else [],
    }
    return render(request, "tables/tournaments/tournament.html", context)


@require_POST
def enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, lambda: services.enter(tournament_id=tournament_id, user=request.user),
                _("You are entered."))


@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, lambda: services.withdraw(tournament_id=tournament_id, user=request.user),
                _("You have withdrawn."))


def _act(request: HttpRequest, tournament_id: int, call: Callable[[], object], done: Any) -> HttpResponse:
    try:
        call()
    except TableError as refused:  # NotAllowed and NoSuchTable are TableErrors too
        messages.error(request, str(refused))
    else:
        messages.success(request, done)
    return redirect("tournament", tournament_id=tournament_id)


def _staff_only(request: HttpRequest) -> None:
    if not (request.user.is_active and request.user.is_staff):
        raise PermissionDenied


def create(request: HttpRequest) -> HttpResponse:
    _staff_only(request)
    game = request.GET.get("game")
    if request.method == "POST":
        form = NewTournamentForm(request.POST)
        if form.is_valid():
            try:
                tournament = controls.organise(organiser=request.user, **form.service_arguments())
            except TableError as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, gettext("The tournament is set up: open its entries when you are ready."))
                return redirect("tournament", tournament_id=tournament.pk)
        status = 400
    else:
        form, status = NewTournamentForm(game=game), 200
    template = "tables/tournaments/new.html#form" if request.htmx else "tables/tournaments/new.html"
    return render(request, template, {"form": form}, status=status)


def _staff_action(name: str, call: Callable[[HttpRequest, int], object], done: Any) -> Callable[..., HttpResponse]:
    @require_POST
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        _staff_only(request)
        get_object_or_404(Tournament, pk=tournament_id)
        return _act(request, tournament_id, lambda: call(request, tournament_id), done)

    view.__name__ = name
    return view


def _reason(request: HttpRequest) -> str:
    form = ReasonForm(request.POST)
    if not form.is_valid():
        raise TableError(gettext("Give a reason of at most %(count)s characters.") % {"count": REASON_LENGTH})
    return form.cleaned_data["reason"]


def _entrant(request: HttpRequest, field: str = "username") -> User:
    form = EntrantForm({"username": request.POST.get(field, "")})
    user = User.objects.filter(username=form.data.get("username", "").strip()).first() if form.is_valid() else None
    if user is None:
        raise TableError(gettext("There is no member with that username."))
    return user


def _club_player_name(request: HttpRequest) -> str:
    form = ClubPlayerForm(request.POST)
    if not form.is_valid():
        raise TableError(gettext("Give the player's name, at most %(count)s characters.")
                         % {"count": club_players.NAME_LENGTH})
    return form.cleaned_data["display_name"]


open_entries = _staff_action("open_entries", lambda request, pk: services.open_entries(
    tournament_id=pk, staff=request.user), _("Entries are open."))
close_entries = _staff_action("close_entries", lambda request, pk: services.close_entries(
    tournament_id=pk, staff=request.user), _("Entries are closed."))
add_entrant = _staff_action("add_entrant", lambda request, pk: services.add_entrant(
    tournament_id=pk, staff=request.user, user=_entrant(request)), _("The member is entered."))
add_club_player = _staff_action("add_club_player", lambda request, pk: club_players.enter_club_player(
    tournament_id=pk, staff=request.user, display_name=_club_player_name(request)),
    _("The player is entered; they play only at the club."))
draw = _staff_action("draw", lambda request, pk: services.draw_next_round(
    tournament_id=pk, staff=request.user), _("The next round is drawn."))
redraw = _staff_action("redraw", lambda request, pk: controls.redraw_round(
    tournament_id=pk, staff=request.user), _("The round is drawn again."))
start_round = _staff_action("start_round", lambda request, pk: services.start_round(
    tournament_id=pk, staff=request.user), _("The round has started."))
finish_round = _staff_action("finish_round", lambda request, pk: services.finish_round(
    tournament_id=pk, staff=request.user), _("The round is done."))
pause = _staff_action("pause", lambda request, pk: controls.pause(
    tournament_id=pk, staff=request.user, reason=_reason(request)), _("The tournament is paused."))
resume = _staff_action("resume", lambda request, pk: controls.resume(
    tournament_id=pk, staff=request.user), _("The tournament goes on."))
cancel = _staff_action("cancel", lambda request, pk: controls.cancel(
    tournament_id=pk, staff=request.user, reason=_reason(request)), _("The tournament is cancelled."))
publish = _staff_action("publish", lambda request, pk: controls.publish_results(
    tournament_id=pk, staff=request.user), _("The results are published."))


@require_POST
def void_table(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    _staff_only(request)
    tournament = get_object_or_404(Tournament, pk=tournament_id)  # by key first: an id past the database's is a 404
    get_object_or_404(TournamentTable, pk=table_id, round__tournament=tournament)
    return _act(request, tournament_id, lambda: services.void_table(
        table_id=table_id, staff=request.user, reason=_reason(request)), _("The table is voided."))


@require_POST
def replace_player(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """The organiser seats another member for one who has to leave (before the round starts, or during play)."""
    _staff_only(request)
    tournament = get_object_or_404(Tournament, pk=tournament_id)  # by key first: an id past the database's is a 404
    get_object_or_404(TournamentTable, pk=table_id, round__tournament=tournament)
    return _act(request, tournament_id, lambda: replacing.replace_player(
        table_id=table_id, staff=request.user, leaving=_entrant(request, "leaving"),
        joining=_entrant(request, "joining")), _("The player is replaced."))
