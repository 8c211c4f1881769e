"""A Hawsker Swiss round played online: each pairing's match winner is recorded as the match ends; a recording that
fails after play's commit is made by the clock's next pass, once; a table an admin closed records nothing."""

from __future__ import annotations

import pytest

from rules.engine.api import Match as EngineMatch
from tables.models import Match, Table, TournamentTable
from tables.play import background
from tables.play.services import admin_actions
from tables.tournaments import results
from tables.tournaments.clock import TournamentJob
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.online_support import drawn, entered, play_out

pytestmark = pytest.mark.django_db


def swiss_round(make_member, monkeypatch, count: int = 4):
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, members = entered(make_member, staff, game="hawsker", format="swiss", count=count, rounds=2,
                                  options={"short": True})
    round_ = drawn(tournament, staff)
    from tables.tournaments import services

    services.start_round(tournament_id=tournament.pk, staff=staff)
    return time, staff, tournament, {member.pk: member for member in members}, list(round_.tables.order_by("number"))


def played(table: TournamentTable, members, time) -> Table:
    for member in table.seats:
        open_page(table.table, members[member])
    play_out(table.table, present=set(table.seats), time=time)
    return Table.objects.get(pk=table.table_id)


def the_winner(play_table: Table, table: TournamentTable) -> int:
    """The seat with the higher total, from the engine's match as it ended (a Hawsker match cannot end level)."""
    totals = EngineMatch.from_json(Match.objects.get(table=play_table).state).totals
    assert totals[0] != totals[1]
    return table.seats[0 if totals[0] > totals[1] else 1]


def test_a_hawsker_swiss_round_records_each_winner(make_member, monkeypatch,
                                                    django_capture_on_commit_callbacks) -> None:
    time, _, _, members, tables = swiss_round(make_member, monkeypatch)
    assert len(tables) == 2
    for table in tables:
        assert table.table.seat_count == 2 and table.table.options == {"short": True}
    with django_capture_on_commit_callbacks(execute=True):
        ended = [played(table, members, time) for table in tables]
    for table, play_table in zip(tables, ended, strict=True):
        assert play_table.status == Table.Status.FINISHED
        table.refresh_from_db()
        assert table.winner_id == the_winner(play_table, table)
        assert table.points is None


def test_a_failed_recording_is_made_by_the_next_pass_once(make_member, monkeypatch,
                                                           django_capture_on_commit_callbacks) -> None:
    time, _, _, members, tables = swiss_round(make_member, monkeypatch, count=2)
    (table,) = tables
    calls: list[int] = []

    def failing(*, table_id: int):
        calls.append(table_id)
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patched:
        patched.setattr(results, "record_online_result", failing)
        with django_capture_on_commit_callbacks(execute=True):  # robust: logged, play's commit stands
            play_table = played(table, members, time)
    assert calls == [table.pk]  # the receiver did try, after play's commit
    assert play_table.status == Table.Status.FINISHED
    table.refresh_from_db()
    assert table.winner_id is None
    assert results.missing_results() == [table.pk]

    background.run_pass(lambda: None, jobs={"tournaments": TournamentJob()})
    table.refresh_from_db()
    assert table.winner_id == the_winner(play_table, table)
    assert results.missing_results() == []
    # Again, by a second process's pass or the late on-commit recording: nothing changes.
    assert results.record_online_result(table_id=table.pk) is None
    background.run_pass(lambda: None, jobs={"tournaments": TournamentJob()})
    assert TournamentTable.objects.get(pk=table.pk).winner_id == table.winner_id


def test_a_table_the_admin_closed_records_nothing(make_member, monkeypatch,
                                                   django_capture_on_commit_callbacks) -> None:
    _, staff, _, _, tables = swiss_round(make_member, monkeypatch, count=2)
    (table,) = tables
    admin = type(staff).objects.create_superuser(username="admin", email="admin@example.org", password="x")
    with django_capture_on_commit_callbacks(execute=True):
        admin_actions.close_table(table_id=table.table_id, admin=admin, reason="The connection broke for both.")
    assert Table.objects.get(pk=table.table_id).status == Table.Status.ABANDONED
    TournamentJob()()
    table.refresh_from_db()
    assert table.winner_id is None and table.points is None
    assert results.record_online_result(table_id=table.pk) is None
