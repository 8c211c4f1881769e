"""Days at the calendar's limits typed into a filter: refused with a clear error on the form, never a 500.

Python's dates end at 9999-12-31 and begin at 0001-01-01. A period filter turns its last day into the next
midnight and its first day into a moment in the club's zone, and a statement looks at the day before its first
for the opening balance: at either limit that arithmetic overflowed (`OverflowError`, a 500), in any zone.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.play.request_dates import FIRST_DAY, LAST_DAY
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

LIMITS = ("9999-12-31", "0001-01-01", "0001-01-02", "9999-12-30")
ZONES = ("UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago")  # the club at UTC+14 and at UTC-11
REFUSED = "Choose a day from"


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def books(make_member):
    """A finished Sheepshead table with its ledger entries, a member who played there and a staff member."""
    ann = make_member("ann")
    finished_table("sheepshead", [ann], bots=4)
    return ann, make_member("boss", is_staff=True, is_superuser=True)


def member_pages(ann) -> list[tuple[str, dict[str, str]]]:
    return [(reverse("standings"), {"game": "sheepshead"}), (reverse("standings"), {}),
            (reverse("my_history"), {})]


def staff_pages(ann) -> list[tuple[str, dict[str, str]]]:
    return [
        (reverse("treasury_statement"), {"member": ann.username}),
        (reverse("treasury_statement"), {"member": ann.username, "game": "sheepshead"}),
        (reverse("treasury_statement_csv"), {"member": ann.username}),
        (reverse("treasury_statements_everyone"), {}),
        (reverse("treasury_settle"), {"game": "sheepshead"}),
        (reverse("admin:tables_ledgerentry_balances"), {}),
        (reverse("admin:tables_ledgerentry_export"), {}),
    ]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("day", LIMITS)
@pytest.mark.parametrize("end", ["start", "end"])
def test_a_period_at_the_calendars_limits_is_refused_on_its_form(books, settings, zone, day, end) -> None:
    settings.TIME_ZONE = zone
    ann, boss = books
    for user, pages in ((ann, member_pages(ann)), (boss, staff_pages(ann))):
        client = client_for(user)
        for url, query in pages:
            response = client.get(url, {**query, end: day})
            assert response.status_code < 500, (url, end, day)
            assert REFUSED in response.content.decode(), (url, end, day)  # a CSV refused says why, in words


def test_the_club_calendar_is_far_from_pythons_limits() -> None:
    from datetime import date, timedelta

    assert date.min + timedelta(days=2) < FIRST_DAY < LAST_DAY < date.max - timedelta(days=2)


@pytest.mark.parametrize("zone", ZONES)
def test_a_season_saved_beyond_the_calendar_still_has_standings(books, settings, zone) -> None:
    """A season from before the limits (or written around the admin) reaches the filters as the calendar's ends."""
    from datetime import date

    from tables.models import Season

    settings.TIME_ZONE = zone
    ann, _boss = books
    Season.objects.create(name="Forever", starts=date(1, 1, 1), ends=date(9999, 12, 31))
    response = client_for(ann).get(reverse("standings"), {"game": "sheepshead", "period": "season"})
    assert response.status_code == 200
    assert "Ann" in response.content.decode() or ann.username in response.content.decode()


def test_the_season_admin_refuses_a_day_outside_the_calendar(books) -> None:
    from tables.models import Season

    _ann, boss = books
    response = client_for(boss).post(reverse("admin:tables_season_add"),
                                     {"name": "Forever", "starts": "2026-01-01", "ends": "9999-12-31"})
    assert response.status_code == 200 and REFUSED in response.content.decode()
    assert not Season.objects.exists()


HIERARCHIES = [("tables_table", "created_at"), ("tables_move", "created_at"), ("tables_ledgerentry", "created_at"),
               ("tables_inpersonrecord", "played_on"), ("tables_round", "started_at"),
               ("tables_matchresult", "finished_at"), ("tables_season", "starts"), ("tables_chatmessage", "created_at"),
               ("tables_queuerequest", "created_at")]


@pytest.mark.parametrize(("name", "field"), HIERARCHIES)
def test_the_admins_date_hierarchy_at_the_calendars_limits_is_refused_not_a_500(books, settings, name, field) -> None:
    from django.contrib import admin as django_admin
    from django.urls import resolve

    url = reverse(f"admin:{name}_changelist")
    assert resolve(url).func.model_admin.date_hierarchy == field  # the list above is the admins' own
    settings.TIME_ZONE = "Pacific/Kiritimati"  # the first midnight of year 1 there is still year 0 in UTC
    client = client_for(books[1])
    for query in ({"year": "9999"}, {"year": "9999", "month": "12"}, {"year": "9999", "month": "12", "day": "31"},
                  {"year": "1"}, {"year": "1", "month": "1", "day": "1"}, {"year": "١٢"}, {"year": "²"},
                  {"year": "2026", "month": "2", "day": "30"}, {"year": "9" * 40}):
        response = client.get(url, {f"{field}__{part}": value for part, value in query.items()})
        assert response.status_code == 302 and response["Location"].endswith("?e=1"), query
    assert client.get(url, {f"{field}__year": "2026"}).status_code == 200
    assert django_admin.site.is_registered(resolve(url).func.model_admin.model)


def test_an_admin_filter_value_with_a_nul_is_refused_as_an_unusable_lookup(books) -> None:
    """PostgreSQL's text holds no NUL: psycopg refused `?game__exact=a%00b` with an error Django let through (a 500
    there, found by the sweep's services-tier run); every changelist now refuses it as Django refuses any lookup."""
    client = client_for(books[1])
    for name, lookup in (("tables_table", "game__exact"), ("tables_ledgerentry", "kind__exact"),
                         ("tables_matchresult", "ending__exact"), ("tables_queuerequest", "state__exact")):
        response = client.get(reverse(f"admin:{name}_changelist"), {lookup: "a\x00b"})
        assert response.status_code == 302 and response["Location"].endswith("?e=1"), name
        assert client.get(reverse(f"admin:{name}_changelist"), {lookup: "ab"}).status_code == 200, name
