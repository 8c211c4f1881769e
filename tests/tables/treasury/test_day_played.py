"""Periods count the day a hand was played, not the day it was booked (issue 42, item 3): a night dated 4 Dec saved
on 5 Dec is the 4th's in statements, settle-up, standings and a member's history; an online round counts on the
club's day it finished (its zone's midnight, whatever the UTC date); a correction booked later counts on the day of
the hand it corrects. The booking time is kept and shown beside the day played where they differ."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, time

import pytest
from django.urls import reverse

from tables.ledger.selectors import club_zone, member_history, standings
from tables.ledger.services.inperson import record_sheepshead_hand
from tables.ledger.services.ledger import correct_entries
from tables.models import ClubNight, LedgerEntry, Round
from tables.treasury.selectors.settling import period_balances
from tables.treasury.selectors.statements import members_in_period, statement
from tests.tables.helpers import client_for
from tests.tables.ledger_support import finished_table
from tests.tables.play.table_life import fake_time

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve"]
DEC_3, DEC_4, DEC_5, DEC_6 = date(2026, 12, 3), date(2026, 12, 4), date(2026, 12, 5), date(2026, 12, 6)


def club_time(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=club_zone())


@pytest.fixture
def clock(settings, monkeypatch):
    settings.TIME_ZONE = "America/Chicago"  # the club's zone: UTC-6 in December
    return fake_time(monkeypatch)


def night_of_the_4th_saved_on_the_5th(treasurer, clock) -> ClubNight:
    """Two hands of a night dated 4 Dec, typed in the next morning (5 Dec, 10:00 at the club): Ann +2.00, Ben +1.00,
    Cat/Dan/Eve -1.00 (75 points with Ben); then Cat alone at 29 for $0.50: Cat -8.00, the rest +2.00."""
    clock.now = club_time(DEC_5, 10)
    night = ClubNight(game="sheepshead", played_on=DEC_4, seats=[], options={"stake": 100}, token="dec-4",
                      recorded_by=treasurer, recorded_at=clock.now)
    night.save()
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="ann", partner="ben", picker_points=75,
                           played_on=DEC_4, night=night, number=1)
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="cat", partner="", picker_points=29,
                           stake_cents=50, played_on=DEC_4, night=night, number=2)
    assert {e.created_at for e in LedgerEntry.objects.all()} == {club_time(DEC_5, 10)}  # booked on the 5th
    return night


def test_a_night_saved_the_next_day_is_in_the_statement_of_its_own_day(staff_client, treasurer, club, clock):
    night_of_the_4th_saved_on_the_5th(treasurer, clock)
    found = statement(member=club["ann"], game="sheepshead", start=DEC_4, end=DEC_4)
    section = found.games[0]
    assert section.hands == 2 and section.opening == 0 and section.change == 400
    assert [row.played for row in section.rows] == [DEC_4, DEC_4] and all(row.booked_later for row in section.rows)
    assert statement(member=club["ann"], game="sheepshead", start=DEC_5, end=DEC_5).games[0].hands == 0
    later = statement(member=club["ann"], game="sheepshead", start=DEC_5, end=DEC_6).games[0]
    assert later.opening == 400 and later.rows == []  # brought forward: played before the 5th
    assert members_in_period(game="sheepshead", start=DEC_4, end=DEC_4) == [club[n] for n in NAMES]
    assert members_in_period(game="sheepshead", start=DEC_5, end=DEC_5) == []

    page = staff_client.get(reverse("treasury_statement"), {"member": "ann", "game": "sheepshead",
                                                            "start": "2026-12-04", "end": "2026-12-04"})
    body = page.content.decode()
    assert "2 hands; change in the period +$4.00" in body and "No hands in this period." not in body
    assert body.count('data-played="2026-12-04"') == 2 and "(booked <time" in body and "5 Dec 2026, 10:00" in body

    sheet = staff_client.get(reverse("treasury_statement_csv"), {"member": "ann", "game": "sheepshead",
                                                                 "start": "2026-12-04", "end": "2026-12-04"})
    rows = list(csv.reader(io.StringIO(b"".join(sheet.streaming_content).decode("utf-8-sig"))))
    col = {name: i for i, name in enumerate(rows[0])}
    assert [r[col["played_on"]] for r in rows[2:]] == ["2026-12-04", "2026-12-04"]
    assert all(r[col["booked_at"]].startswith("2026-12-05T10:00") for r in rows[2:])


def test_settle_up_and_standings_count_the_night_on_its_own_day(staff_client, treasurer, club, clock):
    night_of_the_4th_saved_on_the_5th(treasurer, clock)
    books = period_balances(game="sheepshead", start=DEC_4, end=DEC_4)
    assert {line.name: line.amount for line in books.parties} == {
        "Ann": 400, "Ben": 300, "Cat": -900, "Dan": 100, "Eve": 100}
    assert [p.sentence for p in books.payments] == ["Cat pays Ann $4.00", "Cat pays Ben $3.00",
                                                    "Cat pays Dan $1.00", "Cat pays Eve $1.00"]
    assert period_balances(game="sheepshead", start=DEC_5, end=DEC_5).parties == []
    page = staff_client.get(reverse("treasury_settle"), {"game": "sheepshead", "start": "2026-12-04",
                                                         "end": "2026-12-04"}).content.decode()
    assert "Cat pays Ann $4.00" in page and "Nothing has been played in this period." not in page

    rows = standings(game="sheepshead", start=DEC_4, end=DEC_4)
    assert {r.name: (r.hands, r.total) for r in rows} == {
        "Ann": (2, 400), "Ben": (2, 300), "Cat": (2, -900), "Dan": (2, 100), "Eve": (2, 100)}
    assert standings(game="sheepshead", start=DEC_5, end=DEC_5) == []
    shown = client_for(club["ann"]).get(reverse("standings"), {"game": "sheepshead", "period": "dates",
                                                              "start": "2026-12-04", "end": "2026-12-04"})
    assert [r.name for r in shown.context["ranked"]] == ["Ann", "Ben", "Dan", "Eve", "Cat"]

    history = member_history(user=club["ann"], start=DEC_4, end=DEC_4)
    assert [b.rounds for b in history.balances if b.game == "sheepshead"] == [2]
    mine = client_for(club["ann"]).get(reverse("my_history"), {"start": "2026-12-04", "end": "2026-12-04"})
    assert mine.content.decode().count('data-played="2026-12-04"') == 2


def test_a_correction_booked_later_counts_on_the_day_of_the_hand_it_corrects(treasurer, club, clock):
    """"The 4 Dec night's totals" are what its hands came to once corrected: the reversal and the new amount are the
    4th's, whenever booked (the booking is kept and shown), and the day of the correction has nothing played."""
    night_of_the_4th_saved_on_the_5th(treasurer, clock)
    first = LedgerEntry.objects.filter(in_person__number=1).order_by("seat")
    wrong = {e.member.username: e for e in first}
    clock.now = club_time(DEC_6, 9)
    correct_entries(admin=treasurer, reason="Ben picked, not Ann", changes={wrong["ann"].pk: 100, wrong["ben"].pk: 200})
    books = period_balances(game="sheepshead", start=DEC_4, end=DEC_4)
    assert {line.name: line.amount for line in books.parties}["Ann"] == 300
    assert {line.name: line.amount for line in books.parties}["Ben"] == 400
    assert period_balances(game="sheepshead", start=DEC_6, end=DEC_6).parties == []
    section = statement(member=club["ann"], game="sheepshead", start=DEC_4, end=DEC_4).games[0]
    assert [(row.marker, row.entry.amount, row.played) for row in section.rows] == [
        ("", 200, DEC_4), ("", 200, DEC_4), ("reversal", -200, DEC_4), ("correction", 100, DEC_4)]
    assert section.hands == 2 and section.closing == 300
    assert {r.name: r.total for r in standings(game="sheepshead", start=DEC_4, end=DEC_4)}["Ann"] == 300


@pytest.mark.parametrize(("zone", "utc_of_2330"), [
    ("Europe/Berlin", datetime(2026, 12, 4, 22, 30, tzinfo=UTC)),  # UTC+1: still the 4th in UTC
    ("Atlantic/Azores", datetime(2026, 12, 5, 0, 30, tzinfo=UTC)),  # UTC-1: already the 5th in UTC
    ("America/Chicago", datetime(2026, 12, 5, 5, 30, tzinfo=UTC)),  # UTC-6
])
def test_an_online_round_counts_on_the_clubs_day_it_finished(treasurer, make_member, settings, monkeypatch, zone,
                                                              utc_of_2330):
    settings.TIME_ZONE = zone
    clock = fake_time(monkeypatch)
    ann, ben, cat = (make_member(n, display_name=n.title()) for n in ("ann", "ben", "cat"))
    clock.now = club_time(DEC_4, 23, 30)
    assert clock.now == utc_of_2330
    late = Round.objects.get(match__table=finished_table("sheepshead", [ann, ben], bots=3))
    clock.now = club_time(DEC_5, 0, 30)
    finished_table("sheepshead", [cat], bots=4)
    assert late.finished_at == utc_of_2330

    def hands(start: date, end: date) -> dict[str, int]:
        return {r.name: r.hands for r in standings(game="sheepshead", start=start, end=end) if not r.house}

    assert hands(DEC_4, DEC_4) == {"Ann": 1, "Ben": 1}
    assert hands(DEC_5, DEC_5) == {"Cat": 1}
    assert hands(DEC_3, DEC_3) == {}
    assert statement(member=ann, game="sheepshead", start=DEC_4, end=DEC_4).games[0].hands == 1
    assert statement(member=ann, game="sheepshead", start=DEC_5, end=DEC_5).games[0].hands == 0
    assert {line.name for line in period_balances(game="sheepshead", start=DEC_4, end=DEC_4).parties} == {
        "Ann", "Ben", "The house (bots' seats)"}
    # corrected the next afternoon: still the 4th's
    clock.now = club_time(DEC_5, 15)
    entries = {e.member_id: e for e in LedgerEntry.objects.filter(round=late, member__isnull=False)}
    correct_entries(admin=treasurer, reason="a dollar from Ben to Ann", changes={
        entries[ann.pk].pk: entries[ann.pk].amount + 100, entries[ben.pk].pk: entries[ben.pk].amount - 100})
    rows = statement(member=ann, game="sheepshead", start=DEC_4, end=DEC_4).games[0].rows
    assert [row.marker for row in rows] == ["", "reversal", "correction"]
    assert [row.booked_later for row in rows] == [False, True, True]
    assert statement(member=ann, game="sheepshead", start=DEC_5, end=DEC_5).games[0].rows == []


def test_the_nights_pages_show_when_a_night_was_booked_where_it_is_another_day(staff_client, treasurer, club, clock):
    night = night_of_the_4th_saved_on_the_5th(treasurer, clock)
    listed = staff_client.get(reverse("treasury_nights")).content.decode()
    row = listed[listed.index(f'data-night="{night.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "4 Dec 2026" in row or "Dec. 4, 2026" in row
    assert "(booked <time" in row and 'datetime="2026-12-05T16:00:00Z"' in row  # 10:00 at the club
    detail = staff_client.get(reverse("treasury_night", args=[night.pk])).content.decode()
    assert "(booked <time" in detail and 'datetime="2026-12-05T16:00:00Z"' in detail

    same_day = ClubNight(game="sheepshead", played_on=DEC_5, seats=[], options={"stake": 100}, token="dec-5",
                         recorded_by=treasurer, recorded_at=club_time(DEC_5, 23))
    same_day.save()
    detail = staff_client.get(reverse("treasury_night", args=[same_day.pk])).content.decode()
    assert "(booked" not in detail
