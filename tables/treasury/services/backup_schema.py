"""What a SQLite backup's schema must be before it is restored: exactly what the code's migrations make.

A checksum and a signature say a file is the one the site wrote; they say nothing about a file someone trusted by
hand (`restore --trust-unsigned`) or one written by whoever held the key. A database file carries code of its own:
a trigger runs on the site's next write (one added to a copied backup made a member superuser), so every object
in the file is compared with the objects a database migrated to the same migrations has. The expected database is
made for real, by migrating an empty scratch file in a child process: the data migrations of this project write
through the default database, so running them in the restoring process would touch the database being restored.

Objects are compared by the structure SQLite itself reports (columns with their types, defaults, keys and
generated columns, foreign keys, indexes with their columns, order and collation), not by the text of their
CREATE statements, whose wording changes between Django releases for the same table: a database migrated over
years holds text from several releases. Triggers and views, the objects that run or hide SQL, are compared by
their text (whitespace aside), and the code makes none. CHECK constraints are not compared: they can refuse
writes, never make one.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

# SQLite's own statistics (ANALYZE, PRAGMA optimize) may be in a live database and in its copies; SQLite reserves
# the sqlite_ prefix, so no migration makes them and nothing but the query planner reads them.
SQLITE_STATISTICS = {"sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"}
MIGRATE_TIMEOUT = 600  # seconds: migrating an empty database takes a few

Schema = dict[tuple[str, str], dict[str, Any]]


class SchemaError(Exception):
    """The schema the code makes could not be computed (the child process failed)."""


def _open_read_only(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=20)
    connection.execute("PRAGMA trusted_schema = OFF")  # nothing in the file runs while it is read
    return connection


def _words(sql: str | None) -> str:
    return re.sub(r"\s+", " ", sql or "").strip()


def _rows(connection: sqlite3.Connection, pragma: str, name: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in connection.execute(f"SELECT * FROM pragma_{pragma}(?)", (name,)).fetchall()]


def _table(connection: sqlite3.Connection, name: str, on: str) -> dict[str, Any]:
    # table_xinfo: (cid, name, type, notnull, dflt_value, pk, hidden); compared by name, whatever the order.
    columns = sorted((row[1], str(row[2]).upper(), row[3], row[4], row[5], row[6])
                     for row in _rows(connection, "table_xinfo", name))
    # foreign_key_list: (id, seq, table, from, to, on_update, on_delete, match)
    keys = sorted(row[2:] for row in _rows(connection, "foreign_key_list", name))
    kind = connection.execute(
        "SELECT type, wr, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?", (name,)).fetchone()
    return {"on": on, "columns": columns, "foreign_keys": keys, "kind": tuple(kind) if kind else None}


def _index(connection: sqlite3.Connection, name: str, on: str, sql: str | None) -> dict[str, Any]:
    listed = {row[1]: row for row in _rows(connection, "index_list", on)}.get(name)
    unique, origin, partial = (listed[2], listed[3], listed[4]) if listed else (None, None, None)
    return {
        "on": on, "unique": unique, "origin": origin, "partial": partial,
        # index_xinfo: (seqno, cid, name, desc, coll, key)
        "columns": _rows(connection, "index_xinfo", name),
        # A partial index's WHERE decides which rows it keeps unique: only its text says so.
        "where": _words(sql) if partial else None,
    }


def sqlite_schema(path: Path) -> Schema:
    """Every object of the SQLite file at `path`, keyed by (type, name), with the structure SQLite reports."""
    connection = _open_read_only(path)
    try:
        objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        schema: Schema = {}
        for kind, name, on, sql in objects:
            if kind == "table" and name in SQLITE_STATISTICS:
                continue
            if kind == "table":
                schema[(kind, name)] = _table(connection, name, on)
            elif kind == "index":
                schema[(kind, name)] = _index(connection, name, on, sql)
            else:  # trigger, view: what they do is their text
                schema[(kind, name)] = {"on": on, "sql": _words(sql)}
    finally:
        connection.close()
    return schema


def applied_migrations(path: Path) -> set[tuple[str, str]]:
    """The migrations the SQLite file at `path` records as applied (none if it has no record)."""
    connection = _open_read_only(path)
    try:
        rows = connection.execute("SELECT app, name FROM django_migrations").fetchall()
    except sqlite3.DatabaseError:
        rows = []
    finally:
        connection.close()
    return {(str(app), str(name)) for app, name in rows}


def differences(found: Schema, expected: Schema) -> list[str]:
    """What `found` has that `expected` does not, lacks, or has otherwise, one line each."""
    lines = []
    for kind, name in sorted(found.keys() - expected.keys()):
        lines.append(f"{kind} {name} (on {found[(kind, name)]['on']}) is not made by the code")
    for kind, name in sorted(expected.keys() - found.keys()):
        lines.append(f"{kind} {name} is missing")
    for key in sorted(found.keys() & expected.keys()):
        if found[key] != expected[key]:
            changed = sorted(part for part in found[key].keys() | expected[key].keys()
                             if found[key].get(part) != expected[key].get(part))
            lines.append(f"{key[0]} {key[1]} differs from the code's ({', '.join(changed)})")
    return lines


@functools.lru_cache(maxsize=8)
def _expected(targets: tuple[tuple[str, str], ...]) -> tuple[Schema, frozenset[tuple[str, str]]]:
    with tempfile.TemporaryDirectory(prefix="cardclub-schema-") as scratch:
        database = Path(scratch) / "expected.sqlite3"
        # The child runs this site's settings (under override_settings SETTINGS_MODULE reads None) on the scratch file.
        module = settings.SETTINGS_MODULE or os.environ.get("DJANGO_SETTINGS_MODULE") or "config.settings"
        environment = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_SETTINGS_MODULE": module}
        try:
            done = subprocess.run(
                [sys.executable, "-m", __name__, json.dumps(targets)], cwd=settings.BASE_DIR, env=environment,
                capture_output=True, text=True, timeout=MIGRATE_TIMEOUT, check=False,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise SchemaError(f"migrating a scratch database failed: {error}") from None
        if done.returncode != 0:
            raise SchemaError(f"migrating a scratch database failed: {done.stderr.strip()[-2000:]}")
        return sqlite_schema(database), frozenset(applied_migrations(database))


def expected_sqlite_schema(*, migrations: dict[str, str]) -> tuple[Schema, set[tuple[str, str]]]:
    """The schema, and the applied migrations, of an empty SQLite database migrated to `migrations` (the latest
    migration per app). Cached per process: the code's migrations do not change while it runs."""
    schema, applied = _expected(tuple(sorted(migrations.items())))
    return schema, set(applied)


def _migrate_here(targets: list[tuple[str, str]]) -> None:
    """The child process: migrate this process's (scratch) default database to exactly `targets`."""
    import django

    django.setup()
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([tuple(target) for target in targets])
    connection.close()


if __name__ == "__main__":
    _migrate_here(json.loads(sys.argv[1]))
