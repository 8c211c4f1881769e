"""Replacing a player at a tournament table: in the drawn seats before the round starts, at the play table while it
plays (the result then goes to whoever holds the seat at the end); the entries follow, the record keeps each
replacement; and what cannot be replaced is refused with nothing changed."""

from __future__ import annotations

import pytest

from tables.models import Entry, Seat, Table, TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import services
from tables.tournaments.replacing import replace_player
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.online_support import drawn, entered, play_out

pytestmark = pytest.mark.django_db


def entry_status(tournament, member) -> list[str]:
    return list(Entry.objects.filter(tournament=tournament, user=member).order_by("pk")
                .values_list("status", flat=True))


def test_before_the_round_starts_the_drawn_seat_changes_hands(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, members = entered(make_member, staff, game="hawsker", format="swiss", count=4, rounds=2)
    by_id = {member.pk: member for member in members}
    substitute = make_member("substitute")
    round_ = drawn(tournament, staff)
    first, second = round_.tables.order_by("number")
    leaving = by_id[first.seats[0]]

    def unchanged() -> None:
        table = TournamentTable.objects.get(pk=first.pk)
        assert table.seats == first.seats and table.replacements == []
        assert entry_status(tournament, substitute) == [] and entry_status(tournament, leaving) == ["entered"]

    refusals = [
        (NotAllowed, {"staff": leaving, "leaving": leaving, "joining": substitute}),  # staff only
        (TableError, {"staff": staff, "leaving": by_id[second.seats[0]], "joining": substitute}),  # not at the table
        (TableError, {"staff": staff, "leaving": leaving, "joining": by_id[second.seats[1]]}),  # plays this round
        (TableError, {"staff": staff, "leaving": leaving, "joining": by_id[first.seats[1]]}),  # at this very table
    ]
    for error, given in refusals:
        with pytest.raises(error):
            replace_player(table_id=first.pk, **given)
        unchanged()

    replace_player(table_id=first.pk, staff=staff, leaving=leaving, joining=substitute)
    table = TournamentTable.objects.get(pk=first.pk)
    assert table.seats == [substitute.pk, first.seats[1]]
    assert table.replacements == [{"out": leaving.pk, "in": substitute.pk, "at": time.now.isoformat(),
                                   "by": staff.pk, "during": False}]
    assert entry_status(tournament, substitute) == ["entered"]
    assert entry_status(tournament, leaving) == ["withdrawn"]
    with pytest.raises(TableError):  # the one who left is no longer at the table
        replace_player(table_id=first.pk, staff=staff, leaving=leaving, joining=make_member("another"))

    services.start_round(tournament_id=tournament.pk, staff=staff)
    table.refresh_from_db()
    assert list(Seat.objects.filter(table=table.table).order_by("position").values_list("user_id", flat=True)) \
        == [substitute.pk, first.seats[1]]

    # A voided table, and a round that is done, take no replacement.
    services.void_table(table_id=second.pk, staff=staff, reason="Both players were ill.")
    with pytest.raises(TableError):
        replace_player(table_id=second.pk, staff=staff, leaving=by_id[second.seats[0]], joining=make_member("x"))
    services.void_table(table_id=first.pk, staff=staff, reason="The substitute was ill too.")
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError):
        replace_player(table_id=first.pk, staff=staff, leaving=substitute, joining=make_member("y"))


def test_during_play_the_newcomer_takes_the_seat_and_its_result(make_member, monkeypatch,
                                                                 django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, members = entered(make_member, staff, game="hawsker", format="swiss", count=2, rounds=1,
                                  options={"short": True})
    by_id = {member.pk: member for member in members}
    round_ = drawn(tournament, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    (table,) = round_.tables.all()
    play_table = table.table
    leaving, staying = (by_id[member] for member in table.seats)
    substitute = make_member("substitute")
    for member in (leaving, staying):
        open_page(play_table, member)
    play_table.refresh_from_db()
    version = play_table.version

    replace_player(table_id=table.pk, staff=staff, leaving=leaving, joining=substitute)

    play_table.refresh_from_db()
    assert play_table.version > version  # every board shows who sits there now
    seat = Seat.objects.get(table=play_table, position=0)
    assert seat.user == substitute and seat.joined_at is None  # not come yet
    assert not Seat.objects.filter(table=play_table, user=leaving).exists()
    table.refresh_from_db()
    assert table.seats == [substitute.pk, staying.pk]
    assert [(r["out"], r["in"], r["during"]) for r in table.replacements] == [(leaving.pk, substitute.pk, True)]
    assert entry_status(tournament, leaving) == ["withdrawn"]
    assert entry_status(tournament, substitute) == ["entered"]

    open_page(play_table, substitute)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(play_table, present={substitute.pk, staying.pk}, time=time)
    play_table.refresh_from_db()
    assert play_table.status == Table.Status.FINISHED
    table.refresh_from_db()
    winning_seat = play_table.match.winners[0]
    assert table.winner_id == [substitute.pk, staying.pk][winning_seat]
    with pytest.raises(TableError):  # the table is over: nobody takes a seat at it
        replace_player(table_id=table.pk, staff=staff, leaving=substitute, joining=make_member("late"))
