"""Replacing an in-person hand on PostgreSQL, the club's production database (services tier).

The no-500 sweep found that on PostgreSQL every replacement was a 500: the entries to reverse were locked with a
plain `select_for_update()` across the outer join that finds the ones not yet reversed, and PostgreSQL cannot lock
the nullable side of an outer join. SQLite ignores the lock, so the default tier never saw it.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.models import Sum
from django.urls import reverse

from tables.ledger.services.inperson import record_sheepshead_hand
from tables.models import InPersonRecord, LedgerEntry
from tables.treasury.services.replace import replace_in_person_record

pytestmark = [pytest.mark.services, pytest.mark.django_db]

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


def balance(member) -> int:
    return LedgerEntry.objects.filter(member=member).aggregate(t=Sum("amount"))["t"] or 0


def test_a_hand_is_replaced_on_postgresql_through_the_service_and_the_page(treasurer, staff_client, club) -> None:
    assert connection.vendor == "postgresql"
    old = record_sheepshead_hand(admin=treasurer, players=NAMES[:5], picker="ann", partner="ben", picker_points=75,
                                 played_on=date(2024, 3, 1))
    new = replace_in_person_record(admin=treasurer, record_id=old.pk, reason="Fay sat there, not Eve",
                                   kind="sheepshead_hand", facts={
                                       "players": ["ann", "ben", "cat", "dan", "fay"], "picker": "ann",
                                       "partner": "ben", "picker_points": 75, "stake_cents": 100,
                                       "played_on": date(2024, 3, 1), "note": ""})
    assert new.replaces == old and balance(club["eve"]) == 0 and balance(club["fay"]) == -100
    again = record_sheepshead_hand(admin=treasurer, players=NAMES[:5], picker="ann", partner="ben", picker_points=75,
                                   played_on=date(2024, 3, 2))
    page = reverse("treasury_replace_hand", args=[again.pk])
    form = {"kind": "sheepshead_hand", "picker": "ann", "partner": "ben", "picker_points": "61", "stake_cents": "100",
            "played_on": "2024-03-02", "note": "", "reason": "61, not 75", "action": "replace",
            **{f"seat_{n}": name for n, name in enumerate(NAMES[:5], 1)}}
    response = staff_client.post(page, form)
    assert response.status_code in (200, 302), response.status_code
    assert InPersonRecord.objects.filter(replaces=again).exists()
