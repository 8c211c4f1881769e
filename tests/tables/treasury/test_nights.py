"""A club night's score sheet through its pages: opened, filled row by row over htmx, saved whole (or not at all)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import ClubNight, DraftRow, InPersonRecord, LedgerEntry, NightDraft
from tests.tables.treasury.night_support import seeded_sheepshead_hands, sheet_rows, sheet_version

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def boss(make_member):
    return make_member("boss", is_staff=True, display_name="The Treasurer")


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=f"{name.title()} Smith") for name in NAMES]


@pytest.fixture
def staff(boss) -> Client:
    client = Client()
    client.force_login(boss)
    return client


def open_night(client: Client, names: list[str], game: str = "sheepshead", stake: str = "100", **extra) -> str:
    """Opens a sheet through the page and returns its token."""
    form = {"game": game, "played_on": timezone.localdate().isoformat(), "stake_cents": stake, **extra}
    form.update({f"seat_{n}": name for n, name in enumerate(names, 1)})
    response = client.post(reverse("treasury_night_new"), form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    found = re.search(r"/treasury/nights/sheet/([^/]+)/$", response["Location"])
    assert found, response["Location"]
    return found.group(1)


def add(client: Client, token: str, row: dict) -> str:
    response = client.post(reverse("treasury_night_row", args=[token]), {"version": sheet_version(token), **row},
                           **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def shown_totals(html: str) -> dict[int, int]:
    """Each player's running total as the sheet shows it (the totals' rows carry the amount in cents/points)."""
    section = html[html.index('id="night-totals"'):]
    return {int(m): int(a) for m, a in re.findall(r'<tr data-member="(\d+)" data-amount="(-?\d+)">', section)}


def hand_count(token: str, client: Client | None = None) -> int:
    return len(sheet_rows(token))


def save(client: Client, token: str):
    return client.post(reverse("treasury_night_save", args=[token]), {"version": sheet_version(token)})


def test_forty_seeded_hands_total_the_engines_settlements(staff, club) -> None:
    hands = seeded_sheepshead_hands(seed=20, count=40, players=5, stake_cents=50)
    assert any(h.picker is None for h in hands) and any(h.partner is None and h.picker is not None for h in hands)
    token = open_night(staff, ["ann", "Ben Smith", "cat@example.org", "dan", "eve"], stake="50")
    expected = [0] * 5
    for number, hand in enumerate(hands, 1):
        answer = add(staff, token, hand.row(club))
        assert "errornote" not in answer, (number, hand, answer)
        expected = [total + paid for total, paid in zip(expected, hand.money, strict=True)]
        # The row comes back priced (its settlement per player) with the running totals and the next empty row.
        row = answer[answer.index(f'data-number="{number}"'):answer.index('id="night-totals"')]
        assert [int(a) for a in re.findall(r'data-amount="(-?\d+)"', row)] == hand.money
        assert shown_totals(answer) == {m.pk: t for m, t in zip(club, expected, strict=True)}
        assert f"Add hand #{number + 1}" in answer
    assert sum(expected) == 0 and LedgerEntry.objects.count() == 0  # priced, nothing written yet

    saved = save(staff, token)
    night = ClubNight.objects.get()
    assert saved.status_code == 302 and saved["Location"] == reverse("treasury_night", args=[night.pk])
    assert night.seats == [m.pk for m in club] and night.options == {"stake_cents": 50} and night.token == token
    records = list(night.hands.order_by("number"))
    assert [r.number for r in records] == list(range(1, 41))
    for record, hand in zip(records, hands, strict=True):
        assert list(record.ledger_entries.order_by("seat").values_list("amount", flat=True)) == hand.money
    booked = {m.pk: sum(LedgerEntry.objects.filter(member=m).values_list("amount", flat=True)) for m in club}
    assert booked == {m.pk: t for m, t in zip(club, expected, strict=True)}
    page = staff.get(saved["Location"]).content.decode()
    assert shown_totals(page) == booked and "Saved: 40 hands" in page
    draft = NightDraft.objects.get(token=token)  # signed off: kept, linked to its night, read-only
    assert draft.night == night and draft.signed_off_by is not None


def test_a_bad_row_is_refused_on_the_row_and_leaves_the_sheet_as_it_was(staff, club) -> None:
    token = open_night(staff, NAMES)
    add(staff, token, {"picker": str(club[0].pk), "partner": str(club[1].pk), "points": "75"})
    answer = add(staff, token, {"picker": str(club[0].pk), "partner": str(club[1].pk), "points": "119"})
    assert "119 points cannot happen in Sheepshead" in answer and 'value="119"' in answer
    assert "Add hand #2" in answer and hand_count(token, staff) == 1
    assert "Choose the picker" in add(staff, token, {"picker": "", "points": "75"})
    answer = add(staff, token, {"picker": "leaster", "leaster_points": "10 30 0 40 40", "leaster_tricks": "1 1 0 1 1"})
    assert "there are 6 tricks" in answer and hand_count(token, staff) == 1
    assert LedgerEntry.objects.count() == 0


def test_a_picker_or_partner_not_among_the_nights_players_is_refused(staff, club, make_member) -> None:
    stranger = make_member("zed", display_name="Zed")
    token = open_night(staff, NAMES)
    answer = add(staff, token, {"picker": str(stranger.pk), "points": "75"})
    assert "The picker (Zed) must be one of the players." in answer
    answer = add(staff, token, {"picker": str(club[0].pk), "partner": str(stranger.pk), "points": "75"})
    assert "The partner (Zed) must be one of the players." in answer
    answer = add(staff, token, {"picker": "ghost", "points": "75"})
    assert "must be one of the players" in answer
    assert hand_count(token, staff) == 0


def test_a_bad_row_blocks_saving_says_which_and_why_and_writes_nothing(staff, club) -> None:
    token = open_night(staff, NAMES)
    for points in ("75", "31", "90"):
        add(staff, token, {"picker": str(club[0].pk), "partner": str(club[2].pk), "points": points})
    row = DraftRow.objects.get(draft__token=token, number=2)  # tampered with in the database: hand 2 is nonsense
    row.data = {**row.data, "points": "121"}
    row.save()
    refused = save(staff, token)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Hand 2: The picker&#x27;s side takes between 0 and 120 points, not 121. Nothing was saved." in page
    assert ClubNight.objects.count() == 0 and InPersonRecord.objects.count() == 0 and LedgerEntry.objects.count() == 0
    # A player whose account was closed since the hands were entered blocks the night too, naming the hand.
    row.data = {**row.data, "points": "61"}
    row.save()
    club[3].is_active = False
    club[3].save()
    page = save(staff, token).content.decode()
    assert "Hand 1: The account of dan is closed." in page
    assert ClubNight.objects.count() == 0 and LedgerEntry.objects.count() == 0
    club[3].is_active = True
    club[3].save()
    assert save(staff, token).status_code == 302
    assert ClubNight.objects.get().hands.count() == 3


def test_saving_twice_records_one_night(staff, club) -> None:
    token = open_night(staff, NAMES)
    add(staff, token, {"picker": str(club[4].pk), "partner": "", "points": "95"})
    url = reverse("treasury_night_save", args=[token])
    version = sheet_version(token)
    first = staff.post(url, {"version": version})
    second = staff.post(url, {"version": version})  # a double click, or the browser retrying the POST
    assert first["Location"] == second["Location"]
    assert ClubNight.objects.count() == 1 and InPersonRecord.objects.count() == 1 and LedgerEntry.objects.count() == 5
    page = staff.get(second["Location"]).content.decode()
    assert "This sheet was already saved" in page and "Eve Smith alone took 95 points" in page
    # The sheet's own page is read-only now, linking its night; its row endpoint points to the night, adding nothing.
    sheet = staff.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    assert "Signed off by The Treasurer" in sheet and first["Location"] in sheet
    assert 'id="entry"' not in sheet and 'id="save-form"' not in sheet and "Void #1" not in sheet
    late = staff.post(reverse("treasury_night_row", args=[token]), {"picker": str(club[0].pk), "points": "61"}, **HTMX)
    assert late.status_code == 204 and late["HX-Redirect"] == first["Location"]
    assert InPersonRecord.objects.count() == 1


def test_the_unsaved_sheet_survives_a_reload_and_a_row_can_be_removed(staff, club) -> None:
    token = open_night(staff, NAMES)
    add(staff, token, {"picker": str(club[0].pk), "partner": str(club[1].pk), "points": "75"})
    add(staff, token, {"picker": str(club[2].pk), "partner": "", "points": "20"})
    page = staff.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    assert 'data-number="1"' in page and 'data-number="2"' in page and "Add hand #3" in page
    assert shown_totals(page)[club[2].pk] == -100 - 1600  # an opponent in hand 1; alone with 20 points: -4 x 4
    staff.post(reverse("treasury_night_row_remove", args=[token, 1]), {"version": sheet_version(token)})
    page = staff.get(reverse("treasury_night_sheet", args=[token])).content.decode()
    assert "Cat Smith alone took 20 points" in page and "Ann Smith with Ben Smith" not in page
    assert hand_count(token, staff) == 1
    assert token in staff.get(reverse("treasury_open_sheets")).content.decode()


def test_opening_a_night_refuses_nonsense(staff, club, make_member) -> None:
    url = reverse("treasury_night_new")
    today = timezone.localdate()
    base = {"game": "sheepshead", "played_on": today.isoformat(), "stake_cents": "100", "seat_1": "ann",
            "seat_2": "ben"}
    assert "Sheepshead is played by 3 to 7 players; you named 2." in staff.post(url, base).content.decode()
    page = staff.post(url, {**base, "seat_3": "catt"}).content.decode()
    assert "No member is called “catt”. Pick one of the suggestions." in page
    page = staff.post(url, {**base, "seat_3": "ann"}).content.decode()
    assert "named twice" in page
    page = staff.post(url, {**base, "seat_3": "cat", "stake_cents": ""}).content.decode()
    assert "Give the stake" in page
    tomorrow = (today + timedelta(days=1)).isoformat()
    page = staff.post(url, {**base, "seat_3": "cat", "played_on": tomorrow}).content.decode()
    assert "a day that has not come yet" in page
    page = staff.post(url, {**base, "seat_3": "cat", "game": "puskiyon"}).content.decode()
    assert "Select a valid choice" in page
    assert not NightDraft.objects.exists()
    # The games offered are those the in-person services record, nothing else.
    form = staff.get(url).content.decode()
    game_select = form.split('name="game"', 1)[1].split("</select>", 1)[0]  # the house rules' selects follow
    assert re.findall(r'<option value="(\w+)"', game_select) == ["sheepshead", "hawk"]


def test_members_who_are_not_staff_get_no_sheet(club, staff) -> None:
    token = open_night(staff, NAMES)
    member = Client()
    member.force_login(club[0])
    for url in (reverse("treasury_nights"), reverse("treasury_night_new"),
                reverse("treasury_night_sheet", args=[token])):
        response = member.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    for url in (reverse("treasury_night_row", args=[token]), reverse("treasury_night_save", args=[token]),
                reverse("treasury_night_new")):
        response = member.post(url, {"picker": str(club[0].pk), "points": "120", "game": "sheepshead",
                                     "seat_1": "ann", "seat_2": "ben", "seat_3": "cat", "stake_cents": "100"})
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    assert ClubNight.objects.count() == 0 and LedgerEntry.objects.count() == 0
    assert Client().get(reverse("treasury_nights")).status_code == 302


def test_a_saved_night_is_listed_and_linked_from_the_ledger(staff, boss, club) -> None:
    token = open_night(staff, NAMES, note="Table two")
    add(staff, token, {"picker": str(club[0].pk), "partner": str(club[1].pk), "points": "75"})
    night_url = save(staff, token)["Location"]
    listing = staff.get(reverse("treasury_nights")).content.decode()
    assert night_url in listing
    page = staff.get(night_url).content.decode()
    assert "Table two" in page and "stake $1.00" in page and "+$2.00" in page and "-$1.00" in page
    boss.is_superuser = True  # the ledger's changelist asks for the view permission
    boss.save()
    ledger = staff.get(reverse("admin:tables_ledgerentry_changelist")).content.decode()
    assert reverse("treasury_nights") in ledger
