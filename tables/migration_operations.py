"""A migration operation for changes to fields' labels only, as one step instead of one `AlterField` each.

Why: the German field labels (migrations 0028 and 0031) changed the `verbose_name` of 228 fields, one
`AlterField` each. A label is not in the database, so none of them does anything there, but Django re-renders the
historical models of the field's model and of every model related to it after each one (`ProjectState.alter_field`
reloads the model): over a thousand renders of the club's models each time a database is migrated through them
(70 % of a data-migration test's time, measured with cProfile: 127 s of 180 s in test_migration_0023 on a loaded
machine; every test database and every e2e server migrates through them too). `RelabelFields` gives every field its
new label, then reloads the models it touched once.

It restates the part of `ProjectState.alter_field` that matters for a field that keeps its type, column and
relation (pinned Django; tests/test_upstream_pins.py fails when that code changes). tests/test_migration_labels.py
checks that the state it leaves is the one the `AlterField`s left, and that each change really is a label
(`verbose_name` or `help_text` alone).
"""

from __future__ import annotations

from typing import Any

from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.db.models import Field


class RelabelFields(Operation):
    """`fields`: (model name, field name, the field with its new label), for the fields of the migration's app. Only
    for fields that differ from what they replace in `verbose_name` or `help_text` alone (checked by the tests)."""

    reversible = True
    reduces_to_sql = False

    def __init__(self, fields: list[tuple[str, str, Field]]) -> None:
        self.fields = [(model.lower(), name, field) for model, name, field in fields]
        super().__init__()

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return self.__class__.__qualname__, [self.fields], {}

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        for model, name, field in self.fields:
            state.models[app_label, model].fields[name] = field
        # The relations known to the state name the old field objects: recomputed from the fields when next asked.
        state._relations = None
        state.reload_models({(app_label, model) for model, _name, _field in self.fields}, delay=True)

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: ProjectState,
                          to_state: ProjectState) -> None:
        """A label is not in the database."""

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: ProjectState,
                           to_state: ProjectState) -> None:
        """A label is not in the database."""

    def describe(self) -> str:
        return f"Relabel {len(self.fields)} fields"

