"""The club's standings rank the club's own play (issue 45): a tournament's hands and matches, online at a
tournament's table or on a night sheet kept for one, count in the tournament's standings, never in the club's,
whatever the game; the member's history still lists them. The hands are played through the services (a Hawk
session online and at the club, a Hawsker Swiss match online) beside ordinary ones, and the expected lines are
computed from the rounds' and the records' own results, not through the standings."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.ledger.selectors import member_history, standings
from tables.ledger.services.inperson import record_hawk_round
from tables.models import InPersonRecord, MatchPlace, Round, Table
from tables.tournaments import club_tables, services
from tables.treasury.services import nights
from tables.treasury.services.books import check_books
from tests.tables.helpers import client_for, full_table
from tests.tables.ledger_support import finished_table, play_until_round_over
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.online_support import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_member):
    return make_member("organiser", is_staff=True, is_superuser=True)


def _tournament(staff, members, **create):
    tournament = services.create_tournament(organiser=staff, name="Cup", **create)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    return tournament, services.draw_next_round(tournament_id=tournament.pk, staff=staff).tables.get()


def _lines(game: str) -> dict[int, tuple[int, int]]:
    """Each member's line in the club's standings: (hands, total)."""
    return {line.member_id: (line.hands, line.total) for line in standings(game=game) if line.member_id}


def _online_worth(table: Table, member_id: int) -> int:
    seat = table.seats.get(user_id=member_id).position
    return sum(played.result["deltas"][seat] for played in Round.objects.filter(match__table=table, over=True))


def test_a_hawk_tournament_hand_does_not_count_in_the_clubs_standings(make_member, staff) -> None:
    ann, ben, cat, dan, eve, fay, gus = (make_member(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay",
                                                                       "gus"))
    # A session online: a tournament's play table, its one hand played out.
    online, table = _tournament(staff, [ann, ben, cat, dan], game="hawk", format="sessions", rounds=1,
                                hands_per_session=1)
    services.start_round(tournament_id=online.pk, staff=staff)
    table.refresh_from_db()
    play_until_round_over(table.table)
    # A session at the club: its night sheet, one hand, saved.
    club, at_club = _tournament(staff, [ann, eve, fay, gus], game="hawk", format="sessions", rounds=1,
                                hands_per_session=1)
    club_tables.set_where(table_id=at_club.pk, staff=staff, where="club")
    services.start_round(tournament_id=club.pk, staff=staff)
    draft = club_tables.open_table_sheet(table_id=at_club.pk, staff=staff)
    by_id = {member.pk: member for member in (ann, eve, fay, gus)}
    seated = [by_id[pk] for pk in at_club.seats]
    nights.add_row(admin=staff, draft=draft, version=1, members=seated, row={
        "lafh_1": str(seated[0].pk), "lafh_2": str(seated[1].pk), "solo": False, "lafh_pips": "140",
        "nob_pips": "", "lafh_bonuses": [], "nob_bonuses": []})
    nights.save_night(admin=staff, draft=draft, version=2, members=seated)
    at_club.refresh_from_db()
    assert at_club.points is not None and any(at_club.points.values())  # the tournament took the hand
    assert _lines("hawk") == {}  # neither the online hand nor the club's counts for the club

    history = member_history(user=ann, game="hawk")  # her history lists both
    assert {row.entry.round_id for row in history.rows if row.entry.round_id} \
        == set(Round.objects.filter(match__table=table.table).values_list("pk", flat=True))
    assert any(row.entry.in_person_id for row in history.rows)

    # Her ordinary play counts: a hand online with bots and one written down at the club.
    ordinary = finished_table("hawk", [ann], bots=3, rounds=1)
    record = record_hawk_round(admin=staff, players=[ann, ben, cat, dan], lafh=[ann, ben], solo=False,
                               lafh_pips=70)
    in_person = {line["seat"]: line["amount"] for line in record.ledger_entries.values("seat", "amount")}
    expected = _online_worth(ordinary, ann.pk) + in_person[0]
    with CaptureQueriesContext(connection) as queries:
        lines = _lines("hawk")
    assert lines == {ann.pk: (2, expected), ben.pk: (1, in_person[1]), cat.pk: (1, in_person[2]),
                     dan.pk: (1, in_person[3])}
    assert len(queries) <= 2  # the lines and the members' names: no query per entry or per table

    page = client_for(ann).get(reverse("standings"), {"game": "hawk", "period": "all"}).content.decode()
    assert "tournament" in page.lower() and ann.shown_name in page
    # The books still agree with themselves: the balances take every entry, the standings the club's play.
    check = check_books(game="hawk")
    assert check.differences == [], check.differences


def test_a_hawsker_tournament_match_does_not_count_in_the_clubs_standings(make_member, staff,
                                                                          monkeypatch) -> None:
    time = fake_time(monkeypatch)
    ann, ben, cat = (make_member(name) for name in ("ann", "ben", "cat"))
    tournament, table = _tournament(staff, [ann, ben], game="hawsker", format="swiss", rounds=1,
                                    options={"short": True})
    services.start_round(tournament_id=tournament.pk, staff=staff)
    table.refresh_from_db()
    for member in (ann, ben):
        open_page(table.table, member)
    play_out(table.table, present={ann.pk, ben.pk}, time=time)
    assert MatchPlace.objects.filter(result__table=table.table).count() == 2  # the match is recorded
    assert _lines("hawsker") == {}

    ordinary = full_table("hawsker", [ann, cat], short=True)
    for member in (ann, cat):
        open_page(ordinary, member)
    play_out(ordinary, present={ann.pk, cat.pk}, time=time)
    places = {place.user_id: place for place in MatchPlace.objects.filter(result__table=ordinary)}
    lines = {line.member_id: line for line in standings(game="hawsker") if line.member_id}
    assert set(lines) == {ann.pk, cat.pk}
    for member in (ann, cat):
        assert (lines[member.pk].matches, lines[member.pk].won, lines[member.pk].total) \
            == (1, int(places[member.pk].won), places[member.pk].total)
    assert InPersonRecord.objects.count() == 0
