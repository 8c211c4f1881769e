"""Issue 45's "done when" in the default tier, smaller than the services tier's (tests/services/
test_tournaments_on_postgres.py): a Sheepshead championship of 11 in two sessions of three hands (online tables with
a no-show, one table at the club on the treasurer's sheet) and a Hawsker Swiss of five in three rounds, standings
checked against the hands."""

from __future__ import annotations

import pytest

from tests.tables.play.table_life import fake_time
from tests.tables.tournaments.championship import (
    check_sheepshead_standings,
    check_swiss_standings,
    run_hawsker_swiss,
    run_sheepshead_championship,
)

pytestmark = pytest.mark.django_db


def test_a_sheepshead_championship_online_and_at_the_club(make_member, monkeypatch,
                                                           django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, expected, no_shows = run_sheepshead_championship(
        make_member=make_member, staff=staff, time=time, capture=django_capture_on_commit_callbacks, entrants=11,
        sessions=2, hands=3, seed=3)
    check_sheepshead_standings(tournament, expected)
    assert len(no_shows) == 2


def test_a_hawsker_swiss_online_and_at_the_club(make_member, monkeypatch, django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, scores, pairings = run_hawsker_swiss(
        make_member=make_member, staff=staff, time=time, capture=django_capture_on_commit_callbacks, entrants=5,
        rounds=3, seed=4)
    check_swiss_standings(tournament, scores, pairings)
