"""Statements: every hand of a member in a period, where it was played, corrections shown as reversal and new entry,
a running balance from what came before; as CSV, and printable (one page per member) for everyone."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import club_today
from tables.ledger.services.inperson import record_sheepshead_hand
from tables.ledger.services.ledger import correct_entries
from tables.models import LedgerEntry
from tables.treasury.selectors.statements import statement
from tables.treasury.services.replace import replace_in_person_record
from tests.tables.ledger_support import finished_table
from tests.tables.treasury.books_support import booked, club_night

pytestmark = pytest.mark.django_db

URL = reverse("treasury_statement")
NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


def test_a_correction_shows_the_reversal_and_the_new_entry(staff_client, treasurer, club) -> None:
    record = record_sheepshead_hand(admin=treasurer, players=NAMES[:5], picker="ann", partner="ben", picker_points=75)
    wrong = {e.member.username: e for e in record.ledger_entries.all()}
    # ann and ben were paid as picker and partner the wrong way round: ann +2.00 should be +1.00, ben the reverse
    correct_entries(admin=treasurer, reason="picker was Ben, not Ann",
                    changes={wrong["ann"].pk: 100, wrong["ben"].pk: 200})
    found = statement(member=club["ann"], game="sheepshead")
    rows = found.games[0].rows
    assert [(row.marker, row.entry.amount, row.balance) for row in rows] == [
        ("", 200, 200), ("reversal", -200, 0), ("correction", 100, 100)]
    assert "picker was Ben, not Ann" in rows[1].result and "Tess" in rows[1].result
    assert found.games[0].closing == 100 == sum(LedgerEntry.objects.filter(member=club["ann"])
                                                 .values_list("amount", flat=True))
    page = staff_client.get(URL, {"member": "ann@example.org", "game": "sheepshead"})  # chosen by email
    body = page.content.decode()
    assert page.context["statement"].member == club["ann"]
    assert body.count('data-kind="reversal"') == 1 and body.count('data-kind="correction"') == 1
    assert "Reversal of an earlier entry" in body and "Corrected amount" in body


def test_a_hand_replaced_in_one_step_shows_the_reversal_and_the_new_entry(staff_client, treasurer, club) -> None:
    """tables.treasury.services.replace: Ann picked with Ben and won at 75, but it was 59 (a loss) and Fay sat where
    Eve was recorded. Ann's statement keeps the first entry and shows its reversal and the replacement's entry, with
    the reason; Eve's, her entry given back; Fay's, the new entry alone. The hand counts once, for whoever played it."""
    first = record_sheepshead_hand(admin=treasurer, players=["ann", "ben", "cat", "dan", "eve"], picker="ann",
                                   partner="ben", picker_points=75)
    new = replace_in_person_record(
        admin=treasurer, record_id=first.pk, reason="59 points, and Fay sat there, not Eve", kind="sheepshead_hand",
        facts={"players": ["ann", "ben", "cat", "dan", "fay"], "picker": "ann", "partner": "ben", "picker_points": 59,
               "stake_cents": 100, "played_on": None, "note": ""})
    ann = statement(member=club["ann"], game="sheepshead").games[0]
    assert [(row.marker, row.entry.amount, row.balance) for row in ann.rows] == [
        ("", 200, 200), ("reversal", -200, 0), ("correction", -400, -400)]
    original, reversal, replacement = ann.rows
    assert original.entry.in_person == first and reversal.entry.reverses == original.entry
    assert replacement.entry.in_person == new and replacement.entry.kind == LedgerEntry.Kind.RESULT
    for row in (reversal, replacement):
        assert "59 points, and Fay sat there, not Eve" in row.result
    assert "Tess" in reversal.result and new.summary in replacement.result
    assert (ann.closing, ann.hands) == (-400, 1)
    eve = statement(member=club["eve"], game="sheepshead").games[0]
    assert [(row.marker, row.entry.amount, row.balance) for row in eve.rows] == [("", -100, -100), ("reversal", 100, 0)]
    assert (eve.closing, eve.hands) == (0, 0)  # she did not play the hand after all
    fay = statement(member=club["fay"], game="sheepshead").games[0]
    assert [(row.marker, row.entry.amount, row.balance) for row in fay.rows] == [("correction", 200, 200)]
    assert (fay.closing, fay.hands) == (200, 1)
    page = staff_client.get(URL, {"member": "ann", "game": "sheepshead"}).content.decode()
    rows = re.findall(r'<tr class="entry[^"]*" data-entry="(\d+)" data-kind="(\w+)">', page)
    assert rows == [(str(original.entry.pk), "result"), (str(reversal.entry.pk), "reversal"),
                    (str(replacement.entry.pk), "correction")]
    assert "Reversal of an earlier entry, by Tess: 59 points, and Fay sat there, not Eve" in page
    assert "Corrected hand (59 points, and Fay sat there, not Eve)" in page
    assert "1 hand; change in the period -$4.00" in page


def test_running_balance_starts_from_what_came_before_and_says_where(staff_client, treasurer, club) -> None:
    today = club_today()
    ann, ben, cat = club["ann"], club["ben"], club["cat"]
    booked(treasurer, today - timedelta(days=60), {ann: 300, ben: -300})  # before the period: brought forward
    night = club_night(treasurer, today - timedelta(days=10), [ann, ben, cat])
    booked(treasurer, today - timedelta(days=10), {ann: -150, ben: 50, cat: 100}, night=night, number=1)
    booked(treasurer, today - timedelta(days=10), {ann: 40, ben: -20, cat: -20}, night=night, number=2)
    booked(treasurer, today - timedelta(days=2), {ann: 25, cat: -25})
    table = finished_table("sheepshead", [ann, ben], bots=3)
    start = today - timedelta(days=30)
    found = statement(member=ann, game="sheepshead", start=start, end=today)
    section = found.games[0]
    assert section.opening == 300
    online = LedgerEntry.objects.get(member=ann, round__isnull=False).amount
    assert [row.entry.amount for row in section.rows] == [-150, 40, 25, online]
    assert [row.balance for row in section.rows] == [150, 190, 215, 215 + online]
    night_day = f"{night.played_on:%d %b %Y}"
    assert [row.where for row in section.rows][:3] == [
        f"Club night of {night_day}, hand 1", f"Club night of {night_day}, hand 2",
        f"At the club's table, {today - timedelta(days=2):%d %b %Y}"]
    assert section.rows[3].where.startswith("Online: ") and section.rows[3].where.endswith("round 1")
    assert (table.name or table.code) in section.rows[3].where
    page = staff_client.get(URL, {"member": "Ann", "game": "sheepshead", "start": start.isoformat(),
                                  "end": today.isoformat()})
    body = page.content.decode()
    assert "Balance brought forward" in body and "+$3.00" in body and "+$2.15" in body
    assert "dates and times in the club" in body


def test_the_csv_has_every_row_with_its_running_balance(staff_client, treasurer, club) -> None:
    today = club_today()
    ann, ben = club["ann"], club["ben"]
    booked(treasurer, today - timedelta(days=20), {ann: -300, ben: 300})
    booked(treasurer, today - timedelta(days=1), {ann: 120, ben: -120}, summary="=HYPERLINK(\"x\")")
    response = staff_client.get(reverse("treasury_statement_csv"), {
        "member": "ann", "game": "sheepshead", "start": (today - timedelta(days=5)).isoformat()})
    assert response["Content-Type"].startswith("text/csv")
    assert "statement-ann-" in response["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    header, rows = lines[0], lines[1:]
    assert header[:4] == ["member", "username", "game", "unit"]
    col = {name: i for i, name in enumerate(header)}
    assert [(r[col["kind"]], r[col["amount"]], r[col["balance"]]) for r in rows] == [
        ("opening", "", "-300"), ("result", "120", "-180")]
    assert rows[1][col["balance_shown"]] == "-$1.80"
    assert rows[1][col["result"]].startswith("'=")  # a spreadsheet formula is quoted, as in the ledger's CSV
    assert rows[1][col["booked_at"]].startswith((today - timedelta(days=1)).isoformat() + "T20:00")


def test_the_print_stylesheet_is_linked_and_everyone_gets_a_page(staff_client, treasurer, club) -> None:
    today = club_today()
    booked(treasurer, today, {club["ann"]: 100, club["ben"]: -100})
    booked(treasurer, today, {club["cat"]: 50, club["ben"]: -50})
    page = staff_client.get(URL, {"member": "ben"})
    assert 'href="/static/css/statements.css"' in page.content.decode()
    everyone = staff_client.get(reverse("treasury_statements_everyone"), {"game": "sheepshead",
                                                                          "start": today.isoformat()})
    body = everyone.content.decode()
    assert 'href="/static/css/statements.css"' in body
    assert [s.member.username for s in everyone.context["statements"]] == ["ann", "ben", "cat"]
    assert body.count('<article class="statement"') == 3
    css = Path(finders.find("css/statements.css")).read_text()
    assert "@media print" in css and "break-after: page" in css and "#nav-sidebar" in css


def test_only_staff_see_statements_and_nonsense_is_refused(staff_client, treasurer, club) -> None:
    client = Client()
    client.force_login(club["ann"])
    for url in (URL, reverse("treasury_statement_csv"), reverse("treasury_statements_everyone")):
        response = client.get(url, {"member": "ann"})
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    nobody = staff_client.get(URL, {"member": "nobody-at-all"})
    assert nobody.context["statement"] is None and nobody.context["form"].errors["member"]
    bad_csv = staff_client.get(reverse("treasury_statement_csv"), {"member": "ann", "start": "yesterday"})
    assert bad_csv.status_code == 200 and bad_csv["Content-Type"].startswith("text/html")
    assert staff_client.post(URL, {"member": "ann"}).status_code == 405
