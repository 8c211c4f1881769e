"""What the treasury's tests share: a treasurer (staff), a client logged in as them, and a small club by name."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def treasurer(make_member):
    return make_member("tess", display_name="Tess", is_staff=True)


@pytest.fixture
def staff_client(treasurer) -> Client:
    client = Client()
    client.force_login(treasurer)
    return client


@pytest.fixture
def club(make_member, request):
    """Members by username (each test module's NAMES), shown by their names in title case."""
    return {name: make_member(name, display_name=name.title()) for name in request.module.NAMES}
