"""The admin's CSV downloads quote what a spreadsheet would run as a formula, and nothing else: a cell of
numbers such as `-100 50 50` (a round's deltas) stays a cell of numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.admin import csv_response
from tables.models import Round
from tests.tables.ledger_support import finished_table

NUMBERS = ["-100", "-100 50 50", "+25 -25", "-$1.00 +$0.50 +$0.50", "-1 point +2 points 0 points"]
FORMULAS = [
    '=HYPERLINK("http://x","click")', "-2+3", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A2)", "+cmd|' /C calc'!A0",
    "-100 50 50+1", "-1 -2)", "-1\t2", "=1", "-A1", "\tx", "\r1",
]


def cells(values: list[str]) -> list[str]:
    response = csv_response("x.csv", ["value"] * len(values), [values])
    text = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(text)))[1]


@pytest.mark.parametrize("value", NUMBERS)
def test_numbers_and_amounts_are_left_as_they_are(value: str) -> None:
    assert cells([value]) == [value]


@pytest.mark.parametrize("value", FORMULAS)
def test_formulas_are_quoted(value: str) -> None:
    assert cells([value]) == ["'" + value]


@pytest.mark.django_db
def test_the_rounds_export_leaves_negative_deltas_unquoted(make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    table = finished_table("sheepshead", [make_member("ann", display_name="=HYPERLINK(1)")], bots=4)
    done = Round.objects.get(match__table=table, number=1)
    deltas = " ".join(str(d) for d in done.result["deltas"])
    assert any(d < 0 for d in done.result["deltas"])  # a Sheepshead hand always has a loser
    client = Client()
    client.force_login(boss)
    text = b"".join(client.get(reverse("admin:tables_round_export")).streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    row = next(r for r in rows if r["id"] == str(done.pk))
    assert row["deltas"] == deltas
    assert not row["amounts_shown"].startswith("'")
    assert row["players"].startswith("'=HYPERLINK(1)")
