"""In-person hands keep their summary as a sentence (InPersonRecord.summary_said), read in each reader's language.

The records already in the books get theirs here, built again from what each record keeps (its facts and score) and
the names its ledger results show seat by seat, and kept only when its English is exactly the summary the record
stored: a record whose text cannot be matched (written some other way, or cut at 300 characters)
keeps no sentence and goes on showing its English. The English `summary` is never touched, so nothing the club
stored is lost, and the backwards step only forgets the sentences. The records are append-only to the site's own
code (tables.models.ledger); this step fills a column that did not exist before it, derived from the record itself.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

BATCH = 500


def sentences(apps: Any, schema_editor: Any) -> None:
    from tables.i18n import sentence_to_data
    from tables.ledger.summaries import from_record

    records = apps.get_model("tables", "InPersonRecord")
    entries = apps.get_model("tables", "LedgerEntry")
    database = schema_editor.connection.alias
    pending = records.objects.using(database).filter(summary_said__isnull=True).order_by("pk")
    for record in pending.iterator(chunk_size=BATCH):
        labels = dict(entries.objects.using(database).filter(in_person_id=record.pk, kind="result")
                      .values_list("seat", "label"))
        names = [labels.get(seat, "") for seat in range(len(labels))]
        try:
            built = from_record(kind=record.kind, facts=record.facts or {}, score=record.score or {}, names=names)
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # not a record the services wrote (or not as they write them now): its English stays
        if str(built)[:300] != record.summary:
            continue
        records.objects.using(database).filter(pk=record.pk).update(summary_said=sentence_to_data(built))


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0017_bot_levels"),
    ]

    operations = [
        migrations.AddField(
            model_name="inpersonrecord",
            name="summary_said",
            field=models.JSONField(blank=True, help_text="The summary as a sentence to read in each reader's language (tables.ledger.summaries); empty for a record whose English summary is all there is.", null=True),
        ),
        migrations.AlterField(
            model_name="inpersonrecord",
            name="summary",
            field=models.CharField(help_text="The summary in English, as recorded.", max_length=300),
        ),
        migrations.RunPython(sentences, migrations.RunPython.noop, elidable=True),
    ]
