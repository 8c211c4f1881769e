"""No-shows at an online tournament table, written down by the table clock's passes: a member who has not opened
their table within the tournament's minutes of its start, once, whichever pass (or process) sees it first."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.models import TournamentTable
from tables.play import background
from tables.play.services import clock
from tables.tournaments import services
from tables.tournaments.clock import LOOK_EVERY, TournamentJob, mark_no_shows
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

    job, other_process = TournamentJob(), TournamentJob()

    def a_pass(job: TournamentJob = job):
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
    a_pass(other_process)  # a second process's pass: nothing twice
    assert TournamentTable.objects.get(pk=table.pk).no_shows == sorted([never, late])
    assert mark_no_shows(now=time.now) is None  # nothing more to wait for
    assert job(now=time.now) == time.now + LOOK_EVERY  # so the job looks again only for results left behind


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
    assert mark_no_shows(now=time.now) is None
    TournamentJob()(now=time.now)
    assert TournamentTable.objects.get(pk=table.pk).no_shows == []


def test_the_job_looks_again_only_when_due_and_after_a_failed_look(make_member, monkeypatch,
                                                                     django_assert_num_queries) -> None:
    """The clock passes every second in every process: between looks the job asks nothing of the database, and a
    look that failed is made again on the next pass, not a look interval later."""
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, _ = entered(make_member, staff, game="sheepshead", format="sessions", count=5, rounds=1,
                            hands_per_session=2)
    drawn(tournament, staff)
    start = time.now
    services.start_round(tournament_id=tournament.pk, staff=staff)
    job = TournamentJob()
    failures = []

    def failing(*, now=None):
        failures.append(now)
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patched:
        patched.setattr("tables.tournaments.clock.mark_no_shows", failing)
        background.run_pass(lambda: None, jobs={"tournaments": lambda: job(now=time.now)})  # logged, not raised
    assert failures == [start]
    assert job.next_look is None  # still due

    assert job(now=time.now) == start + LOOK_EVERY  # looked; nobody is due before the interval is up
    time.to(start + timedelta(seconds=29))
    with django_assert_num_queries(0):
        assert job(now=time.now) == start + LOOK_EVERY
    time.to(start + timedelta(minutes=9, seconds=50))
    assert job(now=time.now) == start + timedelta(minutes=10)  # the no-shows' deadline is sooner than a look
