"""The settle page stores exactly the payments it showed. Where amounts tie, who pays whom depends on the order the
balances are squared in; the page reads them sorted by name and the service in database order, so both must square
them through one function (tables.treasury.books.settling_plan) or the stored pairs differ from the shown ones."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.ledger.selectors import club_today
from tables.models import Settlement
from tests.tables.treasury.books_support import booked

pytestmark = pytest.mark.django_db

URL = reverse("treasury_settle")
NAMES = ["zed", "amy", "bob", "cy"]  # made in this order: ids run zed, amy, bob, cy; names amy, bob, cy, zed


def test_the_stored_pairs_are_the_pairs_the_page_showed(staff_client, treasurer, club) -> None:
    assert [m.pk for m in sorted(club.values(), key=lambda m: m.shown_name)] != sorted(m.pk for m in club.values())
    # Two who owe $1.00 and two owed $1.00: four right answers of two payments each, chosen by order alone.
    booked(treasurer, club_today(), {club["zed"]: -100, club["amy"]: -100, club["bob"]: 100, club["cy"]: 100})
    page = staff_client.get(URL, {"game": "sheepshead"})
    books = page.context["books"]
    shown = sorted((p.payer, p.payee, p.amount) for p in books.payments)
    assert len(shown) == 2
    answer = staff_client.post(URL, {"game": "sheepshead", "through": books.through, "seen": books.seen, "note": ""})
    assert answer.status_code == 302
    names = {str(m.pk): m.shown_name for m in club.values()}
    stored = sorted((names[str(p["payer"])], names[str(p["payee"])], p["amount"])
                    for p in Settlement.objects.get().payments)
    assert stored == shown
    for payer, payee, amount in shown:
        assert f"{payer} pays {payee} ${amount / 100:.2f}" in page.content.decode()
