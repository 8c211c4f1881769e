"""Moving the test database between migrations, for the tests of data migrations (they share the database
with every other test, so each goes back to the newest schema when it is done)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to `targets` and return the historical apps as they stand there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def latest_schema_after() -> Iterator[None]:
    """The test may move the schema back; afterwards it is every app's newest again."""
    yield
    migrate_to_latest()
