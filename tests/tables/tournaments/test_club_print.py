"""A round's print page: one seat card per player of the round (a bye's too), a score sheet per table played at the
club with one row per hand of the session (a Swiss match: one), a column per player in seat order; staff only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.tournaments import services
from tables.tournaments.club_tables import set_where
from tests.tables.helpers import client_for
from tests.tables.tournaments.club_support import session_tournament, swiss_tournament

pytestmark = pytest.mark.django_db


def print_url(tournament, number: int = 1) -> str:
    return reverse("tournament_round_print", args=[tournament.pk, number])


def blocks(page: str, css_class: str) -> list[str]:
    """Each element of that class (an article or a section, neither nested in its kind), whole."""
    return [found.group(0) for found in
            re.finditer(rf'<(article|section) class="{css_class}".*?</\1>', page, flags=re.DOTALL)]


def test_seat_cards_and_score_sheets_of_a_session(make_member, staff) -> None:
    tournament, members = session_tournament(make_member, staff, count=9, hands=6)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    five, four = drawn.tables.order_by("number")
    assert (len(five.seats), len(four.seats)) == (5, 4)
    four = set_where(table_id=four.pk, staff=staff, where="club")

    response = client_for(staff).get(print_url(tournament))
    assert response.status_code == 200
    page = response.content.decode()
    cards = blocks(page, "seat-card")
    assert sorted(int(re.search(r'data-member="(\d+)"', card).group(1)) for card in cards) == sorted(
        member.pk for member in members)  # every player of the round, exactly once
    for table in (five, four):
        for seat, member_id in enumerate(table.seats, start=1):
            card = next(card for card in cards if f'data-member="{member_id}"' in card)
            member = next(member for member in members if member.pk == member_id)
            assert f'data-table="{table.number}" data-seat="{seat}" data-where="{table.where}"' in card
            assert "Club championship" in card and "Session 1" in card and member.shown_name in card
            assert ("Played at the club" if table.where == "club" else "Played online") in card
            assert ("You deal first." in card) == (seat == 1)

    sheets = blocks(page, "score-sheet")
    assert len(sheets) == 1  # the club table's only
    sheet = sheets[0]
    assert f'data-table="{four.number}"' in sheet and "Session 1" in sheet and "Club championship" in sheet
    assert re.findall(r'data-hand="(\d+)"', sheet) == ["1", "2", "3", "4", "5", "6"]
    columns = re.findall(r'<th scope="col" data-member="(\d+)"', sheet)
    assert columns == [str(member_id) for member_id in four.seats]  # seat order
    first = next(member for member in members if member.pk == four.seats[0])
    assert f"1. {first.shown_name} (deals first)" in sheet
    assert "totals-row" in sheet and sheet.count('class="signature"') == 4 + 1
    assert "css/tournament_print.css" in page and "<style" not in page and "<script>" not in page


def test_the_print_stylesheet_breaks_pages_and_drops_the_chrome() -> None:
    from pathlib import Path

    from django.contrib.staticfiles import finders

    css = Path(finders.find("css/tournament_print.css")).read_text(encoding="utf-8")
    printed = css[css.index("@media print"):]
    assert "#header" in printed and ".breadcrumbs" in printed and ".no-print" in printed
    assert printed.count("break-after: page") >= 2  # between cards and between sheets


def test_a_swiss_round_prints_one_match_row_and_a_card_for_the_bye(make_member, staff) -> None:
    tournament, members = swiss_tournament(make_member, staff, count=5)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    matches = [table for table in drawn.tables.order_by("number") if not table.is_bye]
    bye = next(table for table in drawn.tables.all() if table.is_bye)
    for table in matches:
        set_where(table_id=table.pk, staff=staff, where="club")
    page = client_for(staff).get(print_url(tournament)).content.decode()
    cards = blocks(page, "seat-card")
    assert sorted(int(re.search(r'data-member="(\d+)"', card).group(1)) for card in cards) == sorted(
        member.pk for member in members)
    bye_card = next(card for card in cards if f'data-member="{bye.players[0]}"' in card)
    assert "Bye" in bye_card and "Round 1" in bye_card
    sheets = blocks(page, "score-sheet")
    assert len(sheets) == len(matches) == 2
    for sheet in sheets:
        assert re.findall(r'data-hand="(\d+)"', sheet) == ["1"]


def test_staff_only(make_member, staff, member_client) -> None:
    tournament, _ = session_tournament(make_member, staff, count=8)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    assert member_client.get(print_url(tournament)).status_code == 403
    anonymous = Client().get(print_url(tournament))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert client_for(staff).get(print_url(tournament, 2)).status_code == 404  # not drawn yet
