"""Open tables close by themselves once nobody has attended them for TABLE_OPEN_IDLE_CLOSE_MINUTES (issue 40; the table
clock does it: tables.play.services.open_tables). The clock only looks at tables that are due, and tables made before
had no `due_at` while they waited: each open one is made due now, so the clock's next pass sees it once and says when
it is next due (or closes it, if nobody has been there for that long)."""

from django.db import migrations
from django.utils import timezone


def open_tables_due_now(apps, schema_editor) -> None:
    Table = apps.get_model("tables", "Table")
    Table.objects.filter(status="open", due_at__isnull=True).update(due_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0022_unplayed_rounds_void_themselves'),
    ]

    operations = [
        migrations.RunPython(open_tables_due_now, migrations.RunPython.noop),
    ]
