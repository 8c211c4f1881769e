"""Each game's ledger entries become one hash chain (issue 42): a place in the chain and a digest per entry, and a
head row per game that the writer locks while it appends.

The entries already written are chained here, per game in the order (created_at, id), with the very function the
writer uses (tables.models.ledger.digest_of), so `check_books` finds them whole."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import tables.models.play

PAGE = 2000


def chain_existing(apps: Any, schema_editor: Any) -> None:
    from tables.models.ledger import digest_of

    entry_model = apps.get_model("tables", "LedgerEntry")
    head_model = apps.get_model("tables", "ChainHead")
    games = entry_model.objects.values_list("game", flat=True).distinct().order_by("game")
    for game in list(games):
        previous, position, changed = "", 0, []
        for entry in entry_model.objects.filter(game=game).order_by("created_at", "id").iterator(chunk_size=PAGE):
            position += 1
            entry.position = position
            entry.digest = digest_of(entry, previous=previous)
            previous = entry.digest
            changed.append(entry)
            if len(changed) >= PAGE:
                entry_model.objects.bulk_update(changed, ["position", "digest"])
                changed = []
        if changed:
            entry_model.objects.bulk_update(changed, ["position", "digest"])
        head_model.objects.create(game=game, length=position, digest=previous)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0029_night_drafts"),
    ]

    operations = [
        migrations.CreateModel(
            name="ChainHead",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(choices=tables.models.play.game_choices, max_length=20, unique=True,
                                          verbose_name="game")),
                ("length", models.PositiveIntegerField(default=0, verbose_name="entries")),
                ("digest", models.CharField(blank=True, max_length=64, verbose_name="digest")),
            ],
            options={
                "verbose_name": "ledger chain head",
                "verbose_name_plural": "ledger chain heads",
            },
        ),
        # Nullable, with no default, and a partial unique index: SQLite then adds the columns and the index in place
        # (ALTER TABLE ADD COLUMN, CREATE UNIQUE INDEX ... WHERE) and drops them in place when unapplied; a rebuilt
        # table would order its columns differently from one migrated from empty, and restore compares the two.
        migrations.AddField(
            model_name="ledgerentry",
            name="position",
            field=models.PositiveIntegerField(
                help_text="The entry's place in its game's hash chain, from 1.", null=True,
                verbose_name="place in the chain"),
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="digest",
            field=models.CharField(
                help_text="SHA-256 of the entry's content and the digest of the entry before it.", max_length=64,
                null=True, verbose_name="digest"),
        ),
        migrations.RunPython(chain_existing, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="ledgerentry",
            constraint=models.UniqueConstraint(condition=models.Q(("position__isnull", False)),
                                               fields=("game", "position"), name="one_entry_per_place_in_a_chain"),
        ),
    ]
