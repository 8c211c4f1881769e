"""A tournament club table's night sheet and its saved night speak tournament points, not money (issue 45): each
hand's cells and every running total are the points the tournament records for the table (compared with
`TournamentTable.points` after saving), said in points ("+4 points", "Punkte"), the tournament named once at the
top, and nothing about money shows (no "$", no stake, no settling, no replacing a hand). An ordinary night's
sheet and page still show dollars, a stake and the way to settle."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import ClubNight
from tables.treasury.services import nights
from tests.i18n.test_german_pages import visible_text
from tests.tables.tournaments.club_support import CLUB_HANDS, CLUB_STAKE
from tests.tables.tournaments.test_club_sheet import enter, hands, open_sheet, save, version_on

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS, STAKE = CLUB_HANDS, CLUB_STAKE
LABEL = "Club championship, session 1, table 2"
TOTAL = re.compile(r'<tr data-member="(\d+)" data-amount="(-?\d+)">')
STAKE_WORD = re.compile(r"\bstake\b", re.IGNORECASE)
CELL = re.compile(r'<li data-member="(\d+)" data-amount="(-?\d*)">')








def content(page: str) -> str:
    """The page's own part (the admin's header and menus around it are the site's, not the night's)."""
    return page[page.index('<div id="content-main"'):]


def shown_totals(page: str) -> dict[str, int]:
    totals = content(page)[content(page).index('id="night-totals"'):]
    return {member: int(amount) for member, amount in TOTAL.findall(totals)}


def summed_cells(page: str) -> dict[str, int]:
    """Each member's cells over the sheet's rows, added up (a voided or struck row has none)."""
    sheet = content(page)[:content(page).index('id="night-totals"')]
    summed: dict[str, int] = {}
    for member, amount in CELL.findall(sheet):
        summed[member] = summed.get(member, 0) + (int(amount) if amount else 0)
    return summed


def add_leaster(client: Client, token: str, page: str) -> str:
    row = {"version": version_on(page), "picker": "leaster", "leaster_points": "10 20 30 30 30",
           "leaster_tricks": "1 1 1 1 2"}
    response = client.post(reverse("treasury_night_row", args=[token]), row, **HTMX)
    assert response.status_code == 200 and "errornote" not in response.content.decode(), response.content.decode()
    return response.content.decode()


def test_the_sheet_and_the_saved_night_show_the_points_the_tournament_records(staff_client, club_table) -> None:
    token, page = open_sheet(staff_client, club_table)
    page = enter(staff_client, token, page, club_table, hands(seed=45, count=HANDS - 1))
    add_leaster(staff_client, token, page)
    sheet = staff_client.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    on_sheet = shown_totals(sheet)
    assert set(on_sheet) == {str(member) for member in club_table.seats}
    assert summed_cells(sheet) == on_sheet  # the running totals are the rows' points added up
    text = visible_text(content(sheet))
    assert "$" not in text and not STAKE_WORD.search(text)
    assert re.search(r"[+-]\d+ points?\b", text), "the cells say points"
    assert "Leaster won by" in text and "collecting" not in text
    assert text.count("These hands count in points for the tournament") == 1
    assert re.search(rf'<a href="[^"]+#sheet-2" id="tournament-table">{LABEL}</a>', sheet)

    response = save(staff_client, token, sheet)
    assert response.status_code == 302
    club_table.refresh_from_db()
    assert club_table.points == on_sheet  # what the sheet showed is what the tournament recorded
    assert any(club_table.points.values())

    night = ClubNight.objects.get(token=token)
    shown = staff_client.get(reverse("treasury_night", args=[night.pk])).content.decode()
    assert shown_totals(shown) == club_table.points
    assert summed_cells(shown) == club_table.points
    text = visible_text(content(shown))
    assert "$" not in text and not STAKE_WORD.search(text) and "collecting" not in text
    assert text.count("These hands count in points for the tournament") == 1
    assert LABEL in text and text.count(LABEL) == 1
    assert 'id="settle-night"' not in shown and "row-replace" not in shown
    assert reverse("treasury_night_settle", args=[night.pk]) not in shown

    # The signed-off sheet, read-only, still says points and offers no replacing.
    signed = staff_client.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    assert shown_totals(signed) == club_table.points and "$" not in visible_text(content(signed))
    assert "by replacing it" not in signed


def test_the_sheet_says_points_in_german(treasurer, club_table) -> None:
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    german.force_login(treasurer)
    token, page = open_sheet(german, club_table)
    page = enter(german, token, page, club_table, hands(seed=3, count=2))
    sheet = visible_text(content(german.get(reverse("treasury_night_sheet", args=[token])).content.decode()))
    assert re.search(r"[+-]\d+ Punkte?\b", sheet) and "$" not in sheet and not re.search(r"\bEinsatz\b", sheet)


def test_an_ordinary_night_still_shows_dollars(staff_client, treasurer, make_member) -> None:
    players = [make_member(f"o{index}", display_name=f"Ordinary {index}") for index in range(5)]
    draft = nights.open_sheet(admin=treasurer, game="sheepshead", played_on=date(2025, 3, 1), players=players,
                              stake_cents=STAKE)
    page = staff_client.get(reverse("treasury_night_sheet", args=[draft.token])).content.decode()
    row = {"version": version_on(page), "picker": str(players[0].pk), "partner": str(players[1].pk),
           "points": "75"}
    assert staff_client.post(reverse("treasury_night_row", args=[draft.token]), row, **HTMX).status_code == 200
    sheet = staff_client.get(reverse("treasury_night_sheet", args=[draft.token])).content.decode()
    text = visible_text(content(sheet))
    assert "stake $0.50" in text and "+$1.00" in text and "-$0.50" in text
    assert "count in points" not in text and 'id="tournament-table"' not in sheet
    assert shown_totals(sheet) == {str(players[0].pk): 100, str(players[1].pk): 50, str(players[2].pk): -50,
                                   str(players[3].pk): -50, str(players[4].pk): -50}

    assert save(staff_client, draft.token, sheet).status_code == 302
    night = ClubNight.objects.get(token=draft.token)
    shown = staff_client.get(reverse("treasury_night", args=[night.pk])).content.decode()
    text = visible_text(content(shown))
    assert "stake $0.50" in text and "+$1.00" in text and "points for the tournament" not in text
    assert 'id="settle-night"' in shown and "row-replace" in shown
