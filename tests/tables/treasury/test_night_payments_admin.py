"""The payments made at the table for club nights in the admin: read-only, each with its night, its two parties and
its amount, in the reader's language; never added, changed or deleted there (the settle sheet records them)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import club_today
from tables.ledger.services.inperson import record_sheepshead_hand
from tables.models import NightPayment
from tables.treasury.services.night_payments import record_night_payment
from tests.tables.test_books_in_german import german
from tests.tables.treasury.books_support import club_night

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def treasurer(make_member):
    """The club's admin (the treasury's own pages need staff only; the admin's records need the view permission)."""
    return make_member("tess", display_name="Tess", is_staff=True, is_superuser=True)


@pytest.fixture
def payment(treasurer, club) -> NightPayment:
    players = [club[n] for n in ("ann", "ben", "cat", "dan")]
    night = club_night(treasurer, club_today(), players)
    record_sheepshead_hand(admin=treasurer, players=["ann", "ben", "cat", "dan"], picker="ann", partner=None,
                           picker_points=75, night=night, number=1)
    paid, _new = record_night_payment(recorded_by=treasurer, night_id=night.pk, payer_id=club["ben"].pk,
                                      payee_id=club["ann"].pk, amount=60, paid_on=club_today(), token="t1")
    return paid


def staff(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_admin_lists_and_shows_a_night_payment(treasurer, payment) -> None:
    client = staff(treasurer)
    listing = client.get(reverse("admin:tables_nightpayment_changelist")).content.decode()
    assert "$0.60" in listing and payment.payer.shown_name in listing and payment.payee.shown_name in listing
    assert reverse("treasury_night_settle", args=[payment.night_id]) in listing
    page = client.get(reverse("admin:tables_nightpayment_change", args=[payment.pk])).content.decode()
    assert "$0.60" in page and reverse("treasury_night_settle", args=[payment.night_id]) in page
    assert 'name="_save"' not in page  # read only


def test_a_night_payment_cannot_be_added_changed_or_deleted_in_the_admin(treasurer, payment) -> None:
    client = staff(treasurer)
    assert client.get(reverse("admin:tables_nightpayment_add")).status_code == 403
    assert client.post(reverse("admin:tables_nightpayment_change", args=[payment.pk]),
                       {"amount": "999"}).status_code == 403
    assert client.post(reverse("admin:tables_nightpayment_delete", args=[payment.pk]),
                       {"post": "yes"}).status_code == 403
    assert NightPayment.objects.get().amount == 60


def test_the_admin_shows_a_night_payment_in_german(treasurer, payment) -> None:
    page = german(treasurer).get(reverse("admin:tables_nightpayment_changelist")).content.decode()
    assert "0,60" in page
    assert "Amount" not in page and "Paid on" not in page and "Payer" not in page
