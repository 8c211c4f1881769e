"""Results from the club's physical table: RULES.md's worked examples, and every kind of nonsense refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.services.inperson import (
    InPersonError,
    record_hawk_round,
    record_sheepshead_hand,
    record_sheepshead_leaster,
)
from tables.models import InPersonRecord, LedgerEntry
from tables.play.services.errors import NotAllowed

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]


@pytest.fixture
def admin_user(make_member):
    return make_member("boss", is_staff=True, is_superuser=True)


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=name.title()) for name in NAMES]


def seats(names: str) -> dict[str, str]:
    """The admin form's seat boxes, filled in order."""
    return {f"player_{n}": name for n, name in enumerate(names.split(), 1)}


def amounts(record: InPersonRecord) -> list[int]:
    return list(record.ledger_entries.order_by("seat").values_list("amount", flat=True))


def test_five_players_75_points_one_dollar(admin_user, club) -> None:
    record = record_sheepshead_hand(admin=admin_user, players=NAMES[:5], picker="ann", partner="ben",
                                    picker_points=75, stake_cents=100)
    assert amounts(record) == [200, 100, -100, -100, -100]
    entries = record.ledger_entries.order_by("seat")
    assert [e.member.username for e in entries] == NAMES[:5]
    assert {e.unit for e in entries} == {"cents"} and {e.game for e in entries} == {"sheepshead"}
    assert record.recorded_by == admin_user and record.facts["picker_points"] == 75


def test_six_players_75_points_one_dollar(admin_user, club) -> None:
    record = record_sheepshead_hand(admin=admin_user, players=NAMES[:6], picker="cat", partner="fay",
                                    picker_points=75)
    assert amounts(record) == [-100, -100, 267, -100, -100, 133]


def test_a_picker_alone_and_a_lost_hand(admin_user, club) -> None:
    record = record_sheepshead_hand(admin=admin_user, players=NAMES[:3], picker="ben", partner="",
                                    picker_points=29, stake_cents=50)
    assert amounts(record) == [200, -400, 200]  # rate -4: the picker pays 4 stakes to each opponent


def test_a_leaster_pays_the_winner_and_a_tie_pays_nothing(admin_user, club) -> None:
    record = record_sheepshead_leaster(admin=admin_user, players=NAMES[:5], points=[10, 30, 0, 40, 40],
                                       tricks=[1, 2, 0, 1, 2])
    assert amounts(record) == [400, -100, -100, -100, -100]
    tie = record_sheepshead_leaster(admin=admin_user, players=NAMES[:5], points=[20, 20, 0, 40, 40],
                                    tricks=[1, 2, 0, 1, 2])
    assert amounts(tie) == [0, 0, 0, 0, 0]


def test_hawk_worked_examples(admin_user, club) -> None:
    won = record_hawk_round(admin=admin_user, players=NAMES[:4], lafh=["ann", "cat"], solo=False, lafh_pips=151)
    assert won.score["k"] == 2 and won.score["points"] == 8
    assert amounts(won) == [8, 0, 8, 0]
    assert {e.unit for e in won.ledger_entries.all()} == {"points"}
    lost = record_hawk_round(admin=admin_user, players=NAMES[:4], lafh=["ben", "dan"], solo=False, lafh_pips=69,
                             nob_pips=151)
    assert lost.score["k"] == -3 and lost.score["points"] == -12
    assert amounts(lost) == [0, -12, 0, -12]


def test_hawk_solo_and_bonuses_by_side(admin_user, club) -> None:
    solo = record_hawk_round(admin=admin_user, players=NAMES[:4], lafh=["dan"], solo=True,
                             lafh_pips=151, lafh_bonuses=["heavy", "straight"], nob_bonuses=["four_suits"])
    assert solo.score["k"] == 2 + 2 - 1
    assert amounts(solo) == [0, 0, 0, 3 * 4 * 3]
    three = record_hawk_round(admin=admin_user, players=NAMES[:3], lafh=["cat"], solo=False, lafh_pips=100,
                              nob_pips=80)
    assert amounts(three) == [0, 0, 3]


SHEEPSHEAD_NONSENSE = [
    ({"players": ["ann", "ben", "zed"]}, "No member is called zed"),
    ({"players": ["ann", "ben", "ann"]}, "named twice"),
    ({"players": ["ann", "ben"]}, "3 to 7 players"),
    ({"players": [*NAMES, "boss"]}, "3 to 7 players"),
    ({"picker_points": 1}, "cannot happen"),
    ({"picker_points": 119}, "cannot happen"),
    ({"picker_points": 121}, "between 0 and 120"),
    ({"picker_points": -2}, "between 0 and 120"),
    ({"picker_points": "lots"}, "not a whole number"),
    ({"players": NAMES[:3], "partner": "ben"}, "no partner"),
    ({"players": NAMES[:4], "partner": "ben"}, "no partner"),
    ({"partner": "ann"}, "cannot be the picker"),
    ({"partner": "gus"}, "must be one of the players"),
    ({"picker": "gus"}, "must be one of the players"),
    ({"picker": ""}, "Name the picker"),
    ({"stake_cents": 0}, "stake"),
]


@pytest.mark.parametrize(("change", "message"), SHEEPSHEAD_NONSENSE)
def test_sheepshead_nonsense_is_refused_and_nothing_is_written(admin_user, club, change, message) -> None:
    facts = {"players": NAMES[:5], "picker": "ann", "partner": "ben", "picker_points": 75, "stake_cents": 100}
    with pytest.raises(InPersonError, match=message):
        record_sheepshead_hand(admin=admin_user, **{**facts, **change})
    assert InPersonRecord.objects.count() == 0 and LedgerEntry.objects.count() == 0


LEASTER_NONSENSE = [
    ({"points": [10, 30, 0, 40]}, "one number per player"),
    ({"points": [10, 30, 0, 40, 41]}, "add up to 120"),
    ({"points": [1, 39, 0, 40, 40]}, "cannot have taken 1"),
    ({"points": [10, 30, -1, 41, 40]}, "negative"),
    ({"tricks": [1, 2, 0, 1, 1]}, "6 tricks"),
    ({"points": [10, 30, 10, 30, 40], "tricks": [1, 2, 0, 1, 2]}, "took no trick"),
]


@pytest.mark.parametrize(("change", "message"), LEASTER_NONSENSE)
def test_leaster_nonsense_is_refused(admin_user, club, change, message) -> None:
    facts = {"players": NAMES[:5], "points": [10, 30, 0, 40, 40], "tricks": [1, 2, 0, 1, 2]}
    with pytest.raises(InPersonError, match=message):
        record_sheepshead_leaster(admin=admin_user, **{**facts, **change})
    assert LedgerEntry.objects.count() == 0


HAWK_NONSENSE = [
    ({"players": ["ann"]}, "2 to 6 players"),
    ({"players": NAMES}, "2 to 6 players"),
    ({"players": ["ann", "ben", "cat", "zed"]}, "No member is called zed"),
    ({"lafh": ["ann", "zed"]}, "must be one of the players"),
    ({"lafh": ["ann", "ann"]}, "named twice"),
    ({"lafh": ["ann", "ben", "cat"]}, "LAFH is two players"),
    ({"lafh": ["ann"]}, "tick solo"),
    ({"solo": True}, "name one LAFH player"),
    ({"players": NAMES[:3], "lafh": ["ann", "ben"], "nob_pips": 50}, "LAFH is one player"),
    ({"players": NAMES[:3], "lafh": ["ann"], "solo": True, "nob_pips": 50}, "Solo exists only"),
    ({"players": NAMES[:3], "lafh": ["ann"]}, "write down NOB's pips"),
    ({"lafh_pips": -1}, "between 0 and 220"),
    ({"nob_pips": -1}, "negative"),
    ({"lafh_pips": 300}, "220"),
    ({"nob_pips": 50}, "220 pips together"),
    ({"lafh_bonuses": ["lucky"]}, "not a Hawk bonus"),
    ({"lafh_pips": 220, "nob_bonuses": ["heavy"]}, "NOB took no trick"),
]


@pytest.mark.parametrize(("change", "message"), HAWK_NONSENSE)
def test_hawk_nonsense_is_refused(admin_user, club, change, message) -> None:
    facts = {"players": NAMES[:4], "lafh": ["ann", "cat"], "solo": False, "lafh_pips": 151}
    with pytest.raises(InPersonError, match=message):
        record_hawk_round(admin=admin_user, **{**facts, **change})
    assert LedgerEntry.objects.count() == 0


def test_only_admins_record_results(club) -> None:
    with pytest.raises(NotAllowed):
        record_sheepshead_hand(admin=club[0], players=NAMES[:5], picker="ann", partner="ben", picker_points=75)
    assert LedgerEntry.objects.count() == 0


def test_the_admin_form_records_a_hand_and_shows_refusals(admin_user, club) -> None:
    client = Client()
    client.force_login(admin_user)
    url = reverse("admin:tables_inpersonrecord_sheepshead")
    assert client.get(url).status_code == 200
    refused = client.post(url, {"kind": "hand", **seats("ann ben cat"), "picker": "ann", "partner": "ben",
                                "picker_points": "75", "stake_cents": "100"})
    assert refused.status_code == 200
    assert "there is no partner" in refused.content.decode()
    done = client.post(url, {"kind": "hand", **seats("ann ben cat dan eve"), "picker": "ann",
                             "partner": "ben", "picker_points": "75", "stake_cents": "100"})
    assert done.status_code == 302 and "balances" in done["Location"]
    balances = client.get(done["Location"]).content.decode()
    assert "+$2.00" in balances and "-$1.00" in balances
    leaster = client.post(url, {"kind": "leaster", **seats("ann ben cat dan eve"), "leaster_points": "10 30 0 40 40",
                                "leaster_tricks": "1 2 0 1 2", "stake_cents": "100"})
    assert leaster.status_code == 302
    hawk = client.post(reverse("admin:tables_inpersonrecord_hawk"), {
        **seats("ann ben cat dan"), "lafh_1": "ann", "lafh_2": "cat", "lafh_pips": "151", "nob_pips": "",
        "lafh_bonuses": ["heavy"],
    })
    assert hawk.status_code == 302
    assert InPersonRecord.objects.count() == 3
    assert amounts(InPersonRecord.objects.get(kind="hawk_round")) == [12, 0, 12, 0]


def test_members_who_are_not_staff_get_no_admin_page(club) -> None:
    client = Client()
    client.force_login(club[0])
    for name in ("admin:tables_inpersonrecord_sheepshead", "admin:tables_inpersonrecord_hawk",
                 "admin:tables_ledgerentry_balances", "admin:tables_ledgerentry_changelist",
                 "admin:tables_ledgerentry_export", "admin:tables_round_changelist", "admin:tables_round_export"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/admin/login/" in response["Location"], name
    posted = client.post(reverse("admin:tables_inpersonrecord_sheepshead"), {
        "kind": "hand", **seats("ann ben cat dan eve"), "picker": "ann", "partner": "ben", "picker_points": "75",
        "stake_cents": "100"})
    assert posted.status_code == 302 and LedgerEntry.objects.count() == 0
