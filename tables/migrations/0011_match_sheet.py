"""Each match keeps its score sheet (one entry per finished round), so the board, built without reading a table's
rounds, can show it. Matches played before this get theirs from their finished rounds' results; a voided round
has no result and no entry. Going back drops the field: the rounds it was made from stay as they are."""

from __future__ import annotations

from itertools import groupby

from django.db import migrations, models

BATCH = 500


def fill_sheets(apps, schema_editor) -> None:
    Match = apps.get_model("tables", "Match")
    Round = apps.get_model("tables", "Round")
    results = (
        Round.objects.filter(over=True, voided_at__isnull=True, result__isnull=False)
        .order_by("match_id", "number").values_list("match_id", "number", "result").iterator(chunk_size=2000)
    )
    filled = []
    for match_id, rounds in groupby(results, key=lambda row: row[0]):
        sheet = [{"round": number, "deltas": list(result["deltas"])} for _match, number, result in rounds
                 if isinstance(result, dict) and result.get("deltas") is not None]
        filled.append(Match(pk=match_id, sheet=sheet))
        if len(filled) >= BATCH:
            Match.objects.bulk_update(filled, ["sheet"])
            filled = []
    if filled:
        Match.objects.bulk_update(filled, ["sheet"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_running_tables_join_the_clock")]
    operations = [
        migrations.AddField(
            model_name="match",
            name="sheet",
            field=models.JSONField(
                blank=True, default=list,
                help_text='The score sheet: each finished round\'s result, oldest first, as {"round": number, '
                          '"deltas": [one per seat]}. A voided round has none. Kept here, written as the round '
                          "ends, so the board (built from a snapshot of the table, without reading its rounds) "
                          "can show it."),
        ),
        migrations.RunPython(fill_sheets, migrations.RunPython.noop),
    ]
