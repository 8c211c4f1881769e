"""Marking a drawn tournament table online or at the club: allowed until its round starts, a session mixing both, and
every refusal changing nothing."""

from __future__ import annotations

import pytest

from tables.models import TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import services
from tables.tournaments.club_tables import set_where
from tests.tables.tournaments.club_support import session_tournament, swiss_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_member):
    return make_member("organiser", is_staff=True)


def wheres(drawn) -> list[str]:
    return [table.where for table in TournamentTable.objects.filter(round=drawn).order_by("number")]


def test_a_session_mixes_club_and_online_tables_until_it_starts(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=10)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    first, second = drawn.tables.order_by("number")
    assert wheres(drawn) == ["online", "online"]  # the default
    assert set_where(table_id=first.pk, staff=staff, where="club").where == "club"
    assert wheres(drawn) == ["club", "online"]
    set_where(table_id=first.pk, staff=staff, where="club")  # again: nothing more
    set_where(table_id=second.pk, staff=staff, where="club")
    set_where(table_id=second.pk, staff=staff, where="online")
    assert wheres(drawn) == ["club", "online"]

    services.start_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError, match="Round 1 has started"):
        set_where(table_id=second.pk, staff=staff, where="club")
    assert wheres(drawn) == ["club", "online"]
    for table in drawn.tables.all():
        services.record_session_points(table_id=table.pk, staff=staff, points=dict.fromkeys(table.players, 0))
    services.finish_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError, match="Round 1 has started"):  # done: still fixed
        set_where(table_id=first.pk, staff=staff, where="online")
    assert wheres(drawn) == ["club", "online"]


def test_refusals_change_nothing(make_member, staff) -> None:
    tournament, members = swiss_tournament(make_member, staff, count=5)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    match = next(table for table in drawn.tables.all() if not table.is_bye)
    bye = next(table for table in drawn.tables.all() if table.is_bye)
    with pytest.raises(NotAllowed):
        set_where(table_id=match.pk, staff=members[0], where="club")
    with pytest.raises(TableError, match="online or at the club"):
        set_where(table_id=match.pk, staff=staff, where="pub")
    with pytest.raises(TableError, match="bye"):
        set_where(table_id=bye.pk, staff=staff, where="club")
    with pytest.raises(TableError, match="no such tournament table"):
        set_where(table_id=bye.pk + 1000, staff=staff, where="club")
    services.void_table(table_id=match.pk, staff=staff, reason="Both players left.")
    with pytest.raises(TableError, match="voided"):
        set_where(table_id=match.pk, staff=staff, where="club")
    assert set(wheres(drawn)) == {"online"}


def test_the_print_page_switches_a_table_for_staff_only(make_member, staff) -> None:
    from django.test import Client
    from django.urls import reverse

    tournament, members = session_tournament(make_member, staff, count=10)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    first = drawn.tables.get(number=1)
    url = reverse("tournament_table_where", args=[first.pk])
    member = Client()
    member.force_login(members[0])
    assert member.post(url, {"where": "club"}).status_code == 403
    assert wheres(drawn) == ["online", "online"]
    office = Client()
    office.force_login(staff)
    printed = reverse("tournament_round_print", args=[tournament.pk, 1])
    assert f'action="{url}"' in office.get(printed).content.decode()
    answer = office.post(url, {"where": "club"})
    assert answer.status_code == 302 and answer["Location"].endswith("#table-1")
    assert wheres(drawn) == ["club", "online"]
    services.start_round(tournament_id=tournament.pk, staff=staff)
    office.post(url, {"where": "online"})
    assert wheres(drawn) == ["club", "online"]
    assert f'action="{url}"' not in office.get(printed).content.decode()


def test_a_hawk_tournament_counting_every_bonus_trick_keeps_its_tables_online(make_member, staff) -> None:
    """The club's Hawk sheet counts each bonus kind once per side: a club table of such a tournament would be scored
    by another rule than its online tables."""
    every_trick = services.create_tournament(organiser=staff, name="Hawk cup", game="hawk", format="sessions",
                                             rounds=1, hands_per_session=4, options={"bonus_per_trick": True})
    once = services.create_tournament(organiser=staff, name="Hawk evening", game="hawk", format="sessions",
                                      rounds=1, hands_per_session=4)
    for tournament, prefix in ((every_trick, "e"), (once, "o")):
        services.open_entries(tournament_id=tournament.pk, staff=staff)
        for index in range(4):
            services.add_entrant(tournament_id=tournament.pk, staff=staff, user=make_member(f"{prefix}{index}"))
        services.close_entries(tournament_id=tournament.pk, staff=staff)
    refused = services.draw_next_round(tournament_id=every_trick.pk, staff=staff).tables.get()
    with pytest.raises(TableError, match="counts every bonus trick"):
        set_where(table_id=refused.pk, staff=staff, where="club")
    assert TournamentTable.objects.get(pk=refused.pk).where == "online"
    allowed = services.draw_next_round(tournament_id=once.pk, staff=staff).tables.get()
    assert set_where(table_id=allowed.pk, staff=staff, where="club").where == "club"
