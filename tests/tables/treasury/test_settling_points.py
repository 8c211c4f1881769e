"""The settling page of a game counted in points (issue 42, item 8): Hawk's points are a score that only the LAFH side
gains, so they need not sum to zero and nobody owes them. The page shows the game's standings for the period, with
no payments, no "owes" or "is owed" and no claim that anything sums to zero; a money game's page is unchanged."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from tables.ledger.selectors import club_today
from tables.ledger.services.inperson import record_hawk_round, record_sheepshead_hand
from tables.treasury.selectors.settling import period_balances
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

URL = reverse("treasury_settle")
NAMES = ["ann", "ben", "cat", "dan", "eve"]
MONEY_WORDS = ("owes", "is owed", "sum to zero", "sums to zero", "Who pays whom", "pays")


def words(html: str) -> str:
    """The page's text without its markup (and without the admin's scripts and styles)."""
    body = html[html.index('<div id="content-main">'):]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_hawk_shows_standings_in_points_not_debts(staff_client, treasurer, club, make_member) -> None:
    # 4 players: LAFH Ann and Cat with 151 pips (k 2, P 8 each), then Ben alone taking first and last (solo) at 151
    record_hawk_round(admin=treasurer, players=NAMES[:4], lafh=["ann", "cat"], solo=False, lafh_pips=151)
    record_hawk_round(admin=treasurer, players=NAMES[:4], lafh=["ben"], solo=True, lafh_pips=151)
    finished_table("hawk", [club["eve"]], bots=3)  # the house plays too
    page = staff_client.get(URL, {"game": "hawk"})
    books = page.context["books"]
    assert books.total != 0  # points are a score, not a debt: they need not sum to zero
    members = {line.name: (line.hands, line.total) for line in books.standings if not line.house}
    assert {k: v for k, v in members.items() if k != "Eve"} == {"Ben": (2, 24), "Ann": (2, 8), "Cat": (2, 8),
                                                                "Dan": (2, 0)}
    # Eve's one table was dealt from a fresh seed, so her points (and place) vary: rank the others around her
    ranked = [line for line in books.ranked if line.name != "Eve"]
    assert [line.name for line in ranked][:3] == ["Ben", "Ann", "Cat"]  # more points first
    assert ranked[1].rank == ranked[2].rank > ranked[0].rank  # Ann and Cat tie, below Ben
    assert [line.rank for line in books.ranked] == sorted(line.rank for line in books.ranked)
    assert books.house and all(line.rank is None for line in books.house)
    assert books.payments == [] and not books.can_settle
    text = words(page.content.decode())
    assert "Hawk standings since the start of the books" in text
    assert "Hawk is counted in points: more are better. These are standings, not debts" in text
    assert "nothing to settle" in text and "The house: bots, not ranked" in text
    assert text.count("nobody owes or is owed anything, and the points are not meant to sum to zero") == 1
    rest = text.replace("nobody owes or is owed anything, and the points are not meant to sum to zero", "")
    for said in (*MONEY_WORDS, "Mark settled", "Past settlements", "square"):
        assert said not in rest, said
    assert all(line.standing == "" for line in books.parties)  # the selector's words say no debt either

    today = club_today()
    period = staff_client.get(URL, {"game": "hawk", "start": (today - timedelta(days=1)).isoformat(),
                                    "end": today.isoformat()})
    said = words(period.content.decode())
    assert "Hawk standings from" in said and "the days the rounds were played" in said
    assert period_balances(game="hawk", start=today + timedelta(days=1), end=None).standings == []


def test_puskiyon_says_its_points_are_penalties(staff_client, club) -> None:
    text = words(staff_client.get(URL, {"game": "puskiyon"}).content.decode())
    assert "Puskiyon is counted in points, and its points are penalties: fewer are better." in text
    assert "No matches of Puskiyon in this period." in text
    rest = text.replace("nobody owes or is owed anything, and the points are not meant to sum to zero", "")
    assert not any(said in rest for said in MONEY_WORDS)
    hawsker = words(staff_client.get(URL, {"game": "hawsker"}).content.decode())
    assert "Hawsker is counted in points: more are better." in hawsker and "balances sum to zero" not in hawsker


def test_sheepshead_keeps_balances_owing_and_payments(staff_client, treasurer, club) -> None:
    record_sheepshead_hand(admin=treasurer, players=NAMES, picker="ann", partner="ben", picker_points=75)
    finished_table("sheepshead", [club["cat"]], bots=4)
    page = staff_client.get(URL, {"game": "sheepshead"})
    books = page.context["books"]
    assert books.total == 0 and books.standings == [] and books.can_settle
    assert {line.standing for line in books.parties if line.amount > 0} == {"is owed"}
    assert {line.standing for line in books.parties if line.amount < 0} == {"owes"}
    text = words(page.content.decode())
    assert "Who pays whom" in text and "so the balances sum to zero" in text and "Mark settled" in text
    assert "Past settlements" in text and "These are standings, not debts" not in text
