"""Every table gets a name people can say: "Alice's Sheepshead table", and "Alice's quick Hawk table" for quick
play's (which were all called "Quick play"). Codes stay in URLs. Tables named by a member or by the seeding keep
their names.

The naming is written out here as it was when this ran (tables.play.services.tables.table_name names new
tables), so a later change there does not change what this migration did."""

from __future__ import annotations

from django.db import migrations

NAME_LENGTH = 60
OLD_QUICK_PLAY_NAME = "Quick play"  # tables.quickplay.services.matchmaking.TABLE_NAME until then
LIVE = ("open", "running")


def _title(game: str) -> str:
    from rules.engine import registry

    return registry.spec(game).title if registry.known(game) else game.capitalize()


def _name(owner: str, game: str, *, quick: bool, number: int) -> str:
    rest = f"'s {'quick ' if quick else ''}{_title(game)} table" + (f" {number}" if number > 1 else "")
    room = NAME_LENGTH - len(rest)
    if len(owner) > room:
        owner = owner[: room - 1].rstrip() + "…"
    return owner + rest


def _owner(table, first_member) -> str:
    user = table.created_by or first_member
    if user is None:
        return "The club"
    return user.display_name or user.username


def name_tables(apps, schema_editor) -> None:
    Table = apps.get_model("tables", "Table")
    Seat = apps.get_model("tables", "Seat")
    unnamed = Table.objects.filter(name__in=["", OLD_QUICK_PLAY_NAME]).select_related("created_by")
    first_members = {}
    for seat in (Seat.objects.filter(table__in=unnamed, user__isnull=False).select_related("user")
                 .order_by("table_id", "position")):
        first_members.setdefault(seat.table_id, seat.user)
    # Names a member's open and running tables already have: a second one of the same name gets a number.
    taken: dict[int | None, set[str]] = {}
    for creator, name in Table.objects.filter(status__in=LIVE).exclude(name__in=["", OLD_QUICK_PLAY_NAME]) \
            .values_list("created_by_id", "name"):
        taken.setdefault(creator, set()).add(name)
    changed = []
    for table in unnamed.order_by("created_at", "pk").iterator(chunk_size=500):
        quick = table.name == OLD_QUICK_PLAY_NAME
        owner = _owner(table, first_members.get(table.pk))
        number = 1
        name = _name(owner, table.game, quick=quick, number=number)
        if table.status in LIVE:
            names = taken.setdefault(table.created_by_id, set())
            while name in names:
                number += 1
                name = _name(owner, table.game, quick=quick, number=number)
            names.add(name)
        table.name = name
        changed.append(table)
    Table.objects.bulk_update(changed, ["name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tables", "0011_match_sheet"), ("accounts", "0001_initial")]
    operations = [migrations.RunPython(name_tables, migrations.RunPython.noop)]
