"""A SQLite database of a test's own as the site's database, whatever database the run uses.

The default tier runs on SQLite and, with DATABASE_URL set, on PostgreSQL. Tests about SQLite itself (the writer
queue of config/sqlite, SQLite backups, the modes of SQLite's files) must prove the same thing in both runs, so
they do not use the run's database: for a while the `default` connection is a SQLite file of their own, opened
as the site opens SQLite (config.sqlite with its OPTIONS), in this thread and in every thread that connects
meanwhile (each thread makes its connection from the settings swapped here)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connections

from config import sqlite as sqlite_backend


def sqlite_settings(path: Path) -> dict:
    """The settings of the `default` database were it the SQLite file at `path`."""
    return connections.configure_settings({"default": {
        "ENGINE": "config.sqlite", "NAME": str(path), "OPTIONS": dict(sqlite_backend.OPTIONS), "CONN_MAX_AGE": 0,
    }})["default"]


def _forget_default() -> None:
    """This thread's `default` connection closed and dropped: the next use makes one from the settings."""
    connections["default"].close()
    del connections["default"]


@contextmanager
def sqlite_database(path: Path) -> Iterator[None]:
    """The site's database is the SQLite file at `path` for a while (made when first connected to, if need be)."""
    before = connections.settings["default"]  # the same dict as settings.DATABASES["default"]
    _forget_default()
    connections.settings["default"] = sqlite_settings(path)
    try:
        yield
    finally:
        _forget_default()
        connections.settings["default"] = before


def migrate_sqlite(path: Path) -> None:
    """A SQLite database at `path` migrated to the code's newest schema, by `manage.py migrate` in a child process:
    the data migrations write through the default database, so this process's connections stay out of it."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(path.parent), "DATABASE_URL": f"sqlite:///{path}"}
    done = subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=settings.BASE_DIR, env=environment,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


def copy_database(source: Path, target: Path) -> Path:
    """A copy of the SQLite database `source` (what its WAL holds included) at `target`, the owner's alone as the
    site keeps its database."""
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
    return target
