"""Issue 44's "done when", on the default tier's database: see tests/tables/notices/across_days.py (the services tier
plays the same on PostgreSQL, tests/services/test_correspondence_on_postgres.py)."""

from __future__ import annotations

import pytest

from tests.tables.notices.across_days import check_told_once_per_turn, play_across_days
from tests.tables.play.table_life import fake_time

pytestmark = pytest.mark.django_db


def test_a_correspondence_table_across_days_tells_each_member_once_per_turn_by_email_and_push(
        make_member, smtp, pushes, django_capture_on_commit_callbacks, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    outcome = play_across_days(make_member=make_member, smtp=smtp, pushes=pushes,
                               capture=django_capture_on_commit_callbacks, time=time)
    check_told_once_per_turn(outcome, smtp, pushes)
