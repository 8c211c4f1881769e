"""What the tournament services refuse, and that a refusal changes nothing."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tables.models import Entry, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import services


def snapshot() -> tuple:
    return (
        list(Tournament.objects.order_by("pk").values_list("pk", "status", "current_round", "rounds")),
        list(Entry.objects.order_by("pk").values_list("pk", "status")),
        list(TournamentRound.objects.order_by("pk").values_list("pk", "status")),
        list(TournamentTable.objects.order_by("pk").values_list("pk", "seats", "winner_id", "points", "void_reason")),
    )


def hawsker_swiss(make_member, *, entrants: int = 4, status: str = "entries_closed"):
    staff = make_member("organiser", is_staff=True)
    tournament = services.create_tournament(organiser=staff, name="Hawsker", game="hawsker", format="swiss", rounds=3)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    members = [make_member(f"p{index}") for index in range(entrants)]
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    if status != "entries_open":
        services.close_entries(tournament_id=tournament.pk, staff=staff)
    return staff, tournament, members


@pytest.mark.django_db
def test_entering_when_entries_are_closed_is_refused(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member)
    late = make_member("late")
    before = snapshot()
    with pytest.raises(TableError):
        services.enter(tournament_id=tournament.pk, user=late)
    assert snapshot() == before
    services.add_entrant(tournament_id=tournament.pk, staff=staff, user=late)  # staff may, before the start
    assert Entry.objects.filter(tournament=tournament, user=late, status="entered").exists()


@pytest.mark.django_db
def test_entering_twice_is_refused(make_member) -> None:
    _, tournament, members = hawsker_swiss(make_member, status="entries_open")
    before = snapshot()
    with pytest.raises(TableError):
        services.enter(tournament_id=tournament.pk, user=members[0])
    assert snapshot() == before


@pytest.mark.django_db
def test_members_who_are_not_staff_cannot_create_open_or_draw(make_member) -> None:
    _, tournament, members = hawsker_swiss(make_member)
    before = snapshot()
    with pytest.raises(NotAllowed):
        services.create_tournament(organiser=members[0], name="Mine", game="hawsker", format="swiss", rounds=2)
    with pytest.raises(NotAllowed):
        services.draw_next_round(tournament_id=tournament.pk, staff=members[0])
    with pytest.raises(NotAllowed):
        services.open_entries(tournament_id=tournament.pk, staff=members[0])
    assert snapshot() == before


@pytest.mark.django_db
def test_drawing_while_a_round_is_not_done_is_refused(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    before = snapshot()
    with pytest.raises(TableError):
        services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError):  # nor may a round with a match unplayed finish
        services.finish_round(tournament_id=tournament.pk, staff=staff)
    assert snapshot() == before


@pytest.mark.django_db
def test_drawing_before_entries_close_is_refused(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member, status="entries_open")
    before = snapshot()
    with pytest.raises(TableError):
        services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "format", "extra"), [
    ("sheepshead", "swiss", {"rounds": 3}),
    ("puskiyon", "round_robin", {}),
    ("hawsker", "sessions", {"rounds": 3}),
    ("hawsker", "swiss", {"rounds": 0}),
    ("hawsker", "swiss", {"rounds": 3, "hands_per_session": 5}),
    ("hawsker", "round_robin", {"rounds": 4}),
    ("sheepshead", "sessions", {"rounds": 2, "hands_per_session": 0}),
    ("sheepshead", "sessions", {"rounds": 2, "options": {"no_such_rule": True}}),
    ("chess", "swiss", {"rounds": 3}),
    ("hawsker", "knockout", {"rounds": 3}),
])
def test_a_format_the_game_does_not_play_is_refused(make_member, game, format, extra) -> None:
    staff = make_member("organiser", is_staff=True)
    with pytest.raises(TableError):
        services.create_tournament(organiser=staff, name="Wrong", game=game, format=format, **extra)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_withdrawing_after_the_start_is_refused(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    before = snapshot()
    with pytest.raises(TableError):
        services.withdraw(tournament_id=tournament.pk, user=members[0])
    with pytest.raises(TableError):  # and staff no longer add anyone
        services.add_entrant(tournament_id=tournament.pk, staff=staff, user=make_member("late"))
    assert snapshot() == before


@pytest.mark.django_db
def test_a_result_once_recorded_stands(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    table = services.draw_next_round(tournament_id=tournament.pk, staff=staff).tables.get(number=1)
    first, second = (member for member in members if member.pk in table.seats)
    services.record_swiss_result(table_id=table.pk, winner=first)
    services.record_swiss_result(table_id=table.pk, winner=first)  # the same again: nothing new
    before = snapshot()
    with pytest.raises(TableError):
        services.record_swiss_result(table_id=table.pk, winner=second)
    assert snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_two_draws_at_once_make_one_round(make_member) -> None:
    staff, tournament, _ = hawsker_swiss(make_member, entrants=9)
    barrier = threading.Barrier(2)
    done: list[object] = []
    failed: list[BaseException] = []

    def draw() -> None:
        try:
            barrier.wait()
            done.append(services.draw_next_round(tournament_id=tournament.pk, staff=staff))
        except BaseException as error:
            failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=draw) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(done) == 1 and len(failed) == 1 and isinstance(failed[0], TableError)
    assert list(TournamentRound.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    assert TournamentTable.objects.filter(round__tournament=tournament).count() == 5
    assert Tournament.objects.get(pk=tournament.pk).current_round == 1


@pytest.mark.django_db
def test_a_drawn_round_starts_once(make_member) -> None:
    staff, tournament, members = hawsker_swiss(make_member)
    with pytest.raises(TableError):  # nothing drawn yet
        services.start_round(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert services.start_round(tournament_id=tournament.pk, staff=staff).status == "playing"
    before = snapshot()
    with pytest.raises(TableError):
        services.start_round(tournament_id=tournament.pk, staff=staff)
    assert snapshot() == before
    for table in drawn.tables.all():
        services.record_swiss_result(table_id=table.pk,
                                     winner=next(member for member in members if member.pk in table.seats))
    assert services.finish_round(tournament_id=tournament.pk, staff=staff).status == "done"
