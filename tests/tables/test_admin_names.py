"""The admin says whose it is, and each app has a heading of its own."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_admin_is_named_for_the_club_and_its_headings_are_distinct(make_member) -> None:
    client = Client()
    client.force_login(make_member("boss", is_staff=True, is_superuser=True))
    page = client.get("/admin/").content.decode()
    assert f"{settings.CLUB_NAME}: administration" in page and "Django administration" not in page
    assert page.count(">Accounts<") == 1 and ">Members<" in page
