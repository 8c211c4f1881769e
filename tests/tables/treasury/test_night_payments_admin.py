"""The payments made at the table for club nights in the admin: read-only, each with its night, its two parties and
its amount, in the reader's language; never added, changed or deleted there (the settle sheet records them)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import NightPayment
from tests.tables.test_books_in_german import german
from tests.tables.treasury.books_support import night_with_a_payment

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def treasurer(make_member):
    """The club's admin (the treasury's own pages need staff only; the admin's records need the view permission)."""
    return make_member("tess", display_name="Tess", is_staff=True, is_superuser=True)


@pytest.fixture
def payment(treasurer, club) -> NightPayment:
    return night_with_a_payment(treasurer, club)


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
