"""A tournament is rated like any match, or not, as the organiser chose (issue 45, item 4): an unrated tournament's
matches are recorded in full but move nobody's rating, and the ratings' rebuild agrees with what was stored."""

from __future__ import annotations

import pytest

from tables.models import MatchResult, RatingChange
from tables.ratings.services.rebuild import rebuild_ratings
from tables.tournaments import services
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.online_support import drawn, entered, play_out

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rated", [True, False])
def test_the_organisers_choice_decides_whether_matches_are_rated(make_member, monkeypatch, rated,
                                                                  django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    staff = make_member("organiser", is_staff=True)
    tournament, members = entered(make_member, staff, game="hawsker", format="swiss", count=2, rounds=1,
                                  options={"short": True}, rated=rated)
    round_ = drawn(tournament, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    table = round_.tables.get()
    with django_capture_on_commit_callbacks(execute=True):
        for member in members:
            open_page(table.table, member)
        play_out(table.table, present=set(table.seats), time=time)
    result = MatchResult.objects.get(table=table.table)
    assert result.places.count() == 2  # recorded either way
    assert (result.rating_seq is not None) is rated
    assert RatingChange.objects.filter(result=result).count() == (2 if rated else 0)
    assert rebuild_ratings(write=False).differences == []
