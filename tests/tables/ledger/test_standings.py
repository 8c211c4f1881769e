"""Standings per game with the measure its spec names: money or points over hands for fixed-length games,
matches won (then points per hand) for games played to a target; periods in the club's days, a minimum to be
ranked, the house apart."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import standings
from tables.models import Match, MatchPlace, MatchResult, Season, Table
from tests.tables.ledger_support import finished_table
from tests.tables.play.table_life import fake_time

pytestmark = pytest.mark.django_db

MAY_20 = datetime(2026, 5, 20, 17, 0, tzinfo=UTC)

HOUSE = "Easy bot"  # the house's line when every bot played easy (each bot level is a line of its own)
ROW_NAME = r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>'  # a standings row's name, linked or not


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_result(game: str, when: datetime, *lines: tuple[object, int, bool], rounds: int,
             ending: str = "played") -> MatchResult:
    """A recorded match: `lines` are (member or None for a bot, total, won), in seat order."""
    table = Table.objects.create(game=game, seat_count=len(lines), status=Table.Status.FINISHED, finished_at=when)
    match = Match.objects.create(table=table, config={}, seed="s", state={}, over=True, finished_at=when)
    result = MatchResult.objects.create(match=match, table=table, game=game, unit="points", ending=ending,
                                        rounds=rounds, finished_at=when)
    for seat, (member, total, won) in enumerate(lines):
        MatchPlace.objects.create(result=result, seat=seat, user=member, bot="" if member else "easy", total=total,
                                  place=1 if won else 2, won=won)
    return result


def names(rows) -> list[str]:
    return [row.name for row in rows]


def page_rows(html: str) -> list[str]:
    return [name.removesuffix(" (you)") for name in re.findall(ROW_NAME, html)]


def test_the_puskiyon_example_ranks_by_win_rate_then_points_per_hand_not_by_summed_penalties(make_member) -> None:
    """A played one round (+14) in one match, B three rounds (+33) in one: both won theirs. Summed penalties put A
    first (14 < 33) for playing less; per hand B is better (11 < 14), and so B ranks first."""
    a, b, c = make_member("a", display_name="A"), make_member("b", display_name="B"), make_member("c")
    a_result("puskiyon", MAY_20, (a, 14, True), (None, 30, False), rounds=1)
    a_result("puskiyon", MAY_20, (b, 33, True), (c, 60, False), rounds=3)
    rows = standings(game="puskiyon")
    assert names(rows) == ["B", "A", "c", HOUSE]
    assert [(r.rank, r.matches, r.won, r.win_rate_text, r.average_text, r.hands) for r in rows[:3]] == [
        (1, 1, 1, "100%", "11.0", 3), (2, 1, 1, "100%", "14.0", 1), (3, 1, 0, "0%", "20.0", 3)]
    assert rows[-1].rank is None and rows[-1].house

    # A lost match puts A below B, who won all of his, whatever the points; c's win puts c at A's win rate, and
    # then A's 8 points a hand (16 in 2) beat c's 15.25 (61 in 4).
    a_result("puskiyon", MAY_20, (a, 2, False), (c, 1, True), rounds=1)
    rows = standings(game="puskiyon")
    assert [(r.name, r.win_rate_text, r.average_text) for r in rows[:3]] == [
        ("B", "100%", "11.0"), ("A", "50%", "8.0"), ("c", "50%", "15.2")]

    page = client_for(a).get(reverse("standings"), {"game": "puskiyon"}).content.decode()
    assert page_rows(page) == ["B", "A", "c", HOUSE]
    assert "fewer points are better" in page and "Win rate" in page
    assert "+14" not in page and "+33" not in page and "+" not in "".join(re.findall(r'<td class="num">([^<]*)</td>',
                                                                                   page))
    assert "sums to zero" not in page  # the zero-sum footnote is the money game's


def test_hawsker_ranks_more_points_per_hand_first_at_equal_win_rates_and_ties_share_a_rank(make_member) -> None:
    a, b, c = make_member("a"), make_member("b"), make_member("c")
    a_result("hawsker", MAY_20, (a, 100, True), (None, 40, False), rounds=4)  # 25 a hand
    a_result("hawsker", MAY_20, (b, 100, True), (None, 60, False), rounds=2)  # 50 a hand
    a_result("hawsker", MAY_20, (c, 50, True), (None, 10, False), rounds=1)   # 50 a hand
    rows = standings(game="hawsker")
    assert [(r.name, r.rank) for r in rows if not r.house] == [("b", 1), ("c", 1), ("a", 3)]
    page = client_for(a).get(reverse("standings"), {"game": "hawsker"}).content.decode()
    assert "fewer points are better" not in page


def test_the_minimum_lists_members_below_it_as_not_yet_ranked(make_member) -> None:
    a, b = make_member("a"), make_member("b")
    for _ in range(3):
        a_result("puskiyon", MAY_20, (a, 30, False), (None, 10, True), rounds=2)
    a_result("puskiyon", MAY_20, (b, 5, True), (None, 50, False), rounds=1)
    assert names(standings(game="puskiyon")) == ["b", "a", HOUSE]
    rows = standings(game="puskiyon", minimum=2)
    assert [(r.name, r.rank) for r in rows] == [("a", 1), ("b", None), (HOUSE, None)]
    page = client_for(a).get(reverse("standings"), {"game": "puskiyon", "minimum": "2"}).content.decode()
    ranked, unranked = page.split("Not yet ranked")
    assert page_rows(ranked) == ["a"] and page_rows(unranked) == ["b", HOUSE]
    assert "fewer than 2 matches" in page
    bad = client_for(a).get(reverse("standings"), {"game": "puskiyon", "minimum": "lots"})
    assert bad.status_code == 200 and "Enter a whole number" in bad.content.decode()
    assert page_rows(bad.content.decode()) == ["b", "a", HOUSE]  # nonsense changes nothing: no minimum


def test_a_total_game_counts_hands_for_the_minimum_and_shows_the_average_per_hand(make_member) -> None:
    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    finished_table("sheepshead", [ann, ben], bots=3, rounds=2)
    cat = make_member("cat", display_name="Cat")
    finished_table("sheepshead", [cat], bots=4, rounds=1)
    rows = standings(game="sheepshead")
    assert {r.name: r.hands for r in rows} == {"Ann": 2, "Ben": 2, "Cat": 1, HOUSE: 3}
    assert sum(r.total for r in rows) == 0
    for row in rows:
        cents = row.total / row.hands
        assert row.average_text == ("+" if cents > 0 else "-" if cents < 0 else "") + f"${abs(cents) / 100:.2f}"
    assert [r.name for r in standings(game="sheepshead", minimum=2) if r.rank is None] == ["Cat", HOUSE]
    page = client_for(ann).get(reverse("standings"), {"game": "sheepshead"}).content.decode()
    assert "sums to zero" in page and "Per hand" in page and "Balance" in page


def test_periods_this_month_this_season_and_dates_are_the_clubs_days(make_member, settings, monkeypatch) -> None:
    settings.TIME_ZONE = "America/Chicago"  # the club's zone: UTC-5 in May
    time = fake_time(monkeypatch)
    time.now = MAY_20
    a, b, c, d = (make_member(n) for n in "abcd")
    a_result("hawsker", datetime(2026, 2, 10, 12, tzinfo=UTC), (a, 100, True), (None, 1, False), rounds=1)
    a_result("hawsker", datetime(2026, 3, 10, 12, tzinfo=UTC), (b, 100, True), (None, 1, False), rounds=1)
    # 1 May, 03:00 UTC is still 30 April at the club: last month's.
    a_result("hawsker", datetime(2026, 5, 1, 3, tzinfo=UTC), (c, 100, True), (None, 1, False), rounds=1)
    a_result("hawsker", datetime(2026, 5, 1, 6, tzinfo=UTC), (d, 100, True), (None, 1, False), rounds=1)
    client = client_for(a)

    def shown(**query: str) -> list[str]:
        html = client.get(reverse("standings"), {"game": "hawsker", **query}).content.decode()
        return sorted(name for name in page_rows(html) if name != HOUSE) + [HOUSE] * (HOUSE in html)

    assert shown() == ["a", "b", "c", "d", HOUSE]
    assert shown(period="month") == ["d", HOUSE]
    no_season = client.get(reverse("standings"), {"game": "hawsker", "period": "season"}).content.decode()
    assert "This season (no season is set)" in no_season and "No season is set" in no_season
    assert page_rows(no_season) == ["a", "b", "c", "d", HOUSE]  # refused: all time, as if not asked
    Season.objects.create(name="Spring 2026", starts=date(2026, 3, 1), ends=date(2026, 5, 31))
    Season.objects.create(name="Winter", starts=date(2025, 12, 1), ends=date(2026, 2, 28))
    season_page = client.get(reverse("standings"), {"game": "hawsker", "period": "season"}).content.decode()
    assert "This season (Spring 2026: 1 Mar 2026 to 31 May 2026)" in season_page
    assert page_rows(season_page) == ["b", "c", "d", HOUSE]
    assert shown(start="2026-02-01", end="2026-04-30") == ["a", "b", "c", HOUSE]
    assert shown(period="dates", start="2026-05-01") == ["d", HOUSE]
    assert shown(period="all", start="2026-05-01") == ["a", "b", "c", "d", HOUSE]  # all time is all time
    bad = client.get(reverse("standings"), {"game": "hawsker", "start": "2026-05-02", "end": "2026-05-01"})
    assert "ends before it starts" in bad.content.decode()
    assert names(standings(game="hawsker", start=date(2026, 4, 30), end=date(2026, 4, 30))) == ["c", HOUSE]


def test_the_game_tabs_keep_the_period_and_the_minimum(make_member) -> None:
    a = make_member("a")
    page = client_for(a).get(reverse("standings"), {"game": "hawk", "period": "month", "minimum": "3"}).content
    assert b'href="?game=puskiyon&amp;period=month&amp;minimum=3"' in page
