"""The last-two-seats race on PostgreSQL, where the table's row lock is real."""

from __future__ import annotations

import pytest

from tests.tables.play.test_seat_race import test_exactly_two_of_thirty_get_the_last_two_seats  # noqa: F401

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
