"""No-shows at an online tournament table, written down by the table clock's passes: a member who has not opened
their table within the tournament's minutes of its start, once, whichever pass (or process) sees it first."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.models import TournamentTable
from tables.play import background
from tables.play.services import clock
from tables.tournaments import services
from tables.tournaments.clock import TournamentJob
from tests.tables.play.table_life import close_page, fake_time, open_page
from tests.tables.tournaments.online_support import drawn, entered

pytestmark = pytest.mark.django_db


def test_members_who_never_open_their_table_are_written_down_as_no_shows(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, members = entered(make_member, staff, game="sheepshead", format="sessions", count=5, rounds=1,
                                  hands_per_session=2)
    assert tournament.no_show_minutes == 10
    round_ = drawn(tournament, staff)
    start = time.now
    services.start_round(tournament_id=tournament.pk, staff=staff)
    (table,) = round_.tables.all()
    by_id = {member.pk: member for member in members}
    never, briefly, late, *others = table.seats
    for member in others:
        open_page(table.table, by_id[member])
    time.to(start + timedelta(minutes=2))
    open_page(table.table, by_id[briefly])  # came, looked, and closed the page again: not a no-show
    close_page(table.table, by_id[briefly])

    job = TournamentJob()

    def a_pass():
        return background.run_pass(lambda: clock.sweep(now=time.now), jobs={"tournaments": lambda: job(now=time.now)})

    time.to(start + timedelta(minutes=9, seconds=59))
    a_pass()
    assert TournamentTable.objects.get(pk=table.pk).no_shows == []
    assert job(now=time.now) == start + timedelta(minutes=10)  # when the job wants to look again

    time.to(start + timedelta(minutes=10))
    a_pass()
    assert TournamentTable.objects.get(pk=table.pk).no_shows == sorted([never, late])

    time.to(start + timedelta(minutes=11))
    open_page(table.table, by_id[late])  # too late: the record stands
    a_pass()
    a_pass()  # a second process's pass: nothing twice
    assert TournamentTable.objects.get(pk=table.pk).no_shows == sorted([never, late])
    assert job(now=time.now) is None  # nothing more to wait for


def test_a_voided_table_is_left_alone(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, _ = entered(make_member, staff, game="sheepshead", format="sessions", count=5, rounds=1,
                            hands_per_session=2)
    round_ = drawn(tournament, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    (table,) = round_.tables.all()
    services.void_table(table_id=table.pk, staff=staff, reason="The organiser seated the wrong field.")
    time.to(time.now + timedelta(hours=1))
    assert TournamentJob()(now=time.now) is None
    assert TournamentTable.objects.get(pk=table.pk).no_shows == []
