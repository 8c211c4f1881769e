"""A hand of a saved club night replaced, and replaced again (issue 42, item 2): the night keeps its 40 hands, hand 17
keeps its number and its place, shown as it now stands with links to the versions it replaced; statements and their
CSV name the night and the hand number for the replacements and the reversals alike."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from django.urls import reverse

from tables.models import InPersonRecord, LedgerEntry
from tables.treasury.selectors.nights import night_hands, row_numbers
from tables.treasury.services import nights as night_service
from tables.treasury.services.replace import replace_in_person_record
from tests.tables.treasury.night_support import seeded_sheepshead_hands

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]
PLAYED_ON = date(2026, 12, 4)


@pytest.fixture
def night(treasurer, club):
    """A 40-hand night saved through the sheet's own services, as the pages save it."""
    members = [club[name] for name in NAMES]
    draft = night_service.open_sheet(admin=treasurer, game="sheepshead", played_on=PLAYED_ON, players=members,
                                     stake_cents=50)
    for hand in seeded_sheepshead_hands(seed=42, count=40, players=5, stake_cents=50):
        night_service.add_row(admin=treasurer, draft=draft, version=draft.version, members=members,
                              row=hand.row(members))
    return night_service.save_night(admin=treasurer, draft=draft, version=draft.version, members=members).night


def replace(treasurer, record: InPersonRecord, *, picker: str, partner: str, points: int, reason: str):
    return replace_in_person_record(
        admin=treasurer, record_id=record.pk, reason=reason, kind="sheepshead_hand",
        facts={"players": NAMES, "picker": picker, "partner": partner, "picker_points": points, "stake_cents": 50,
               "played_on": PLAYED_ON, "note": ""})


@pytest.fixture
def chain(night, treasurer):
    """Hand 17 replaced (Ann with Ben at 75) and that replacement replaced (Ann with Ben at 59): oldest first."""
    original = night.hands.get(number=17)
    first = replace(treasurer, original, picker="ann", partner="ben", points=75, reason="Ann picked, not who we wrote")
    second = replace(treasurer, first, picker="ann", partner="ben", points=59, reason="59 points, counted again")
    return original, first, second


def rows_of(page: str) -> list[tuple[str, str]]:
    """The night page's hands in page order: (the number the row says, the row's html)."""
    sheet = page[page.index('class="sheet"'):page.index('id="night-totals"')]
    parts = re.split(r'(?=<div class="sheet-row)', sheet)[1:]
    return [(re.search(r'<span class="row-number">#(\d+)</span>', part).group(1), part) for part in parts]


def amounts(row_html: str) -> list[int]:
    return [int(a) for a in re.findall(r'data-amount="(-?\d+)"', row_html)]


def test_the_night_page_keeps_forty_hands_with_hand_17_corrected_in_its_place(staff_client, night, chain,
                                                                              club) -> None:
    original, first, second = chain
    page = staff_client.get(reverse("treasury_night", args=[night.pk])).content.decode()
    rows = rows_of(page)
    assert [number for number, _ in rows] == [str(n) for n in range(1, 41)]  # no "#0", no second #17
    assert "40 hands, recorded by Tess" in page and "41 hands" not in page
    _number, row = rows[16]
    # Ann with Ben at 59, stake 50 cents: lost (rate -2): the three others get 100 each, Ann pays 200, Ben 100
    assert amounts(row) == [-200, -100, 100, 100, 100] and "$0.00" not in row
    assert "59 points" in row and "data-replaced" in row and "59 points, counted again" in row
    for older in (original, first):  # what it replaced, each version reachable
        assert reverse("admin:tables_inpersonrecord_change", args=[older.pk]) in row
    assert reverse("treasury_replace_hand", args=[second.pk]) in row  # only the newest is offered for replacing
    assert reverse("treasury_replace_hand", args=[original.pk]) not in page
    for other_number, other in rows:
        if other_number != "17":
            assert "data-replaced" not in other
    booked = {m.pk: sum(LedgerEntry.objects.filter(member=m).values_list("amount", flat=True)) for m in club.values()}
    shown = {int(m): int(a) for m, a in re.findall(r'<tr data-member="(\d+)" data-amount="(-?\d+)">',
                                                   page[page.index('id="night-totals"'):])}
    assert shown == booked and sum(shown.values()) == 0


def test_the_list_of_nights_counts_each_hand_once(staff_client, night, chain) -> None:
    page = staff_client.get(reverse("treasury_nights")).content.decode()
    assert re.search(rf'<tr data-night="{night.pk}">.*?<td>40</td>', page)


def test_night_hands_reads_the_chain_in_a_fixed_number_of_queries(night, chain, django_assert_max_num_queries) -> None:
    original, first, second = chain
    with django_assert_max_num_queries(4):
        _members, hands, _totals = night_hands(night)
    assert len(hands) == 40 and [h.number for h in hands] == list(range(1, 41))
    assert hands[16].record == second and list(hands[16].earlier) == [original, first]


def test_row_numbers_follow_the_replacements_back_to_the_row(night, chain) -> None:
    original, first, second = chain
    assert (first.number, second.number) == (None, None)  # stored off the rows: the row belongs to the first
    assert row_numbers([second, first, original]) == {second.pk: 17, first.pk: 17, original.pk: 17}


def test_statements_and_csv_name_the_night_and_hand_17_for_every_version(staff_client, night, chain, club) -> None:
    original, first, second = chain
    ann = {"member": "ann", "game": "sheepshead"}
    page = staff_client.get(reverse("treasury_statement"), ann).content.decode()
    assert "hand None" not in page
    assert page.count("Club night of 04 Dec 2026, hand 17") == 5  # the hand, its two reversals, two replacements
    response = staff_client.get(reverse("treasury_statement_csv"), ann)
    lines = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    wheres = {int(line["entry_id"]): line["where"] for line in lines if line["entry_id"]}
    for record in (original, first, second):
        for entry in LedgerEntry.objects.filter(in_person=record, member=club["ann"]):
            assert wheres[entry.pk] == "Club night of 04 Dec 2026, hand 17"
    assert not any("None" in where for where in wheres.values())
    assert len(wheres) == 40 + 4


def test_the_replace_page_names_the_nights_hand_and_links_back_to_the_night(staff_client, night, chain) -> None:
    _original, _first, second = chain
    page = staff_client.get(reverse("treasury_replace_hand", args=[second.pk])).content.decode()
    row = re.search(r'<p id="night-row">(.*?)</p>', page, re.S).group(1)
    assert "Hand 17 of" in row and f'href="{reverse("treasury_night", args=[night.pk])}"' in row
    assert "the club night of 4 Dec 2026" in row
