"""Staff enter a person who plays only at the club (issue 45): an account made for the name, entered at once; a name
reading like another member's refused; and such a player never seated at an online table."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.members import find_member, suggest_members
from accounts.models import User
from tables.models import Entry, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import club_players, services
from tables.tournaments.club_tables import set_where
from tables.tournaments.replacing import replace_player
from tests.tables.tournaments.club_support import session_tournament

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def add_url(tournament: Tournament) -> str:
    return reverse("tournament_add_club_player", args=[tournament.pk])


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def open_tournament(staff) -> Tournament:
    tournament = services.create_tournament(organiser=staff, name="Spring cup", game="sheepshead",
                                            format="sessions", rounds=2, hands_per_session=4)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    return tournament


def snapshot(tournament: Tournament) -> tuple[list, list]:
    return (sorted(User.objects.values_list("username", flat=True)),
            sorted(Entry.objects.filter(tournament=tournament).values_list("user_id", "status")))


def test_staff_enter_a_club_player_who_gets_an_account_without_a_login(make_member, staff) -> None:
    tournament = open_tournament(staff)
    response = client_for(staff).post(add_url(tournament), {"display_name": "  Ann   Weber "})
    assert response.status_code == 302
    assert said(response) == ["The player is entered; they play only at the club."]

    ann = User.objects.get(display_name="Ann Weber")
    assert ann.username == "ann-weber"
    assert not ann.has_usable_password()
    assert ann.email == ""
    assert ann.plays_only_at_club and ann.is_active and not ann.is_staff
    assert Entry.objects.get(tournament=tournament, user=ann).status == Entry.Status.ENTERED
    page = client_for(staff).get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert reverse("member_profile", args=[ann.username]) in page and "Ann Weber" in page
    # The treasurer's sheets find them by name, as any member.
    assert ann in suggest_members("Weber")
    assert find_member("Ann Weber", by_email=False).member == ann
    assert client_for(staff).get(reverse("member_profile", args=[ann.username])).status_code == 200


def test_a_taken_username_gets_a_number(make_member, staff) -> None:
    make_member("bob-stone", display_name="Robert")
    tournament = open_tournament(staff)
    entry = club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name="Bob Stone")
    assert entry.user.username == "bob-stone-2"
    assert entry.user.display_name == "Bob Stone"
    assert club_players.username_for("Ωμέγα") == "player"  # no ASCII letters to make one of


def test_a_name_reading_like_a_members_is_refused_and_nothing_is_made(make_member, staff) -> None:
    make_member("aweber", display_name="Ann Weber")
    tournament = open_tournament(staff)
    before = snapshot(tournament)
    for name in ("ANN WEBER", "\u0410nn Weber", "aweber"):  # any case; a Cyrillic A; the member's username
        with pytest.raises(TableError, match="is taken: add them by username"):
            club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name=name)
    response = client_for(staff).post(add_url(tournament), {"display_name": "Ann Weber"})
    assert said(response) == ["The name “Ann Weber” is taken: add them by username (or, if this is someone else, "
                              "give a name that tells the two apart)."]
    for name, reason in (("", "Give the player's name"), ("x" * 41, "at most 40 characters"),
                         ("The Treasurer", "kept for the club"), ("Ann\u200bMüller", "invisible")):
        with pytest.raises(TableError, match=reason):
            club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name=name)
    assert snapshot(tournament) == before


def test_only_staff_enter_a_club_player(make_member, staff) -> None:
    tournament = open_tournament(staff)
    member = make_member("plain")
    before = snapshot(tournament)
    assert client_for(member).post(add_url(tournament), {"display_name": "Carl Club"}).status_code == 403
    with pytest.raises(NotAllowed):
        club_players.enter_club_player(tournament_id=tournament.pk, staff=member, display_name="Carl Club")
    assert snapshot(tournament) == before


def test_after_the_first_draw_the_field_is_fixed(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=10)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    before = snapshot(tournament)
    with pytest.raises(TableError, match="its field is fixed"):
        club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name="Dora Late")
    response = client_for(staff).post(add_url(tournament), {"display_name": "Dora Late"})
    assert said(response) == ["The tournament has started: its field is fixed."]
    assert snapshot(tournament) == before


def test_a_club_player_at_an_online_table_stops_the_start_until_it_plays_at_the_club(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=9)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    ella = club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name="Ella Field").user
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    hers = next(table for table in drawn.tables.all() if ella.pk in table.players)
    other = next(table for table in drawn.tables.all() if ella.pk not in table.players)

    printed = client_for(staff).get(reverse("tournament_round_print", args=[tournament.pk, 1])).content.decode()
    assert 'id="club-only-online"' in printed
    assert f'data-member="{ella.pk}">Ella Field plays only at the club' in printed
    assert printed.count("data-club-only") == 1  # her seat card, nobody else's

    with pytest.raises(TableError, match=f"Table {hers.number} seats Ella Field, who plays only at the club"):
        services.start_round(tournament_id=tournament.pk, staff=staff)
    drawn.refresh_from_db()
    assert drawn.status == TournamentRound.Status.DRAWN
    assert not TournamentTable.objects.filter(round=drawn, table__isnull=False).exists()

    set_where(table_id=hers.pk, staff=staff, where="club")
    printed = client_for(staff).get(reverse("tournament_round_print", args=[tournament.pk, 1])).content.decode()
    assert 'id="club-only-online"' not in printed and "data-club-only" not in printed
    services.start_round(tournament_id=tournament.pk, staff=staff)
    drawn.refresh_from_db()
    assert drawn.status == TournamentRound.Status.PLAYING
    other.refresh_from_db()
    hers.refresh_from_db()
    assert other.table_id is not None and hers.table_id is None  # the online one seated, hers played at the club


def test_the_panel_offers_the_form_exactly_when_it_offers_add_entrant(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=10)

    def forms() -> tuple[bool, bool]:
        page = client_for(staff).get(reverse("tournament", args=[tournament.pk])).content.decode()
        return (f'action="{reverse("tournament_add_entrant", args=[tournament.pk])}"' in page,
                f'action="{add_url(tournament)}"' in page)

    assert forms() == (True, True)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert forms() == (False, False)


def test_a_password_given_later_ends_club_only(make_member, staff) -> None:
    tournament = open_tournament(staff)
    fred = club_players.enter_club_player(tournament_id=tournament.pk, staff=staff, display_name="Fred Late").user
    fred.set_password("a long and new secret")
    fred.save(update_fields=["password"])
    fred.refresh_from_db()
    assert not fred.plays_only_at_club


def test_a_club_player_cannot_replace_someone_at_a_table_playing_online(make_member, staff) -> None:
    tournament, _ = session_tournament(make_member, staff, count=10)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    table = drawn.tables.order_by("number").first()
    gus = User.objects.create_user(username="gus", display_name="Gus Club", password=None, plays_only_at_club=True)
    leaving = User.objects.get(pk=table.players[0])
    with pytest.raises(TableError, match="Gus Club plays only at the club"):
        replace_player(table_id=table.pk, staff=staff, leaving=leaving, joining=gus)
    table.refresh_from_db()
    assert gus.pk not in table.players and leaving.pk in table.players and not table.replacements
    assert not Entry.objects.filter(tournament=tournament, user=gus).exists()
