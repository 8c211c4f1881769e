"""The migrations that relabel fields (tables/migration_operations.py's `RelabelFields`) leave exactly the state the
`AlterField`s they replace left, and change nothing but labels; the migrations as a whole still match the models."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import AlterField
from django.db.models import CharField, Field

from tables.migration_operations import RelabelFields

RELABELLING = ["0028_german_field_labels", "0031_field_labels_of_nights_payments_and_sheets"]
LABELS = frozenset({"verbose_name", "help_text"})
"""What a relabelled field may differ in from the field it replaces: nothing the database holds."""


def label_only(old: Field, new: Field) -> bool:
    """Whether `new` differs from `old` in its labels alone (what `RelabelFields` may change)."""
    old_path, old_args, old_kwargs = old.deconstruct()[1:]
    new_path, new_args, new_kwargs = new.deconstruct()[1:]
    rest = {key for key in set(old_kwargs) | set(new_kwargs) if old_kwargs.get(key) != new_kwargs.get(key)}
    return old_path == new_path and old_args == new_args and rest <= LABELS


def relabelling(loader: MigrationLoader, name: str) -> RelabelFields:
    (operation,) = loader.get_migration("tables", name).operations
    assert isinstance(operation, RelabelFields)
    return operation


@pytest.mark.parametrize("name", RELABELLING)
def test_relabelling_leaves_the_state_the_alter_fields_left(name: str) -> None:
    loader = MigrationLoader(None)  # the migration files alone: no database
    operation = relabelling(loader, name)
    before = loader.project_state(("tables", name), at_end=False)
    before.apps  # rendered, as a migration run has it  # noqa: B018
    relabelled, altered = before.clone(), before.clone()
    operation.state_forwards("tables", relabelled)
    for model, field_name, field in operation.fields:
        AlterField(model_name=model, name=field_name, field=field).state_forwards("tables", altered)
    assert relabelled.models == altered.models
    assert relabelled.relations == altered.relations
    # The historical models a later operation of the same run is handed carry the new labels.
    for model, field_name, field in operation.fields:
        assert relabelled.apps.get_model("tables", model)._meta.get_field(field_name).verbose_name == field.verbose_name


@pytest.mark.parametrize("name", RELABELLING)
def test_relabelling_changes_labels_and_nothing_the_database_holds(name: str) -> None:
    loader = MigrationLoader(None)  # the migration files alone: no database
    operation = relabelling(loader, name)
    before = loader.project_state(("tables", name), at_end=False)
    for model, field_name, field in operation.fields:
        assert label_only(before.models["tables", model].fields[field_name], field), (model, field_name)


def test_a_change_beyond_the_label_is_not_a_relabelling() -> None:
    assert label_only(CharField(max_length=20), CharField(max_length=20, verbose_name="name"))
    assert not label_only(CharField(max_length=20), CharField(max_length=30, verbose_name="name"))
    assert not label_only(CharField(max_length=20), CharField(max_length=20, null=True))


@pytest.mark.django_db
def test_the_migrations_match_the_models() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)  # exits 1 on a change
    assert "No changes detected" in out.getvalue()
