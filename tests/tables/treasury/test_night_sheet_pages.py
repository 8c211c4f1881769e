"""The sheet's pages with drafts on the server: Open sheets, carrying on from another login, a stale page refused,
rows changed in place, inserted and voided, signed off once from two devices; and the row forms refusing
contradictory rows by naming their fields (the sheet's, and the admin's single in-person form)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.forms import SheepsheadResultForm
from tables.models import ClubNight, DraftRow, InPersonRecord, LedgerEntry, NightDraft
from tables.treasury.forms.nights import row_form
from tests.tables.treasury.night_support import sheet_rows, sheet_version
from tests.tables.treasury.test_nights import HTMX, open_night, shown_totals

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=f"{name.title()} Smith") for name in NAMES]


def staff_login(make_member, name: str, shown: str) -> Client:
    client = Client()
    client.force_login(make_member(name, display_name=shown, is_staff=True))
    return client


@pytest.fixture
def laptop(make_member) -> Client:
    return staff_login(make_member, "tess", "Tess")


@pytest.fixture
def phone(make_member) -> Client:
    return staff_login(make_member, "theo", "Theo")


def hand(club, picker: int, points: int, partner: int | None = None) -> dict[str, str]:
    return {"picker": str(club[picker].pk), "partner": "" if partner is None else str(club[partner].pk),
            "points": str(points)}


def post_row(client: Client, token: str, row: dict, version: int | None = None, **extra) -> str:
    version = sheet_version(token) if version is None else version
    response = client.post(reverse("treasury_night_row", args=[token]), {"version": version, **row, **extra}, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def page_of(client: Client, token: str, query: str = "") -> str:
    return client.get(reverse("treasury_night_sheet", args=[token]) + query).content.decode()


def test_open_sheets_lists_every_draft_and_another_login_carries_on(laptop, phone, club) -> None:
    token = open_night(laptop, NAMES, note="Table two")
    post_row(laptop, token, hand(club, 0, 75, 1))
    post_row(laptop, token, hand(club, 2, 30))
    assert reverse("treasury_open_sheets") in laptop.get(reverse("treasury_nights")).content.decode()
    listing = phone.get(reverse("treasury_open_sheets")).content.decode()
    item = listing[listing.index(f'data-token="{token}"'):]
    item = item[:item.index("</li>")]
    assert "Sheepshead" in item and "2 hands so far" in item and "Table two" in item
    assert "Ann Smith, Ben Smith, Cat Smith, Dan Smith, Eve Smith" in item and "Last change by Tess" in item
    sheet = page_of(phone, token)  # the phone's login resumes the laptop's sheet
    assert "Ann Smith with Ben Smith took 75 points" in sheet and "Add hand #3" in sheet
    answer = post_row(phone, token, hand(club, 3, 95))
    assert "errornote" not in answer and "Add hand #4" in answer
    assert 'data-number="3"' in answer  # the rows come back whole, with the new version in every form
    assert f'name="version" value="{sheet_version(token)}"' in answer
    assert "Last change by Theo" in laptop.get(reverse("treasury_open_sheets")).content.decode()
    assert [r.entered_by.username for r in DraftRow.objects.order_by("number")] == ["tess", "tess", "theo"]


def test_a_page_loaded_before_another_devices_change_is_refused_and_shows_the_sheet_now(laptop, phone, club) -> None:
    token = open_night(laptop, NAMES)
    post_row(laptop, token, hand(club, 0, 75, 1))
    stale = sheet_version(token)  # both pages show version `stale`
    post_row(phone, token, hand(club, 1, 61), version=stale)
    answer = post_row(laptop, token, hand(club, 4, 90), version=stale)
    assert "Theo changed this sheet at" in answer and "Nothing was changed" in answer
    assert 'value="90"' in answer  # the laptop's hand, still typed, to add again if still needed
    assert "Ben Smith alone took 61 points" in answer and "Add hand #3" in answer
    assert [r["points"] for r in sheet_rows(token)] == ["75", "61"]
    void = laptop.post(reverse("treasury_night_row_void", args=[token, 1]), {"version": stale})
    assert void.status_code == 302
    assert "Theo changed this sheet" in laptop.get(void["Location"]).content.decode()
    assert not DraftRow.objects.filter(void=True).exists()


def test_a_row_is_changed_in_place(laptop, club) -> None:
    token = open_night(laptop, NAMES)
    post_row(laptop, token, hand(club, 0, 75, 1))
    post_row(laptop, token, hand(club, 2, 30))
    editing = page_of(laptop, token, "?edit=1")
    form = editing[editing.index('id="row-1"'):editing.index('id="row-2"')]
    assert 'name="edit-points"' in form and 'value="75"' in form and "Change #1" in form
    url = reverse("treasury_night_row_change", args=[token, 1])
    refused = laptop.post(url, {"version": sheet_version(token), "edit-picker": "leaster", "edit-points": "75",
                                "edit-number": "1"})
    assert refused.status_code == 400
    assert "A leaster has no picker: leave “Picker&#x27;s points” empty" in refused.content.decode()
    changed = laptop.post(url, {"version": sheet_version(token), "edit-picker": str(club[3].pk), "edit-points": "95",
                                "edit-partner": "", "edit-number": "1"})
    assert changed.status_code == 302 and changed["Location"].endswith("#row-1")
    sheet = page_of(laptop, token)
    assert "Dan Smith alone took 95 points" in sheet and "Ann Smith with Ben Smith" not in sheet
    assert "changed by Tess" in sheet


def test_a_missed_hand_is_inserted_where_it_belongs(laptop, club) -> None:
    token = open_night(laptop, NAMES)
    for points in (61, 62, 64):
        post_row(laptop, token, hand(club, 0, points))
    asking = page_of(laptop, token, "?insert=3")
    assert "Insert hand #3" in asking and 'name="insert" value="1"' in asking
    answer = post_row(laptop, token, {**hand(club, 0, 63), "number": "3"}, insert="1")
    assert "errornote" not in answer and "Add hand #5" in answer
    assert [r["points"] for r in sheet_rows(token)] == ["61", "62", "63", "64"]
    assert [n for n, in NightDraft.objects.get(token=token).rows.values_list("number")] == [1, 2, 3, 4]
    taken = post_row(laptop, token, {**hand(club, 0, 70), "number": "2"})
    assert "Hand 2 is already on the sheet" in taken and len(sheet_rows(token)) == 4


def test_a_voided_hand_is_struck_counts_nothing_and_can_count_again(laptop, club) -> None:
    token = open_night(laptop, NAMES)
    post_row(laptop, token, hand(club, 0, 75, 1))
    post_row(laptop, token, hand(club, 2, 30))
    url = reverse("treasury_night_row_void", args=[token, 2])
    laptop.post(url, {"version": sheet_version(token), "reason": "misdeal"})
    sheet = page_of(laptop, token)
    row = sheet[sheet.index('id="row-2"'):]
    row = row[:row.index("</details>")]
    assert 'data-void="1"' in row and "<s>Void</s>: misdeal" in row and "data-amount" not in row
    assert shown_totals(sheet) == {club[0].pk: 200, club[1].pk: 100, club[2].pk: -100, club[3].pk: -100,
                                   club[4].pk: -100}
    assert "Totals after <span id=\"hand-count\">1</span> hand" in sheet
    laptop.post(url, {"version": sheet_version(token), "void": "0"})
    assert 'data-void="1"' not in page_of(laptop, token)


def test_saved_once_from_two_devices_the_second_is_told_already_saved(laptop, phone, club) -> None:
    token = open_night(laptop, NAMES)
    for number in range(5):
        post_row(laptop if number % 2 else phone, token, hand(club, number, 75))
    version = sheet_version(token)
    laptop.post(reverse("treasury_night_row_void", args=[token, 5]), {"version": version})
    version += 1
    first = phone.post(reverse("treasury_night_save", args=[token]), {"version": version})
    night = ClubNight.objects.get()
    assert first.status_code == 302 and first["Location"] == reverse("treasury_night", args=[night.pk])
    assert "Saved: 4 hands" in phone.get(first["Location"]).content.decode()
    second = laptop.post(reverse("treasury_night_save", args=[token]), {"version": version})
    assert second["Location"] == first["Location"]
    assert "This sheet was already saved" in laptop.get(second["Location"]).content.decode()
    assert ClubNight.objects.count() == 1 and InPersonRecord.objects.count() == 4 and LedgerEntry.objects.count() == 20
    detail = laptop.get(first["Location"]).content.decode()
    assert reverse("treasury_night_sheet", args=[token]) in detail
    sheet = page_of(laptop, token)
    assert "Signed off by Theo" in sheet and 'data-void="1"' in sheet and 'id="entry"' not in sheet
    assert "Void #" not in sheet and "Change #" not in sheet
    late = laptop.post(reverse("treasury_night_row_change", args=[token, 1]),
                       {"version": version, "edit-picker": str(club[0].pk), "edit-points": "61"})
    assert late["Location"] == first["Location"] and InPersonRecord.objects.count() == 4
    assert reverse("treasury_night_sheet", args=[token]) not in laptop.get(
        reverse("treasury_open_sheets")).content.decode()


def test_an_unknown_sheet_is_not_found(laptop) -> None:
    assert laptop.get(reverse("treasury_night_sheet", args=["nope"])).status_code == 404
    assert laptop.post(reverse("treasury_night_save", args=["nope"]), {"version": "1"}).status_code == 404


# The row forms: a contradictory row is refused naming its fields, before anything reaches the sheet.

@pytest.mark.parametrize("data,named", [
    ({"picker": "leaster", "points": "75", "leaster_points": "0 40 40 40 0", "leaster_tricks": "0 2 2 2 0"},
     ["Picker's points"]),
    ({"picker": "leaster", "partner": "BEN", "leaster_points": "0 40 40 40 0"}, ["Partner"]),
    ({"picker": "ANN", "points": "75", "leaster_points": "0 40 40 40 0", "leaster_tricks": "0 2 2 2 0"},
     ["Leaster: points", "Leaster: tricks"]),
])
def test_the_sheets_row_form_refuses_a_contradictory_row_naming_the_fields(club, data, named) -> None:
    ids = {"ANN": str(club[0].pk), "BEN": str(club[1].pk)}
    form = row_form("sheepshead", {k: ids.get(v, v) for k, v in data.items()}, members=club)
    assert not form.is_valid()
    error = " ".join(form.non_field_errors())
    assert all(f"“{name}”" in error for name in named), error
    assert re.search(r"(leaster has no picker|picked hand is no leaster)", error)


def test_the_sheets_hawk_row_form_refuses_solo_with_two_lafh_players(club) -> None:
    form = row_form("hawk", {"lafh_1": str(club[0].pk), "lafh_2": str(club[1].pk), "solo": "on",
                             "lafh_pips": "150"}, members=club[:4])
    assert not form.is_valid()
    assert "leave “LAFH (last trick)” empty, or untick “Solo”" in " ".join(form.non_field_errors())
    good = row_form("hawk", {"lafh_1": str(club[0].pk), "solo": "on", "lafh_pips": "150"}, members=club[:4])
    assert good.is_valid(), good.errors


def test_the_admins_single_form_refuses_a_contradictory_hand_naming_the_fields(club) -> None:
    base = {"player_1": "ann", "player_2": "ben", "player_3": "cat", "stake_cents": "100"}
    leaster = SheepsheadResultForm({**base, "kind": "leaster", "picker": "ann", "picker_points": "75",
                                    "leaster_points": "0 60 60", "leaster_tricks": "0 5 5"})
    assert not leaster.is_valid()
    assert "A leaster has no picker: leave “Picker”, “Picker's points” empty" in " ".join(leaster.non_field_errors())
    hand_ = SheepsheadResultForm({**base, "kind": "hand", "picker": "ann", "picker_points": "75",
                                  "leaster_tricks": "0 5 5"})
    assert not hand_.is_valid()
    assert "A picked hand is no leaster: leave “Leaster tricks” empty" in " ".join(hand_.non_field_errors())
    fine = SheepsheadResultForm({**base, "kind": "hand", "picker": "ann", "picker_points": "75"})
    assert fine.is_valid(), fine.errors


def test_the_admins_single_form_page_records_nothing_for_a_contradictory_hand(club, make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(boss)
    url = reverse("admin:tables_inpersonrecord_sheepshead")
    page = client.post(url, {"kind": "leaster", "player_1": "ann", "player_2": "ben", "player_3": "cat",
                             "stake_cents": "100", "picker_points": "75", "leaster_points": "0 60 60",
                             "leaster_tricks": "0 5 5"}).content.decode()
    assert "A leaster has no picker" in page and InPersonRecord.objects.count() == 0
