"""Shared by the tournament tests: the organiser (a staff member), unless a module names its own."""

from __future__ import annotations

import pytest


@pytest.fixture
def staff(make_member):
    return make_member("organiser", is_staff=True)
