from __future__ import annotations

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_existing_moves(apps, schema_editor) -> None:
    """Rounds played before the field existed: their last move's seq (0 without moves)."""
    Round = apps.get_model("tables", "Round")
    Move = apps.get_model("tables", "Move")
    last = Move.objects.filter(round=OuterRef("pk")).values("round").annotate(last=Max("seq")).values("last")
    Round.objects.update(moves_made=Coalesce(Subquery(last), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_quickplay"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="moves_made",
            field=models.PositiveIntegerField(default=0, help_text="Moves recorded so far (the last one's seq)."),
        ),
        migrations.RunPython(count_existing_moves, migrations.RunPython.noop),
    ]
