"""Shared by the tournament tests: the organiser (a staff member), unless a module names its own; and for the club
sheet's tests, the treasurer, a client logged in as them, and a session table played at the club."""

from __future__ import annotations

import pytest

from tables.models import TournamentTable
from tables.tournaments import club_tables, services
from tests.tables.tournaments.club_support import CLUB_HANDS, CLUB_STAKE, session_tournament


@pytest.fixture
def staff(make_member):
    return make_member("organiser", is_staff=True)


@pytest.fixture
def club_table(make_member, treasurer) -> TournamentTable:
    """Session 1 of a Sheepshead tournament of ten (two tables of five), table 2 played at the club, started."""
    tournament, _ = session_tournament(make_member, treasurer, count=10, hands=CLUB_HANDS, stake_cents=CLUB_STAKE)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=treasurer)
    table = drawn.tables.get(number=2)
    club_tables.set_where(table_id=table.pk, staff=treasurer, where="club")
    services.start_round(tournament_id=tournament.pk, staff=treasurer)
    return TournamentTable.objects.select_related("round__tournament").get(pk=table.pk)
