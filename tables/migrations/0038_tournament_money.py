"""A tournament's entry fees and prizes go into the ledger (issue 45): a third source of an entry, its tournament,
and "one result per seat per tournament" beside the rounds' and the in-person records'.

No entry is rewritten: every entry written so far has no tournament, and the hash chain's canonical form
(tables.models.ledger.entry_digest) carries the `tournament` key only when it is set, so each existing digest is
what `check_books` recomputes after this migration exactly as before it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0037_tournament_play'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ledgerentry',
            name='ledger_entry_has_one_source',
        ),
        migrations.AddField(
            model_name='ledgerentry',
            name='tournament',
            field=models.ForeignKey(blank=True, help_text="Set for a tournament's entry fees and prizes.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger_entries', to='tables.tournament', verbose_name='tournament'),
        ),
        migrations.AddConstraint(
            model_name='ledgerentry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('round__isnull', False), ('in_person__isnull', True), ('tournament__isnull', True)), models.Q(('round__isnull', True), ('in_person__isnull', False), ('tournament__isnull', True)), models.Q(('round__isnull', True), ('in_person__isnull', True), ('tournament__isnull', False)), _connector='OR'), name='ledger_entry_has_one_source'),
        ),
        migrations.AddConstraint(
            model_name='ledgerentry',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'result'), ('tournament__isnull', False)), fields=('tournament', 'seat'), name='one_result_per_seat_per_tournament'),
        ),
    ]
