"""A Sheepshead tournament in sessions run through the services: 23 entrants, 3 sessions at tables of 5 and 4, points
recorded per table, a voided table, the standings as sums; and the same seed and entries drawing the same tables."""

from __future__ import annotations

import pytest

from tables.models import Tournament, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import services
from tables.tournaments.selectors import standings

pytestmark = pytest.mark.django_db


def entered(make_member, staff, *, count: int, game: str = "sheepshead", rounds: int = 3, prefix: str = "m",
            seed: str | None = None, members=None):
    tournament = services.create_tournament(organiser=staff, name="Club championship", game=game, format="sessions",
                                            rounds=rounds, hands_per_session=8)
    if seed is not None:
        Tournament.objects.filter(pk=tournament.pk).update(seed=seed)
    members = members or [make_member(f"{prefix}{index:02d}") for index in range(count)]
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    return tournament, members


def test_twenty_three_at_sheepshead_over_three_sessions(make_member) -> None:
    staff = make_member("treasurer", is_staff=True)
    tournament, members = entered(make_member, staff, count=23)
    index = {member.pk: number for number, member in enumerate(members)}
    voided: set[int] = set()
    for session in range(1, 4):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        tables = list(drawn.tables.order_by("number"))
        assert [len(table.seats) for table in tables] == [5, 5, 5, 4, 4]
        assert sorted(seat for table in tables for seat in table.seats) == sorted(index)
        with pytest.raises(TableError):  # not every table has its points yet
            services.finish_round(tournament_id=tournament.pk, staff=staff)
        for table in tables:
            # Member number k scores k times the session's number at every table.
            services.record_session_points(table_id=table.pk, staff=staff,
                                           points={seat: index[seat] * session for seat in table.seats})
        if session == 3:
            table = tables[0]
            with pytest.raises(TableError):
                services.void_table(table_id=table.pk, staff=staff, reason="   ")
            table.refresh_from_db()
            assert (table.void_reason, table.voided_at, table.voided_by_id) == ("", None, None)
            services.void_table(table_id=table.pk, staff=staff, reason="The deck was short a card.")
            table.refresh_from_db()
            assert table.void and table.void_reason == "The deck was short a card." and table.voided_by == staff
            voided = set(table.seats)
            with pytest.raises(TableError):  # a voided table takes no more points
                services.record_session_points(table_id=table.pk, staff=staff,
                                               points=dict.fromkeys(table.seats, 0))
        services.finish_round(tournament_id=tournament.pk, staff=staff)

    ranked = standings(tournament_id=tournament.pk)
    totals = {one.user_id: one.score for one in ranked}
    # By hand: k x (1 + 2 + 3) = 6k, or k x (1 + 2) = 3k at the table voided in session 3.
    for number in (0, 1, 7, 22):
        member = members[number]
        assert totals[member.pk] == (3 if member.pk in voided else 6) * number
    assert totals == {pk: (3 if pk in voided else 6) * number for pk, number in index.items()}
    assert [one.score for one in ranked] == sorted(totals.values(), reverse=True)
    assert [one.place for one in ranked] == list(range(1, 24))
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_session_points_must_name_the_table_and_staff_record_them(make_member) -> None:
    staff = make_member("treasurer", is_staff=True)
    tournament, members = entered(make_member, staff, count=10)
    table = services.draw_next_round(tournament_id=tournament.pk, staff=staff).tables.get(number=1)
    wrong = {seat: 1 for seat in table.seats[1:]}
    with pytest.raises(TableError):
        services.record_session_points(table_id=table.pk, staff=staff, points=wrong)
    with pytest.raises(services.NotAllowed):
        services.record_session_points(table_id=table.pk, staff=members[0],
                                       points=dict.fromkeys(table.seats, 1))
    table.refresh_from_db()
    assert table.points is None


def test_the_same_seed_and_entries_draw_the_same_tables(make_member) -> None:
    staff = make_member("organiser", is_staff=True)
    seed = "0123456789abcdef0123456789abcdef"
    first, members = entered(make_member, staff, count=13, game="hawk", seed=seed)
    second, _ = entered(make_member, staff, count=13, game="hawk", seed=seed, members=list(reversed(members)))
    other, _ = entered(make_member, staff, count=13, game="hawk", seed="f" * 32, members=members)
    drawn: dict[int, list[list[list[int | None]]]] = {}
    for tournament in (first, second, other):
        for session in range(1, 4):
            services.draw_next_round(tournament_id=tournament.pk, staff=staff)
            tables = TournamentTable.objects.filter(round__tournament=tournament, round__number=session)
            for table in tables:
                services.record_session_points(table_id=table.pk, staff=staff, points=dict.fromkeys(table.seats, 0))
            services.finish_round(tournament_id=tournament.pk, staff=staff)
        drawn[tournament.pk] = [
            [table.seats for table in TournamentTable.objects.filter(round__tournament=tournament, round__number=n)
             .order_by("number")] for n in range(1, 4)]
    assert drawn[first.pk] == drawn[second.pk]
    assert [len(table) for table in drawn[first.pk][0]] == [5, 4, 4]  # one odd table, not three
    assert drawn[other.pk] != drawn[first.pk]  # the seed decides the draw


def test_the_same_seed_and_results_pair_the_same_swiss_rounds(make_member) -> None:
    staff = make_member("organiser", is_staff=True)
    members = [make_member(f"s{index}") for index in range(7)]
    drawn = []
    for _ in range(2):
        tournament = services.create_tournament(organiser=staff, name="Swiss", game="hawsker", format="swiss",
                                                rounds=3)
        Tournament.objects.filter(pk=tournament.pk).update(seed="ab" * 16)
        services.open_entries(tournament_id=tournament.pk, staff=staff)
        for member in members:
            services.enter(tournament_id=tournament.pk, user=member)
        services.close_entries(tournament_id=tournament.pk, staff=staff)
        rounds = []
        for _number in range(3):
            tables = list(services.draw_next_round(tournament_id=tournament.pk, staff=staff).tables.order_by("number"))
            rounds.append([table.seats for table in tables])
            for table in tables:
                if not table.is_bye:
                    winner = next(member for member in members if member.pk in table.seats)
                    services.record_swiss_result(table_id=table.pk, winner=winner)
            services.finish_round(tournament_id=tournament.pk, staff=staff)
        drawn.append(rounds)
    assert drawn[0] == drawn[1]
