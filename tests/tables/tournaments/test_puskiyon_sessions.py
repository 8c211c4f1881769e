"""Puskiyon in sessions (issue 45): a session is one game to the tournament's target, not a number of hands; the
lowest total ranks first; a table at the club records each player's final total on a staff form, converted as the
online table's hands are. A small tournament of eight (two tables a session, one online and one at the club) is
played through the services and the pages, and its standings are checked against totals computed here from the
online rounds' own results and the totals typed on the form."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tables.models import NightDraft, Round, Table, Tournament, TournamentTable
from tables.play.services.errors import NotAllowed, TableError
from tables.tournaments import club_tables, controls, services
from tables.tournaments.club_tables import DECK_POINTS
from tables.tournaments.scoring import totals_points
from tables.tournaments.selectors import standings
from tests.tables.helpers import client_for
from tests.tables.play.table_life import fake_time, open_page
from tests.tables.tournaments.club_support import session_tournament
from tests.tables.tournaments.online_support import entered, play_out

pytestmark = pytest.mark.django_db

TARGET = 40  # a short game, so the online table plays out quickly


def _puskiyon(make_member, staff, *, count: int = 8, target: int = TARGET, prefix: str = "k"):
    return entered(make_member, staff, game="puskiyon", format="sessions", count=count, rounds=2,
                   options={"target": target}, prefix=prefix)


def test_a_puskiyon_session_is_one_game_to_the_target(make_member, staff) -> None:
    office = client_for(staff)
    form = office.get(reverse("tournament_create"), {"game": "puskiyon"}).content.decode()
    assert 'name="hands_per_session"' not in form
    assert 'id="session-note"' in form and "one game" in form and "200" in form
    assert 'name="hands_per_session"' in office.get(reverse("tournament_create"), {"game": "hawk"}).content.decode()

    made = office.post(reverse("tournament_create"), {
        "name": "Puskiyon cup", "game": "puskiyon", "format": "sessions", "rounds": "3", "no_show_minutes": "10",
        "entry_fee": "0", "prize_shares": "", "opt_target": "150"})
    assert made.status_code == 302, made.content.decode()
    tournament = Tournament.objects.get(name="Puskiyon cup")
    assert tournament.hands_per_session == 0 and tournament.house_rules["target"] == 150
    assert services.session_target(tournament) == 150
    page = office.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert 'id="session-length"' in page and "one game to 150" in page and "Hands per session" not in page

    # Asked for a number of hands, the service says why it will not, and makes nothing.
    with pytest.raises(TableError, match="one game to its target"):
        services.create_tournament(organiser=staff, name="Twelve hands", game="puskiyon", format="sessions",
                                   rounds=2, hands_per_session=12)
    assert not Tournament.objects.filter(name="Twelve hands").exists()
    # The games played for a number of hands keep asking it.
    hawk = services.create_tournament(organiser=staff, name="Hawk cup", game="hawk", format="sessions", rounds=2)
    assert hawk.hands_per_session == services.DEFAULT_HANDS_PER_SESSION and services.session_target(hawk) is None


def _online_totals(table: TournamentTable) -> dict[int, int]:
    """Each member's final total at the online table, from the rounds' own results (penalty points per hand)."""
    totals = dict.fromkeys(table.seats, 0)
    for played in Round.objects.filter(match__table_id=table.table_id, over=True, voided_at__isnull=True):
        for seat, points in enumerate(played.result["deltas"]):
            totals[table.seats[seat]] += points
    return totals


def _club_totals(rng: random.Random, players: int) -> list[int]:
    """A finished game's totals as the paper would have them: everyone below the target, one at or past it."""
    totals = [rng.randrange(0, TARGET) for _ in range(players)]
    totals[rng.randrange(players)] = TARGET + rng.randrange(0, 30)
    return totals


def test_a_small_puskiyon_tournament_ranks_the_lowest_total_first(make_member, staff, monkeypatch,
                                                                  django_capture_on_commit_callbacks) -> None:
    time = fake_time(monkeypatch)
    rng = random.Random(45)
    tournament, members = _puskiyon(make_member, staff)
    by_id = {member.pk: member for member in members}
    office = client_for(staff)
    expected = dict.fromkeys(by_id, 0)
    for number in (1, 2):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        club, online = drawn.tables.order_by("number")
        assert len(club.seats) == len(online.seats) == 4
        club_tables.set_where(table_id=club.pk, staff=staff, where="club")
        print_page = office.get(reverse("tournament_round_print", args=[tournament.pk, number])).content.decode()
        assert f"One game to {TARGET}" in print_page
        services.start_round(tournament_id=tournament.pk, staff=staff)
        totals_url = reverse("tournament_table_totals", args=[club.pk])
        print_page = office.get(reverse("tournament_round_print", args=[tournament.pk, number])).content.decode()
        assert totals_url in print_page and reverse("tournament_table_sheet", args=[club.pk]) not in print_page

        online.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            for member in online.seats:
                open_page(online.table, by_id[member])
            play_out(online.table, present=set(online.seats), time=time)
        online.refresh_from_db()
        played = _online_totals(online)
        assert max(played.values()) >= TARGET  # played to the target
        assert online.points == {str(member): total for member, total in played.items()}
        # The conversion the club's form uses gives the same points for the same totals.
        assert totals_points(game="puskiyon", totals=[played[m] for m in online.seats], options={}) \
            == [online.points[str(m)] for m in online.seats]

        paper = _club_totals(rng, len(club.seats))
        done = office.post(totals_url, {f"total_{seat}": str(total) for seat, total in enumerate(paper, start=1)})
        assert done.status_code == 302
        club.refresh_from_db()
        assert club.points == {str(member): total for member, total in zip(club.seats, paper, strict=True)}
        for member, total in [*played.items(), *zip(club.seats, paper, strict=True)]:
            expected[member] += total
        services.finish_round(tournament_id=tournament.pk, staff=staff)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    ranked = standings(tournament_id=tournament.pk)
    assert {one.user_id: one.score for one in ranked} == expected
    assert [one.score for one in ranked] == sorted(expected.values())  # the fewest penalty points first
    assert [one.place for one in ranked] == list(range(1, 9))
    best = min(expected, key=expected.get)
    assert expected[best] < max(expected.values())
    assert ranked[0].score == expected[best]

    controls.publish_results(tournament_id=tournament.pk, staff=staff)
    page = client_for(members[0]).get(reverse("tournament", args=[tournament.pk])).content.decode()
    rows = [int(part.split('"')[0]) for part in page.split('data-member="')[1:]]
    assert rows[:8] == [one.user_id for one in ranked]  # the page's table in the standings' order
    final = page[page.index('id="final-title"'):]
    final = final[:final.index("</ol>")]
    podium = [by_id[one.user_id].shown_name for one in ranked[:3]]
    assert [final.index(name) for name in podium] == sorted(final.index(name) for name in podium)


def _started_club_table(make_member, staff, *, prefix: str = "r"):
    tournament, members = _puskiyon(make_member, staff, prefix=prefix)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    club, online = drawn.tables.order_by("number")
    club_tables.set_where(table_id=club.pk, staff=staff, where="club")
    return tournament, members, club, online


@pytest.mark.parametrize(("totals", "message"), [
    ([10, 20, TARGET], "one total for each of the table's 4 players"),
    ([10, 20, 30, TARGET, 5], "one total for each of the table's 4 players"),
    ([10, -1, 30, TARGET], "whole numbers, 0 or more"),
    ([10, 20.5, 30, TARGET], "whole numbers, 0 or more"),
    ([10, True, 30, TARGET], "whole numbers, 0 or more"),
    ([10, 20, 30, TARGET - 1], f"Nobody's total reaches {TARGET}"),
    ([10, 20, 30, TARGET + DECK_POINTS], f"at most {TARGET - 1 + DECK_POINTS}"),
])
def test_the_totals_are_refused_unless_they_end_a_game(make_member, staff, totals, message) -> None:
    tournament, _, club, _ = _started_club_table(make_member, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError, match=message):
        club_tables.record_club_totals(table_id=club.pk, staff=staff, totals=totals)
    club.refresh_from_db()
    assert club.points is None


def test_the_totals_form_refuses_what_is_not_a_club_puskiyon_table_playing(make_member, staff) -> None:
    tournament, members, club, online = _started_club_table(make_member, staff)
    good = [5, 12, TARGET + 3, 0]
    with pytest.raises(TableError, match="has not started"):
        club_tables.record_club_totals(table_id=club.pk, staff=staff, totals=good)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    with pytest.raises(TableError, match="played online"):
        club_tables.record_club_totals(table_id=online.pk, staff=staff, totals=good)
    with pytest.raises(NotAllowed):
        club_tables.record_club_totals(table_id=club.pk, staff=members[0], totals=good)
    with pytest.raises(TableError, match="final total, not a sheet of hands"):  # the night sheet keeps no Puskiyon
        club_tables.open_table_sheet(table_id=club.pk, staff=staff)
    assert not NightDraft.objects.exists()
    assert TournamentTable.objects.get(pk=club.pk).points is None

    club_tables.record_club_totals(table_id=club.pk, staff=staff, totals=good)
    with pytest.raises(TableError, match="already recorded"):  # recorded once: a wrong one is voided
        club_tables.record_club_totals(table_id=club.pk, staff=staff, totals=[1, 2, TARGET, 3])
    club.refresh_from_db()
    assert club.points == {str(member): total for member, total in zip(club.seats, good, strict=True)}

    # A voided table takes no totals; nor does a game played for a number of hands.
    _, _, other, _ = _started_club_table(make_member, staff, prefix="v")
    services.start_round(tournament_id=other.round.tournament_id, staff=staff)
    services.void_table(table_id=other.pk, staff=staff, reason="a misdeal nobody noticed")
    with pytest.raises(TableError, match="voided"):
        club_tables.record_club_totals(table_id=other.pk, staff=staff, totals=good)
    sheepshead, _ = session_tournament(make_member, staff, count=10, prefix="s")
    drawn = services.draw_next_round(tournament_id=sheepshead.pk, staff=staff)
    table = drawn.tables.order_by("number").first()
    club_tables.set_where(table_id=table.pk, staff=staff, where="club")
    services.start_round(tournament_id=sheepshead.pk, staff=staff)
    with pytest.raises(TableError, match="played to a target"):
        club_tables.record_club_totals(table_id=table.pk, staff=staff, totals=[0, 0, 0, 0, TARGET])
    assert TournamentTable.objects.filter(pk__in=[other.pk, table.pk], points__isnull=False).count() == 0


def test_the_totals_page_is_staff_only_and_says_what_it_refuses(make_member, staff, client) -> None:
    tournament, members, club, _ = _started_club_table(make_member, staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    url = reverse("tournament_table_totals", args=[club.pk])
    assert client.get(url).status_code == 302  # to log in first
    player = client_for(members[0])
    assert player.get(url).status_code == 403
    assert player.post(url, {"total_1": "1", "total_2": "2", "total_3": str(TARGET), "total_4": "3"}).status_code \
        == 403

    office = client_for(staff)
    page = office.get(url)
    assert page.status_code == 200
    by_id = {member.pk: member for member in members}
    text = page.content.decode()
    assert all(by_id[member].shown_name in text for member in club.seats)
    short = office.post(url, {"total_1": "1", "total_2": "2", "total_3": "3", "total_4": "4"})
    assert short.status_code == 400 and f"Nobody&#x27;s total reaches {TARGET}" in short.content.decode()
    junk = office.post(url, {"total_1": "1", "total_2": "two", "total_3": str(TARGET), "total_4": "4"})
    assert junk.status_code == 400
    assert TournamentTable.objects.get(pk=club.pk).points is None
    assert Table.objects.filter(tournament_tables=club).count() == 0  # a club table is never seated online
