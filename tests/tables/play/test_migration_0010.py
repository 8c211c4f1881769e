"""Tables that were running when the clock arrived are looked at by it, and their members get a first look."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.migrations import latest_schema_after, migrate  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0009_table_life"), ("accounts", "0001_initial")]
AFTER = [("tables", "0010_running_tables_join_the_clock")]


def test_running_tables_get_a_due_time_and_their_members_a_first_look() -> None:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Table, Seat = apps.get_model("tables", "Table"), apps.get_model("tables", "Seat")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")
    running = Table.objects.create(game="hawsker", seat_count=2, status="running", code="run1")
    finished = Table.objects.create(game="hawsker", seat_count=2, status="finished", code="fin1")
    Seat.objects.create(table=running, position=0, user=ann)
    Seat.objects.create(table=running, position=1, user=ben, away=True)
    Seat.objects.create(table=finished, position=0, user=ben)
    before = timezone.now()

    apps = migrate(AFTER)
    Table, Seat = apps.get_model("tables", "Table"), apps.get_model("tables", "Seat")
    assert Table.objects.get(code="run1").due_at >= before
    assert Table.objects.get(code="fin1").due_at is None
    assert Seat.objects.get(table__code="run1", position=0).gone_at > before  # counted offline only if no page
    assert Seat.objects.get(table__code="run1", position=1).gone_at is None  # left: the bot plays it anyway
    assert Seat.objects.get(table__code="fin1", position=0).gone_at is None
