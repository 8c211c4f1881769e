"""Tables that were waiting for players when open tables began to close by themselves are looked at by the clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.migrations import latest_schema_after, migrate  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0022_unplayed_rounds_void_themselves"), ("accounts", "0001_initial")]
AFTER = [("tables", "0023_open_tables_are_due")]


def test_open_tables_without_a_due_time_become_due() -> None:
    apps = migrate(BEFORE)
    Table = apps.get_model("tables", "Table")
    earlier = timezone.now() - timedelta(minutes=1)
    Table.objects.create(game="hawsker", seat_count=2, status="open", code="open1")
    Table.objects.create(game="hawsker", seat_count=2, status="open", code="open2", due_at=earlier)
    Table.objects.create(game="hawsker", seat_count=2, status="abandoned", code="gone1")
    before = timezone.now()

    apps = migrate(AFTER)
    Table = apps.get_model("tables", "Table")
    assert Table.objects.get(code="open1").due_at >= before
    assert Table.objects.get(code="open2").due_at == earlier  # already due: left as it was
    assert Table.objects.get(code="gone1").due_at is None
