"""What the treasury's tests share: a small club by name, and a SQLite database of a test's own as the site's (for
the tests of SQLite backups, in either run of the tier); the treasurer and their client are in
tests/tables/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sqlite_databases import copy_database, migrate_sqlite, sqlite_database


@pytest.fixture
def club(make_member, request):
    """Members by username (each test module's NAMES), shown by their names in title case."""
    return {name: make_member(name, display_name=name.title()) for name in request.module.NAMES}


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated to the code's newest schema, once per process: each test copies it."""
    path = tmp_path_factory.mktemp("sqlite-site") / "migrated.sqlite3"
    migrate_sqlite(path)
    return path


@pytest.fixture
def sqlite_site(migrated_sqlite: Path, tmp_path: Path, django_db_blocker: Any) -> Iterator[Path]:
    """The site's database is a migrated SQLite file of the test's own (site.sqlite3 in tmp_path), whatever
    database the run uses: a test about SQLite backups proves the same thing in both runs of the tier. Such a test
    has no django_db mark: the run's own database is not touched."""
    path = copy_database(migrated_sqlite, tmp_path / "site.sqlite3")
    with django_db_blocker.unblock(), sqlite_database(path):
        yield path
