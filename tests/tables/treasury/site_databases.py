"""Databases for the backup tests to restore into, of the vendor the run uses (the default tier runs on SQLite and,
with DATABASE_URL set, on PostgreSQL): a restore is only ever made into a new, empty database, and on PostgreSQL
as the site's own role, never a superuser (deploy/README.md, Restoring a backup)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from django.db import connections
from psycopg import sql

from tests.sqlite_databases import sqlite_database


def _admin_settings() -> dict[str, Any]:
    """How to reach the server as the run's own role (a superuser in the test setup): the run's database's."""
    database = connections["default"].settings_dict
    return {"host": database["HOST"] or None, "port": database["PORT"] or None, "user": database["USER"] or None,
            "password": database["PASSWORD"] or None}


def tables_in(name: str) -> list[str]:
    with psycopg.connect(**_admin_settings(), dbname=name) as connection:
        return [row[0] for row in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]


@contextmanager
def database_named(name: str, *, user: str | None = None) -> Iterator[None]:
    """The site's PostgreSQL database is another one for a while (its connection pool too), reached as `user` if
    given: where `restore` and `check_books` go."""
    default = connections["default"]
    before = default.settings_dict["NAME"], default.settings_dict["USER"]
    default.close()
    default.close_pool()
    default.settings_dict["NAME"] = name
    if user is not None:
        default.settings_dict["USER"] = user
    try:
        yield
    finally:
        default.close()
        default.close_pool()
        default.settings_dict["NAME"], default.settings_dict["USER"] = before


@contextmanager
def pg_site_database() -> Iterator[tuple[str, str]]:
    """A new, empty PostgreSQL database owned by a role of its own that is no superuser, as the site's is in
    production: (database, role). Both are dropped after."""
    name = role = f"test_restore_{os.getpid()}"
    admin = psycopg.connect(**_admin_settings(), dbname="postgres", autocommit=True)
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
    admin.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(sql.Identifier(role)))
    admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(role)))
    try:
        yield name, role
    finally:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        admin.close()


@dataclass(frozen=True)
class EmptyDatabase:
    vendor: str
    name: str

    def untouched(self) -> bool:
        """Nothing was written into it: no SQLite file was made, no PostgreSQL table."""
        if self.vendor == "sqlite":
            return not Path(self.name).exists()
        return tables_in(self.name) == []


@contextmanager
def empty_site_database(tmp_path: Path) -> Iterator[EmptyDatabase]:
    """A new, empty database is the site's for a while, of the run's vendor: a SQLite file not yet made in
    `tmp_path`, or a PostgreSQL database owned by a role of its own that is no superuser, reached as that role."""
    if connections["default"].vendor == "sqlite":
        path = tmp_path / "empty.sqlite3"
        with sqlite_database(path):
            yield EmptyDatabase("sqlite", str(path))
        return
    with pg_site_database() as (name, role), database_named(name, user=role):
        yield EmptyDatabase("postgresql", name)
