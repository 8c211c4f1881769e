"""Tables running when the table clock arrived: the clock looks at each at once (they had no `due_at`), and their
members, whose pages no socket row vouches for yet, get the first look a new match gives (tables.play.pace)."""

from __future__ import annotations

from datetime import timedelta

from django.db import migrations
from django.utils import timezone

FIRST_LOOK = timedelta(seconds=30)  # tables.play.pace.FIRST_LOOK when this was written


def join_the_clock(apps, schema_editor) -> None:
    Table = apps.get_model("tables", "Table")
    Seat = apps.get_model("tables", "Seat")
    now = timezone.now()
    running = Table.objects.filter(status="running", due_at__isnull=True)
    Seat.objects.filter(table__in=running, user__isnull=False, away=False, offline_since__isnull=True,
                        gone_at__isnull=True).update(gone_at=now + FIRST_LOOK)
    running.update(due_at=now)


class Migration(migrations.Migration):
    dependencies = [("tables", "0009_table_life")]
    operations = [migrations.RunPython(join_the_clock, migrations.RunPython.noop)]
