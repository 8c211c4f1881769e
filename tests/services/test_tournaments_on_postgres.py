"""Issue 45's "done when" on PostgreSQL (services tier), at full size: a Sheepshead championship of 23 entrants in
three sessions of 20 hands (tables of five and four; online tables where members play and the bot plays a no-show's
seat, and one table a session at the club, entered by the treasurer on the night sheet) and a Hawsker Swiss of nine
in four rounds (a bye each round, one match a round at the club), each from the first draw to the published results,
standings checked against the hands (tests/tables/tournaments/championship.py)."""

from __future__ import annotations

import pytest

from tests.tables.play.table_life import fake_time
from tests.tables.tournaments.championship import (
    check_sheepshead_standings,
    check_swiss_standings,
    run_hawsker_swiss,
    run_sheepshead_championship,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.mark.timeout(1200)  # some 240 hands through the services, beside the e2e tier on a loaded machine
def test_twenty_three_play_a_sheepshead_championship(make_member, monkeypatch,
                                                      django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, expected, no_shows = run_sheepshead_championship(
        make_member=make_member, staff=staff, time=time, capture=django_capture_on_commit_callbacks, entrants=23,
        sessions=3, hands=20, seed=23)
    check_sheepshead_standings(tournament, expected)
    assert len(expected) == 23 and len(no_shows) == 3


@pytest.mark.timeout(600)
def test_nine_play_a_hawsker_swiss_of_four_rounds(make_member, monkeypatch,
                                                  django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, scores, pairings = run_hawsker_swiss(
        make_member=make_member, staff=staff, time=time, capture=django_capture_on_commit_callbacks, entrants=9,
        rounds=4, seed=9)
    check_swiss_standings(tournament, scores, pairings)
    assert len(pairings) == 4 and all(len(pairs) == 4 for pairs in pairings)
