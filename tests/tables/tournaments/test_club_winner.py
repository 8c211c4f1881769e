"""The winner of a Hawsker Swiss match played at the club, chosen by staff on a small form: recorded once, refused
for an online table, before the round starts, for someone not at the table, and for anyone but staff."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import TournamentTable
from tables.tournaments import club_tables, services
from tables.tournaments.selectors import standings
from tests.tables.helpers import client_for
from tests.tables.tournaments.club_support import swiss_tournament

pytestmark = pytest.mark.django_db


def test_the_winner_form_for_a_swiss_club_table(make_member, staff) -> None:
    tournament, members = swiss_tournament(make_member, staff, count=4)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    club, online = drawn.tables.order_by("number")
    club_tables.set_where(table_id=club.pk, staff=staff, where="club")
    url = reverse("tournament_table_winner", args=[club.pk])
    office = client_for(staff)
    first, second = club.seats

    early = office.post(url, {"winner": second})
    assert early.status_code == 400 and "has not started" in early.content.decode()
    services.start_round(tournament_id=tournament.pk, staff=staff)

    page = office.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    by_id = {member.pk: member for member in members}
    assert by_id[first].shown_name in text and by_id[second].shown_name in text
    assert by_id[online.seats[0]].shown_name not in text

    stranger = office.post(url, {"winner": online.seats[0]})
    assert stranger.status_code == 400
    assert client_for(by_id[first]).post(url, {"winner": first}).status_code == 403
    club.refresh_from_db()
    assert club.winner_id is None

    done = office.post(url, {"winner": second})
    assert done.status_code == 302
    assert done["Location"].startswith(reverse("tournament_round_print", args=[tournament.pk, 1]))
    club.refresh_from_db()
    assert club.winner_id == second
    again = office.post(url, {"winner": first})  # a recorded result stands: staff void the table instead
    assert again.status_code == 400 and "already recorded" in again.content.decode()
    club.refresh_from_db()
    assert club.winner_id == second
    assert "won this match" in office.get(url).content.decode()

    refused = office.post(reverse("tournament_table_winner", args=[online.pk]), {"winner": online.seats[0]})
    assert refused.status_code == 400 and "played online" in refused.content.decode()
    assert TournamentTable.objects.get(pk=online.pk).winner_id is None

    top = standings(tournament_id=tournament.pk)
    assert {one.user_id: one.score for one in top}[second] > {one.user_id: one.score for one in top}[first]
