"""The treasurer may name a player by email address, as the login accepts it (any case)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from tables.ledger.services.inperson import InPersonError, record_hawk_round, record_sheepshead_hand
from tables.models import InPersonRecord, LedgerEntry

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]


@pytest.fixture
def admin_user(make_member):
    return make_member("boss", is_staff=True, is_superuser=True)


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=name.title()) for name in NAMES]


def seats(names: str) -> dict[str, str]:
    return {f"player_{n}": name for n, name in enumerate(names.split(), 1)}


def booked(record: InPersonRecord) -> list[tuple[str, int]]:
    return list(record.ledger_entries.order_by("seat").values_list("member__username", "amount"))


def test_a_hand_names_players_picker_and_partner_by_email(admin_user, club) -> None:
    record = record_sheepshead_hand(
        admin=admin_user, players=["ANN@example.org", "ben", "Cat@Example.org", "dan", "eve"],
        picker="ann@EXAMPLE.org", partner="ben@example.org", picker_points=75, stake_cents=100,
    )
    assert booked(record) == [("ann", 200), ("ben", 100), ("cat", -100), ("dan", -100), ("eve", -100)]
    assert record.facts["players"] == NAMES and record.facts["picker"] == "ann"


def test_an_address_added_in_the_account_settings_counts_too(admin_user, club) -> None:
    EmailAddress.objects.create(user=club[2], email="cat.other@example.net", verified=True)
    record = record_hawk_round(admin=admin_user, players=["ann", "ben", "cat.other@example.net", "dan"],
                               lafh=["ann", "Cat.Other@example.net"], solo=False, lafh_pips=151,
                               lafh_bonuses=["heavy"])
    assert booked(record) == [("ann", 12), ("ben", 0), ("cat", 12), ("dan", 0)]


def test_an_unknown_email_is_refused_by_name(admin_user, club) -> None:
    with pytest.raises(InPersonError, match=re.escape("No member has the email address nobody@example.org")):
        record_sheepshead_hand(admin=admin_user, players=["ann", "ben", "nobody@example.org"], picker="ann",
                               partner=None, picker_points=75)
    assert LedgerEntry.objects.count() == 0


def test_one_member_named_by_username_and_by_email_is_named_twice(admin_user, club) -> None:
    with pytest.raises(InPersonError, match="twice"):
        record_sheepshead_hand(admin=admin_user, players=["ann", "ben", "ANN@example.org"], picker="ann",
                               partner=None, picker_points=75)
    assert LedgerEntry.objects.count() == 0


def test_the_admin_form_takes_emails(admin_user, club) -> None:
    client = Client()
    client.force_login(admin_user)
    url = reverse("admin:tables_inpersonrecord_sheepshead")
    done = client.post(url, {"kind": "hand", **seats("ann@example.org ben cat dan Eve@Example.org"),
                             "picker": "eve@example.org", "partner": "", "picker_points": "75", "stake_cents": "100"})
    assert done.status_code == 302
    assert booked(InPersonRecord.objects.get()) == [("ann", -100), ("ben", -100), ("cat", -100), ("dan", -100),
                                                    ("eve", 400)]
    refused = client.post(url, {"kind": "hand", **seats("ann ben ghost@example.org"), "picker": "ann",
                                "picker_points": "75", "stake_cents": "100"})
    assert refused.status_code == 200 and "ghost@example.org" in refused.content.decode()
    assert InPersonRecord.objects.count() == 1
