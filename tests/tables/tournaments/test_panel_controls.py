"""The organiser's panel offers only the controls that can succeed now (issue 45). A tournament is walked through
its states; at each one `controls.controls_available` is compared with what the organiser should see, the page's
panel with the function, and every control is tried against its service (in a transaction rolled back, so the
walk goes on from the same state): each offered one succeeds and each withheld one is refused. So the function and
the services cannot drift apart."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tables.models import Tournament, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import club_players, controls, selectors, services
from tables.tournaments.controls import (
    ADD_ENTRANT,
    CANCEL,
    CLOSE_ENTRIES,
    CONTROLS,
    DRAW,
    FINISH,
    OPEN_ENTRIES,
    PAUSE,
    PUBLISH,
    REDRAW,
    RESUME,
    START,
    TABLES,
)
from tests.tables.tournaments.club_support import session_tournament

pytestmark = pytest.mark.django_db

URLS = {OPEN_ENTRIES: "tournament_open_entries", CLOSE_ENTRIES: "tournament_close_entries",
        ADD_ENTRANT: "tournament_add_entrant", DRAW: "tournament_draw", REDRAW: "tournament_redraw",
        START: "tournament_start_round", FINISH: "tournament_finish_round", PAUSE: "tournament_pause",
        RESUME: "tournament_resume", CANCEL: "tournament_cancel", PUBLISH: "tournament_publish"}


# Controls offered under another's name: the panel shows each exactly when it shows that one, and each must then
# succeed (and be refused when it is withheld) as that one does.
ALONGSIDE = {ADD_ENTRANT: ("tournament_add_club_player", lambda t, staff: club_players.enter_club_player(
    tournament_id=t.pk, staff=staff, display_name="Walk-in Player"))}


class Undo(Exception):
    """Raised inside a tried control's transaction so that it rolls back."""


def _void_a_table(tournament: Tournament, staff) -> object:
    current, _ = selectors.current_round(tournament)
    table = current.tables.filter(voided_at__isnull=True).order_by("number").first() if current else None
    if table is None:
        raise TableError("no table to act on")
    return services.void_table(table_id=table.pk, staff=staff, reason="tried")


def actions(make_member) -> dict[str, Callable[[Tournament, object], object]]:
    return {
        OPEN_ENTRIES: lambda t, staff: services.open_entries(tournament_id=t.pk, staff=staff),
        CLOSE_ENTRIES: lambda t, staff: services.close_entries(tournament_id=t.pk, staff=staff),
        ADD_ENTRANT: lambda t, staff: services.add_entrant(tournament_id=t.pk, staff=staff,
                                                           user=make_member("latecomer")),
        DRAW: lambda t, staff: services.draw_next_round(tournament_id=t.pk, staff=staff),
        REDRAW: lambda t, staff: controls.redraw_round(tournament_id=t.pk, staff=staff),
        START: lambda t, staff: services.start_round(tournament_id=t.pk, staff=staff),
        FINISH: lambda t, staff: services.finish_round(tournament_id=t.pk, staff=staff),
        PAUSE: lambda t, staff: controls.pause(tournament_id=t.pk, staff=staff, reason="Rain"),
        RESUME: lambda t, staff: controls.resume(tournament_id=t.pk, staff=staff),
        CANCEL: lambda t, staff: controls.cancel(tournament_id=t.pk, staff=staff, reason="Nobody came"),
        PUBLISH: lambda t, staff: controls.publish_results(tournament_id=t.pk, staff=staff),
        TABLES: _void_a_table,
    }


def succeeds(act: Callable[[Tournament, object], object], tournament: Tournament, staff) -> bool:
    try:
        with transaction.atomic():
            act(tournament, staff)
            raise Undo
    except Undo:
        return True
    except TableError:
        return False


def panel(staff, tournament: Tournament) -> tuple[set[str], str]:
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    shown = re.search(r'class="organiser-buttons" data-controls="([^"]*)"', page).group(1)
    return set(shown.split()), page


def check(tournament: Tournament, staff, make_member, expected: set[str]) -> None:
    """The state's controls are `expected`, on the page as in the function; each one offered succeeds through its
    service and each withheld one is refused."""
    tournament.refresh_from_db()
    current, waiting = selectors.current_round(tournament)
    available = controls.controls_available(tournament, current, waiting=waiting)
    assert available == expected
    shown, page = panel(staff, tournament)
    assert shown == available
    for control, name in URLS.items():
        assert (f'action="{reverse(name, args=[tournament.pk])}"' in page) == (control in available), control
    assert ('action="/tournaments/' in page and "/void/" in page) == (TABLES in available)
    tried = actions(make_member)
    assert set(tried) == CONTROLS
    for control, act in tried.items():
        outcome = succeeds(act, tournament, staff)
        assert outcome == (control in available), f"{control}: offered {control in available}, succeeded {outcome}"
    for control, (name, act) in ALONGSIDE.items():
        assert (f'action="{reverse(name, args=[tournament.pk])}"' in page) == (control in available), name
        outcome = succeeds(act, tournament, staff)
        assert outcome == (control in available), f"{name}: offered {control in available}, succeeded {outcome}"
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.status, after.current_round, after.paused_at) == (tournament.status, tournament.current_round,
                                                                    tournament.paused_at)


def record_every_result(tournament: Tournament, staff) -> None:
    tournament.refresh_from_db()
    current, _ = selectors.current_round(tournament)
    for table in current.tables.filter(voided_at__isnull=True, winner__isnull=True, points__isnull=True):
        if tournament.format == Tournament.Format.SESSIONS:
            services.record_session_points(table_id=table.pk, staff=staff,
                                           points={member: index for index, member in enumerate(table.players)})
        else:
            winner = type(staff).objects.get(pk=table.players[0])
            services.record_swiss_result(table_id=table.pk, winner=winner)


def test_a_session_tournament_offers_at_each_step_only_what_succeeds(make_member, staff) -> None:
    tournament = services.create_tournament(organiser=staff, name="Spring cup", game="sheepshead",
                                            format="sessions", rounds=2, hands_per_session=4)
    check(tournament, staff, make_member, {OPEN_ENTRIES, ADD_ENTRANT, PAUSE, CANCEL})
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {CLOSE_ENTRIES, ADD_ENTRANT, PAUSE, CANCEL})
    for index in range(10):
        services.enter(tournament_id=tournament.pk, user=make_member(f"s{index:02d}"))
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {OPEN_ENTRIES, ADD_ENTRANT, DRAW, PAUSE, CANCEL})
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="Hall not open")
    check(tournament, staff, make_member, {OPEN_ENTRIES, ADD_ENTRANT, RESUME, CANCEL})
    controls.resume(tournament_id=tournament.pk, staff=staff)

    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {START, REDRAW, PAUSE, CANCEL, TABLES})
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="A player is late")
    check(tournament, staff, make_member, {RESUME, CANCEL, TABLES})
    controls.resume(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {PAUSE, CANCEL, TABLES})  # tables still without results: no Finish

    first = TournamentTable.objects.get(round__tournament=tournament, round__number=1, number=1)
    services.record_session_points(table_id=first.pk, staff=staff,
                                   points={member: 0 for member in first.players})
    check(tournament, staff, make_member, {PAUSE, CANCEL, TABLES})  # one table still waiting
    record_every_result(tournament, staff)
    check(tournament, staff, make_member, {FINISH, PAUSE, CANCEL, TABLES})
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="Dinner")
    check(tournament, staff, make_member, {FINISH, RESUME, CANCEL, TABLES})  # tables playing play on
    controls.resume(tournament_id=tournament.pk, staff=staff)
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {DRAW, PAUSE, CANCEL})

    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    record_every_result(tournament, staff)
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {PUBLISH})  # the last round done: finished
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, set())


def test_a_round_robin_is_never_drawn_again(make_member, staff) -> None:
    tournament = services.create_tournament(organiser=staff, name="Hawsker ring", game="hawsker",
                                            format="round_robin")
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for index in range(4):
        services.enter(tournament_id=tournament.pk, user=make_member(f"r{index}"))
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {OPEN_ENTRIES, ADD_ENTRANT, DRAW, PAUSE, CANCEL})
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {START, PAUSE, CANCEL, TABLES})  # its schedule: nothing to draw again
    services.start_round(tournament_id=tournament.pk, staff=staff)
    record_every_result(tournament, staff)
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    check(tournament, staff, make_member, {DRAW, PAUSE, CANCEL})


def test_a_cancelled_tournament_offers_nothing(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=10)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    controls.cancel(tournament_id=tournament.pk, staff=staff, reason="The hall flooded")
    check(tournament, staff, make_member, set())
