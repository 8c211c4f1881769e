"""Any member may watch a table the club seated (a tournament's round, issue 45): until now such a table was private
like a member's own, so a member who was not playing there got "ask the member who opened it for an invitation" from
the tournament page's Watch link, though nobody had opened it. The tournaments' tables made so far are marked."""

from django.db import migrations, models


def mark_tournament_tables(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    TournamentTable = apps.get_model("tables", "TournamentTable")
    seated = TournamentTable.objects.filter(table__isnull=False).values("table_id")
    Table.objects.filter(pk__in=seated).update(anyone_may_watch=True)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0038_tournament_money"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="anyone_may_watch",
            field=models.BooleanField(default=False, help_text="A private table whose seats the club decided: every signed-in member may watch it.", verbose_name="any member may watch"),
        ),
        migrations.RunPython(mark_tournament_tables, migrations.RunPython.noop),
    ]
