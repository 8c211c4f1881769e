"""`check_books` checks the payments made at the table for club nights (kind "night payment"): payments recorded by
the service check clean; a row edited in SQL (paying past square, a payee who did not play, the payer paying
themselves) is named with its ids."""

from __future__ import annotations

import pytest
from django.db import connection

from tables.models import NightPayment
from tables.treasury.services.books import check_books
from tests.tables.treasury.books_support import night_with_a_payment

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]


def raw(sql: str, *params: object) -> None:
    """Bypasses the models (which refuse to change a payment), as someone editing the database file would."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def paid(treasurer, club) -> NightPayment:
    """A night of four (ann picks alone and wins: +$3.00, the others -$1.00 each); ben has paid ann $0.60 of it."""
    return night_with_a_payment(treasurer, club)


def night_payment_differences() -> list[str]:
    return [str(d) for d in check_books().differences if d.what == "night payment"]


def test_payments_recorded_by_the_service_check_clean(paid) -> None:
    check = check_books()
    assert check.ok, [str(d) for d in check.differences]


def test_a_payment_raised_past_what_was_owed_is_named(paid) -> None:
    raw("UPDATE tables_nightpayment SET amount = %s WHERE id = %s", 150, paid.pk)
    found = night_payment_differences()
    assert len(found) == 1, found
    assert f"club night {paid.night_id}, member {paid.payer_id}" in found[0] and "past square" in found[0]


def test_a_payment_moved_to_someone_who_did_not_play_is_named(paid, club) -> None:
    raw("UPDATE tables_nightpayment SET payee_id = %s WHERE id = %s", club["eve"].pk, paid.pk)
    found = night_payment_differences()
    assert any(f"night payment {paid.pk}" in d and f"member {club['eve'].pk} did not play" in d for d in found), found
    assert any(f"member {club['eve'].pk}" in d and "past square" in d for d in found), found  # eve was owed nothing


def test_a_payer_paying_themselves_is_named(paid) -> None:
    with connection.cursor() as cursor:  # the table's own check constraint stands in the way: a tamperer drops it
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's deferred foreign keys, checked now
            cursor.execute("ALTER TABLE tables_nightpayment DROP CONSTRAINT a_night_payment_has_two_parties")
        else:
            cursor.execute("PRAGMA ignore_check_constraints = ON")
    try:
        raw("UPDATE tables_nightpayment SET payee_id = payer_id WHERE id = %s", paid.pk)
    finally:
        if connection.vendor != "postgresql":
            raw("PRAGMA ignore_check_constraints = OFF")
    found = night_payment_differences()
    assert any(f"night payment {paid.pk}" in d and "pays themselves" in d for d in found), found
