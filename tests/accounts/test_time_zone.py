"""Times show in the member's own zone, named: the profile setting (the club's zone by default), the
middleware that applies it to each request, and the `when` filter that writes a moment with its zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.time_zones import member_zone
from tables.quickplay.services.matchmaking import enqueue

pytestmark = pytest.mark.django_db

WINTER = datetime(2026, 11, 30, 17, 5, 9, tzinfo=UTC)
SUMMER = datetime(2026, 7, 1, 17, 5, tzinfo=UTC)


def when(moment: datetime, zone: str, part: str = "") -> str:
    source = "{% load member_time %}{{ moment|when" + (f':"{part}"' if part else "") + " }}"
    with timezone.override(ZoneInfo(zone)):
        return Template(source).render(Context({"moment": moment}))


def words(html: str) -> str:
    return re.sub(r"<[^>]*>", "", html)


@pytest.mark.parametrize(("zone", "moment", "shown"), [
    ("Europe/Berlin", WINTER, "30 Nov 2026, 18:05 CET"),
    ("Europe/Berlin", SUMMER, "1 Jul 2026, 19:05 CEST"),
    ("America/Chicago", WINTER, "30 Nov 2026, 11:05 CST"),
    ("UTC", WINTER, "30 Nov 2026, 17:05 UTC"),
    ("Asia/Dubai", WINTER, "30 Nov 2026, 21:05 UTC+4"),  # no abbreviation in the tz database: the offset
    ("Asia/Kathmandu", WINTER, "30 Nov 2026, 22:50 UTC+5:45"),
    ("America/Sao_Paulo", WINTER, "30 Nov 2026, 14:05 UTC-3"),
])
def test_when_writes_the_moment_in_the_active_zone_and_names_the_zone(zone: str, moment: datetime,
                                                                      shown: str) -> None:
    html = when(moment, zone)
    assert words(html) == shown
    assert f'datetime="{moment.isoformat().replace("+00:00", "Z")}"' in html  # the moment itself, for machines
    assert f'title="{zone.replace("_", " ")}"' in html


def test_when_can_show_the_time_alone_and_refuses_a_format_it_does_not_know() -> None:
    assert words(when(WINTER, "Europe/Berlin", "time")) == "18:05 CET"
    assert words(when(WINTER, "Europe/Berlin", "seconds")) == "18:05:09 CET"
    assert when(None, "Europe/Berlin") == ""  # type: ignore[arg-type]
    with pytest.raises(TemplateSyntaxError):
        when(WINTER, "Europe/Berlin", "fortnight")


def test_a_new_member_has_the_clubs_zone(make_member, settings) -> None:
    settings.TIME_ZONE = "Europe/Berlin"
    assert make_member("bob").time_zone == "Europe/Berlin"


def test_the_profile_offers_the_zones_and_saves_the_members_choice(member_client: Client, member: User) -> None:
    page = member_client.get(reverse("profile")).content.decode()
    assert 'name="time_zone"' in page and '<optgroup label="Europe">' in page
    assert re.search(rf'<option value="{settings.TIME_ZONE}" selected>', page)
    assert '<option value="America/New_York">America/New York</option>' in page
    response = member_client.post(reverse("profile"), {"display_name": "Alice", "time_zone": "Asia/Tokyo"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.time_zone == "Asia/Tokyo"


def test_the_profile_refuses_a_zone_that_is_not_one(member_client: Client, member: User) -> None:
    response = member_client.post(reverse("profile"), {"display_name": "Alice", "time_zone": "Mars/Olympus_Mons"})
    assert response.status_code == 400
    member.refresh_from_db()
    assert member.time_zone == settings.TIME_ZONE


def test_a_profile_post_without_a_zone_keeps_the_members(member_client: Client, member: User) -> None:
    User.objects.filter(pk=member.pk).update(time_zone="Asia/Tokyo")
    assert member_client.post(reverse("profile"), {"display_name": "Alice"}).status_code == 302
    member.refresh_from_db()
    assert member.time_zone == "Asia/Tokyo"


def test_pages_show_times_in_the_members_zone_and_the_request_leaves_no_zone_behind(
        make_member, settings) -> None:
    settings.TIME_ZONE = "UTC"
    tokyo = make_member("kenji", time_zone="Asia/Tokyo")
    berlin = make_member("greta", time_zone="Europe/Berlin")
    asked = enqueue(user=tokyo, game="hawk").created_at
    enqueue(user=berlin, game="sheepshead")
    for member, zone, name in ((tokyo, "Asia/Tokyo", "JST"), (berlin, "Europe/Berlin", "CE")):
        client = Client()
        client.force_login(member)
        page = client.get(reverse("lobby")).content.decode()
        shown = re.search(r"asked at (.*?), kept until (.*?)\)", words(page))
        assert shown, page
        assert name in shown.group(1) and name in shown.group(2)
        if member == tokyo:
            assert shown.group(1) == f"{timezone.localtime(asked, ZoneInfo(zone)):%H:%M:%S} JST"
        assert timezone.get_current_timezone_name() == "UTC"  # the next request on this thread starts afresh


def test_a_zone_the_tz_database_dropped_falls_back_to_the_clubs(make_member) -> None:
    member = make_member("old", time_zone="Atlantis/Poseidonis")
    assert member_zone(member) == ZoneInfo(settings.TIME_ZONE)
    assert member_zone(None) == ZoneInfo(settings.TIME_ZONE)
