"""The treasurer's night sheet feeding a Sheepshead session table played at the club, through the pages a treasurer
uses: open the table's sheet, enter each hand with the sheet's own form, save. The table's points are checked against
the engine's public `settle` divided by the stake; a sheet of the wrong number of hands is refused and changes
nothing; saving twice records once; the night says it is a tournament table and offers nothing to settle."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.sheepshead import settle
from tables.models import ClubNight, InPersonRecord, LedgerEntry, NightDraft, NightPayment, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import club_tables, services
from tables.treasury.services import nights
from tables.treasury.services.replace import ReplaceError, replace_in_person_record
from tests.tables.tournaments.club_support import CLUB_HANDS, CLUB_STAKE, session_tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
STAKE, HANDS = CLUB_STAKE, CLUB_HANDS








def hands(seed: int, count: int) -> list[tuple[int, int | None, int]]:
    """Picked hands at a table of five: (picker's seat, partner's seat or None: alone, picker's points)."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        picker = rng.randrange(5)
        partner = rng.choice([None, *[seat for seat in range(5) if seat != picker]])
        made.append((picker, partner, rng.choice([0, 15, 29, 30, 31, 45, 60, 61, 75, 89, 90, 91, 110, 120])))
    return made


def expected_points(table: TournamentTable, played: list[tuple[int, int | None, int]]) -> dict[str, int]:
    totals = [0] * 5
    for picker, partner, points in played:
        money = settle(players=5, picker=picker, partner=partner, picker_points=points, stake_cents=STAKE)
        totals = [total + amount for total, amount in zip(totals, money, strict=True)]
    assert all(total % STAKE == 0 for total in totals)
    return {str(member_id): total // STAKE for member_id, total in zip(table.seats, totals, strict=True)}


def version_on(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def open_sheet(client: Client, table: TournamentTable) -> tuple[str, str]:
    """The treasurer opens the table's sheet from the round's page: its token and the sheet page."""
    response = client.post(reverse("tournament_table_sheet", args=[table.pk]))
    assert response.status_code == 302
    token = re.search(r"/treasury/nights/sheet/([^/]+)/$", response["Location"]).group(1)
    page = client.get(response["Location"]).content.decode()
    return token, page


def enter(client: Client, token: str, page: str, table: TournamentTable,
          played: list[tuple[int, int | None, int]]) -> str:
    """Each hand typed into the sheet's row form and sent as the page sends it; the answer carries the new version."""
    for picker, partner, points in played:
        row = {"version": version_on(page), "picker": str(table.seats[picker]),
               "partner": "" if partner is None else str(table.seats[partner]), "points": str(points)}
        response = client.post(reverse("treasury_night_row", args=[token]), row, **HTMX)
        assert response.status_code == 200
        page = response.content.decode()
        assert "errornote" not in page, page
    return page


def save(client: Client, token: str, page: str):
    return client.post(reverse("treasury_night_save", args=[token]), {"version": version_on(page)})


def test_the_sheet_records_the_tables_points(staff_client, club_table) -> None:
    token, page = open_sheet(staff_client, club_table)
    draft = NightDraft.objects.get(token=token)
    assert draft.tournament_table_id == club_table.pk and draft.game == "sheepshead"
    assert draft.seats == club_table.seats and draft.options["stake_cents"] == STAKE
    assert "Club championship, session 1, table 2" in page
    back = reverse("tournament_round_print", args=[club_table.round.tournament_id, club_table.round.number])
    assert re.search(rf'<a href="{back}#sheet-2" id="tournament-table">Club championship, session 1, table 2</a>',
                     page), "the sheet links back to its round's print page"
    again, _ = open_sheet(staff_client, club_table)  # one sheet per table
    assert again == token and NightDraft.objects.filter(tournament_table=club_table).count() == 1

    played = hands(seed=45, count=HANDS)
    page = enter(staff_client, token, page, club_table, played)
    response = save(staff_client, token, page)
    night = ClubNight.objects.get(token=token)
    assert response.status_code == 302 and response["Location"] == reverse("treasury_night", args=[night.pk])
    club_table.refresh_from_db()
    assert club_table.points == expected_points(club_table, played)
    assert any(club_table.points.values())  # a real session, not all zeros
    assert night.tournament_table_id == club_table.pk and night.hands.count() == HANDS

    shown = staff_client.get(response["Location"]).content.decode()
    assert re.search(r'count in points for the tournament: <a href="[^"]+" id="tournament-table">Club championship, '
                     r'session 1, table 2</a>', shown)
    assert reverse("treasury_night_settle", args=[night.pk]) not in shown and 'id="settle-night"' not in shown
    settle_page = staff_client.get(reverse("treasury_night_settle", args=[night.pk]))
    assert settle_page.status_code == 302 and settle_page["Location"] == reverse("treasury_night", args=[night.pk])
    payment = staff_client.post(reverse("treasury_night_settle", args=[night.pk]), {"amount": "1.00"})
    assert payment.status_code == 302 and not NightPayment.objects.exists()

    # The standings read those points: the session's sums.
    from tables.tournaments.selectors import standings
    scores = {one.user_id: one.score for one in standings(tournament_id=club_table.round.tournament_id)}
    assert {str(member): scores[member] for member in club_table.seats} == club_table.points


def test_a_sheet_with_another_number_of_hands_is_refused_and_changes_nothing(staff_client, club_table) -> None:
    token, page = open_sheet(staff_client, club_table)
    page = enter(staff_client, token, page, club_table, hands(seed=7, count=HANDS - 1))
    entries = LedgerEntry.objects.count()
    response = save(staff_client, token, page)
    assert response.status_code == 400
    text = response.content.decode()
    assert f"session of {HANDS} hands, but it has {HANDS - 1} hands" in text
    assert not ClubNight.objects.exists() and not InPersonRecord.objects.exists()
    assert LedgerEntry.objects.count() == entries
    club_table.refresh_from_db()
    draft = NightDraft.objects.get(token=token)
    assert club_table.points is None and draft.night_id is None

    # One more hand, one voided: still one short. Then the last one: saved.
    page = enter(staff_client, token, text, club_table, hands(seed=8, count=1))
    staff_client.post(reverse("treasury_night_row_void", args=[token, 1]),
                      {"version": NightDraft.objects.get(token=token).version})
    page = staff_client.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    refused = save(staff_client, token, page)
    assert refused.status_code == 400 and f"it has {HANDS - 1} hands" in refused.content.decode()
    assert not ClubNight.objects.exists()
    page = enter(staff_client, token, refused.content.decode(), club_table, hands(seed=9, count=1))
    assert save(staff_client, token, page).status_code == 302
    club_table.refresh_from_db()
    assert club_table.points is not None and ClubNight.objects.get().hands.count() == HANDS


def test_saving_twice_records_once(staff_client, club_table, monkeypatch) -> None:
    calls: list[int] = []
    recording = nights.record_session_points

    def counted(**kwargs):
        calls.append(kwargs["table_id"])
        return recording(**kwargs)

    monkeypatch.setattr(nights, "record_session_points", counted)
    token, page = open_sheet(staff_client, club_table)
    played = hands(seed=11, count=HANDS)
    page = enter(staff_client, token, page, club_table, played)
    first = save(staff_client, token, page)
    second = save(staff_client, token, page)  # the double click: the same page, the same version
    night = ClubNight.objects.get()
    assert first["Location"] == second["Location"] == reverse("treasury_night", args=[night.pk])
    assert calls == [club_table.pk]
    assert InPersonRecord.objects.count() == HANDS
    club_table.refresh_from_db()
    assert club_table.points == expected_points(club_table, played)
    # Opening the table's sheet again finds the signed-off one; no second night can be made for the table.
    again, page = open_sheet(staff_client, club_table)
    assert again == token and "read-only" in page


def test_the_sheet_opens_only_for_a_started_session_table_at_the_club(make_member, treasurer) -> None:
    tournament, members = session_tournament(make_member, treasurer, count=10, hands=HANDS)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=treasurer)
    online, club = drawn.tables.order_by("number")
    club_tables.set_where(table_id=club.pk, staff=treasurer, where="club")
    with pytest.raises(TableError, match="has not started"):
        club_tables.open_table_sheet(table_id=club.pk, staff=treasurer)
    services.start_round(tournament_id=tournament.pk, staff=treasurer)
    with pytest.raises(TableError, match="played online"):
        club_tables.open_table_sheet(table_id=online.pk, staff=treasurer)
    with pytest.raises(services.NotAllowed):
        club_tables.open_table_sheet(table_id=club.pk, staff=members[0])
    assert not NightDraft.objects.exists()
    member = Client()
    member.force_login(members[0])
    assert member.post(reverse("tournament_table_sheet", args=[club.pk])).status_code == 403
    assert not NightDraft.objects.exists()


def test_a_saved_tournament_hand_is_not_replaced_behind_the_tournaments_back(staff_client, club_table,
                                                                             treasurer) -> None:
    token, page = open_sheet(staff_client, club_table)
    played = hands(seed=12, count=HANDS)
    save(staff_client, token, enter(staff_client, token, page, club_table, played))
    club_table.refresh_from_db()
    points = dict(club_table.points)
    record = InPersonRecord.objects.order_by("pk").first()
    entries = LedgerEntry.objects.count()
    with pytest.raises(ReplaceError, match="tournament table"):
        replace_in_person_record(admin=treasurer, record_id=record.pk, reason="wrong picker", kind=record.kind,
                                 facts={})
    club_table.refresh_from_db()
    assert club_table.points == points and LedgerEntry.objects.count() == entries
    assert InPersonRecord.objects.count() == HANDS
