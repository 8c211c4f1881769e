"""Issue 44's "done when" on PostgreSQL (services tier): a correspondence Sheepshead table of two members and three
bots across simulated days, the clock's sweep and the notices' job run as a serving process runs them, each member
told by email (a real SMTP server, aiosmtpd) and by Web Push (a push service that decrypts what it gets) exactly
once per turn, never of a card (tests/tables/notices/across_days.py)."""

from __future__ import annotations

import pytest

from tests.tables.notices.across_days import check_told_once_per_turn, play_across_days
from tests.tables.play.table_life import fake_time

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_a_correspondence_table_across_days_on_postgres(make_member, smtp, pushes,
                                                        django_capture_on_commit_callbacks, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    outcome = play_across_days(make_member=make_member, smtp=smtp, pushes=pushes,
                               capture=django_capture_on_commit_callbacks, time=time, turns_wanted=20, seed=5)
    check_told_once_per_turn(outcome, smtp, pushes)
