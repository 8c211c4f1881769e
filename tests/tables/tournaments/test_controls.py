"""The organiser's controls: pause and resume, cancel, publish, re-draw, and planning with fee and prizes; each
refusal changes nothing."""

from __future__ import annotations

import pytest
from django.db import transaction

from tables.models import Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import controls, services
from tests.tables.tournaments.test_tournament_refusals import hawsker_swiss, snapshot


def tournament_row(tournament_id: int) -> tuple:
    return tuple(Tournament.objects.filter(pk=tournament_id).values_list(
        "status", "paused_at", "pause_reason", "cancel_reason", "published_at", "options", "current_round").get())


def session_tournament(make_member, *, count: int = 8, rounds: int = 2):
    staff = make_member("boss", is_staff=True)
    tournament = services.create_tournament(organiser=staff, name="Sessions", game="sheepshead", format="sessions",
                                            rounds=rounds)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    members = [make_member(f"s{index}") for index in range(count)]
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    return staff, tournament, members


def seats_of(round_: TournamentRound) -> list[list[int | None]]:
    return [table.seats for table in round_.tables.order_by("number")]


@pytest.mark.django_db
def test_a_paused_tournament_draws_and_starts_nothing_until_it_resumes(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member)
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="  Power  cut ")
    paused = Tournament.objects.get(pk=tournament.pk)
    assert paused.paused_at is not None and paused.pause_reason == "Power cut"
    before = snapshot()
    with pytest.raises(TableError, match="paused"):
        services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert snapshot() == before
    controls.resume(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="Lunch")
    with pytest.raises(TableError, match="paused"):
        services.start_round(tournament_id=tournament.pk, staff=staff)
    assert TournamentRound.objects.get(pk=drawn.pk).status == TournamentRound.Status.DRAWN
    controls.resume(tournament_id=tournament.pk, staff=staff)
    assert services.start_round(tournament_id=tournament.pk, staff=staff).status == TournamentRound.Status.PLAYING
    assert Tournament.objects.get(pk=tournament.pk).pause_reason == ""


@pytest.mark.django_db
def test_pause_and_resume_refusals_change_nothing(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    row = tournament_row(tournament.pk)
    with pytest.raises(TableError, match="Say why"):
        controls.pause(tournament_id=tournament.pk, staff=staff, reason="   ")
    with pytest.raises(TableError, match="at most"):
        controls.pause(tournament_id=tournament.pk, staff=staff, reason="x" * 301)
    with pytest.raises(NotAllowed):
        controls.pause(tournament_id=tournament.pk, staff=members[0], reason="mine")
    with pytest.raises(TableError, match="not paused"):
        controls.resume(tournament_id=tournament.pk, staff=staff)
    assert tournament_row(tournament.pk) == row
    controls.pause(tournament_id=tournament.pk, staff=staff, reason="one")
    row = tournament_row(tournament.pk)
    with pytest.raises(TableError, match="paused already"):
        controls.pause(tournament_id=tournament.pk, staff=staff, reason="two")
    with pytest.raises(NotAllowed):
        controls.resume(tournament_id=tournament.pk, staff=members[0])
    assert tournament_row(tournament.pk) == row


@pytest.mark.django_db
def test_cancel_keeps_the_reason_and_refuses_once_finished(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    with pytest.raises(TableError, match="Say why"):
        controls.cancel(tournament_id=tournament.pk, staff=staff, reason="")
    with pytest.raises(NotAllowed):
        controls.cancel(tournament_id=tournament.pk, staff=members[0], reason="bored")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.ENTRIES_CLOSED
    controls.cancel(tournament_id=tournament.pk, staff=staff, reason="Too few tables")
    cancelled = Tournament.objects.get(pk=tournament.pk)
    assert (cancelled.status, cancelled.cancel_reason) == (Tournament.Status.CANCELLED, "Too few tables")
    row = tournament_row(tournament.pk)
    with pytest.raises(TableError, match="cancelled"):
        controls.cancel(tournament_id=tournament.pk, staff=staff, reason="again")
    with pytest.raises(TableError):
        services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert tournament_row(tournament.pk) == row



def play_out_a_swiss(make_member):
    staff = make_member("chief", is_staff=True)
    tournament = services.create_tournament(organiser=staff, name="Short", game="hawsker", format="swiss", rounds=1)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    players = [make_member(f"q{index}") for index in range(2)]
    for player in players:
        services.enter(tournament_id=tournament.pk, user=player)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    table = TournamentTable.objects.get(round__tournament=tournament)
    services.record_swiss_result(table_id=table.pk, winner=players[0])
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    return staff, tournament, players


@pytest.mark.django_db
def test_a_finished_tournament_cannot_be_cancelled_and_publishes_once(make_member) -> None:
    staff, tournament, players = play_out_a_swiss(make_member)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    row = tournament_row(tournament.pk)
    with pytest.raises(TableError, match="finished"):
        controls.cancel(tournament_id=tournament.pk, staff=staff, reason="late")
    with pytest.raises(TableError, match="finished"):
        controls.pause(tournament_id=tournament.pk, staff=staff, reason="late")
    with pytest.raises(NotAllowed):
        controls.publish_results(tournament_id=tournament.pk, staff=players[0])
    assert tournament_row(tournament.pk) == row
    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    published = Tournament.objects.get(pk=tournament.pk).published_at
    assert published is not None
    with pytest.raises(TableError, match="already"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert Tournament.objects.get(pk=tournament.pk).published_at == published


@pytest.mark.django_db
def test_results_are_not_published_before_the_end(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError, match="finished"):
        controls.publish_results(tournament_id=tournament.pk, staff=staff)
    assert Tournament.objects.get(pk=tournament.pk).published_at is None


@pytest.mark.django_db
def test_a_redraw_differs_and_is_reproducible(make_member) -> None:
    staff, tournament, _ = session_tournament(make_member, count=12)
    first = seats_of(services.draw_next_round(tournament_id=tournament.pk, staff=staff))
    again = seats_of(controls.redraw_round(tournament_id=tournament.pk, staff=staff))
    assert again != first
    assert sorted(seat for table in again for seat in table) == sorted(seat for table in first for seat in table)
    assert Tournament.objects.get(pk=tournament.pk).current_round == 1
    assert TournamentRound.objects.filter(tournament=tournament).count() == 1
    third = seats_of(controls.redraw_round(tournament_id=tournament.pk, staff=staff))
    assert Tournament.objects.get(pk=tournament.pk).options[services.REDRAWS] == {"1": 2}
    # The same tournament (seed, field, re-draw count) draws the same tables again.
    with transaction.atomic():
        TournamentRound.objects.filter(tournament=tournament).delete()
        Tournament.objects.filter(pk=tournament.pk).update(current_round=0)
        replay = seats_of(services.draw_next_round(tournament_id=tournament.pk, staff=staff))
    assert replay == third
    assert "_redraws" not in controls.game_options(Tournament.objects.get(pk=tournament.pk))


@pytest.mark.django_db
def test_a_started_round_or_a_round_robin_is_not_drawn_again(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    with pytest.raises(TableError, match="drawn round"):
        controls.redraw_round(tournament_id=tournament.pk, staff=staff)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(NotAllowed):
        controls.redraw_round(tournament_id=tournament.pk, staff=members[0])
    services.start_round(tournament_id=tournament.pk, staff=staff)
    before = snapshot()
    with pytest.raises(TableError, match="not started"):
        controls.redraw_round(tournament_id=tournament.pk, staff=staff)
    assert snapshot() == before

    robin = services.create_tournament(organiser=staff, name="Robin", game="hawsker", format="round_robin")
    services.open_entries(tournament_id=robin.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=robin.pk, user=member)
    services.close_entries(tournament_id=robin.pk, staff=staff)
    services.draw_next_round(tournament_id=robin.pk, staff=staff)
    before = snapshot()
    with pytest.raises(TableError, match="schedule"):
        controls.redraw_round(tournament_id=robin.pk, staff=staff)
    assert snapshot() == before


@pytest.mark.django_db
def test_organise_sets_the_schedule_fee_and_prizes_or_nothing(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    made = controls.organise(organiser=staff, name="Cup", game="hawsker", format="swiss", rounds=3,
                             no_show_minutes=5, entry_fee_cents=500, prize_shares=[50, 30, 20])
    made.refresh_from_db()
    assert (made.no_show_minutes, made.entry_fee_cents, made.prize_shares) == (5, 500, [50, 30, 20])
    count = Tournament.objects.count()
    for shares, fee in (([60, 50], 500), ([0, 10], 500), ([50], 0)):
        with pytest.raises(TableError):
            controls.organise(organiser=staff, name="Bad", game="hawsker", format="swiss", rounds=3,
                              entry_fee_cents=fee, prize_shares=shares)
    with pytest.raises(TableError):
        controls.organise(organiser=staff, name="Bad", game="hawsker", format="swiss", rounds=3, no_show_minutes=0)
    assert Tournament.objects.count() == count
