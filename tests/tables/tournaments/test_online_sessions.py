"""A Sheepshead session played online: starting the round seats each drawn table at a private play table of exactly
its members, in the drawn order, playing the session's hands; played out (a member who never came played by the
bot), each member's points are their match total in stakes, recorded when the match ends."""

from __future__ import annotations

import pytest

from tables.lobby.selectors import lobby_tables
from tables.models import Match, Move, Round, Seat, Table, TournamentRound
from tables.play.services.errors import TableError
from tables.play.services.tables import join_table
from tables.tournaments import services
from tables.tournaments.selectors import tournament_table_of
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.online_support import drawn, entered, play_out

pytestmark = pytest.mark.django_db

STAKE = 100  # the tournament's Sheepshead stake, in cents: a hand's settlement divided by it is its points


def test_a_session_round_seats_plays_and_records_points(make_member, monkeypatch,
                                                        django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    outsider = make_member("outsider")
    tournament, members = entered(make_member, staff, game="sheepshead", format="sessions", count=9, rounds=2,
                                  hands_per_session=2)
    round_ = drawn(tournament, staff)
    started_at = time.now
    services.start_round(tournament_id=tournament.pk, staff=staff)

    tables = list(round_.tables.order_by("number"))
    assert [len(table.seats) for table in tables] == [5, 4]
    for table in tables:
        assert table.table is not None and table.started_at == started_at
        play_table = table.table
        assert play_table.private and play_table.status == Table.Status.RUNNING
        assert play_table.seat_count == len(table.seats)
        assert list(Seat.objects.filter(table=play_table).order_by("position").values_list("user_id", flat=True)) \
            == table.seats
        assert Match.objects.get(table=play_table).config["options"]["rounds"] == 2
        assert Match.objects.get(table=play_table).config["options"]["stake_cents"] == STAKE
        found = tournament_table_of(table_id=play_table.pk)
        assert found == table and found.round.tournament == tournament
        assert play_table not in lobby_tables()
        with pytest.raises(TableError):  # nobody else sits at a tournament's table
            join_table(table_id=play_table.pk, user=outsider)
    assert tournament_table_of(table_id=-1) is None

    # Starting again changes nothing: the round is playing, and its tables are seated once.
    with pytest.raises(TableError):
        services.start_round(tournament_id=tournament.pk, staff=staff)
    assert Table.objects.filter(tournament_tables__round=round_).count() == 2

    first = tables[0]
    absent = first.seats[2]  # never opens the table: the clock's bot plays the seat after the table's grace
    by_id = {member.pk: member for member in members}
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables:
            present = {member for member in table.seats if member != absent}
            for member in present:
                open_page(table.table, by_id[member])
            play_out(table.table, present=present, time=time)

    for table in tables:
        table.refresh_from_db()
        play_table = Table.objects.get(pk=table.table_id)
        assert play_table.status == Table.Status.FINISHED
        # The seat's total over the session's hands, from the rounds' own results, in stakes.
        rounds = Round.objects.filter(match__table=play_table, voided_at__isnull=True, over=True)
        assert rounds.count() == 2
        totals = [sum(rnd.result["deltas"][position] for rnd in rounds) for position in range(len(table.seats))]
        assert table.points == {str(member): totals[position] // STAKE for position, member in enumerate(table.seats)}
        assert all(total % STAKE == 0 for total in totals)
        assert sum(table.points.values()) == 0  # money settles to zero: so do its points
    seat_of_absent = first.seats.index(absent)
    actors = set(Move.objects.filter(round__match__table_id=first.table_id, seat=seat_of_absent)
                 .values_list("actor", flat=True))
    assert actors and actors <= {Move.Actor.ABSENT, Move.Actor.HOUSE}  # the bot, as for any member offline
    assert first.no_shows == []  # written down by the clock's job, not by playing (see test_online_no_shows)

    services.finish_round(tournament_id=tournament.pk, staff=staff)
    assert TournamentRound.objects.get(pk=round_.pk).status == TournamentRound.Status.DONE
