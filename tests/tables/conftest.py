"""Shared by the tables' tests: a treasurer (staff) and a client logged in as them, for the treasury's tests and the
tournaments' club sheets alike."""

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
