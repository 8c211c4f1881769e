"""`manage.py backup` and `restore` on PostgreSQL (pg_dump --format=custom, pg_restore): the club's books copied
from the test database and restored into a second, freshly created database hold the same rows; a second restore
into it is refused because it is no longer empty. Run with the services tier (DATABASE_URL on PostgreSQL)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from psycopg import sql

from accounts.models import User
from tables.models import InPersonRecord, LedgerEntry, Round
from tables.treasury.services import backups
from tables.treasury.services.backups import take_backup
from tests.tables.treasury.small_club import small_club

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def rows() -> dict[str, list[tuple]]:
    return {
        "users": sorted(User.objects.values_list("pk", "username")),
        "entries": sorted(LedgerEntry.objects.values_list("pk", "kind", "amount", "round", "in_person")),
        "rounds": sorted(Round.objects.values_list("pk", "seed", "over")),
        "records": sorted(InPersonRecord.objects.values_list("pk", "summary")),
    }


@contextmanager
def database_named(name: str) -> Iterator[None]:
    """The site's database is another one for a while (its connection pool too): where `restore` and
    `check_books` go."""
    default = connections["default"]
    before = default.settings_dict["NAME"]
    default.close()
    default.close_pool()
    default.settings_dict["NAME"] = name
    try:
        yield
    finally:
        default.close()
        default.close_pool()
        default.settings_dict["NAME"] = before


def test_a_pg_dump_backup_restores_into_a_second_database(make_member, tmp_path) -> None:
    assert connection.vendor == "postgresql", "run this file with DATABASE_URL on PostgreSQL (-m services)"
    small_club(make_member)
    client, server = backups.pg_versions(connection.settings_dict)
    assert client >= server  # pg_dump refuses a server newer than itself
    done = take_backup(directory=tmp_path, keep=2)
    assert done.path.suffix == ".pgdump" and done.manifest["vendor"] == "postgresql"
    assert done.manifest["pg_dump_major"] == client and done.manifest["server_major"] == server
    assert done.manifest["migrations"]["tables"] == max(n for a, n in backups.code_migrations() if a == "tables")
    source = rows()
    assert len(source["entries"]) > 10

    scratch = f"test_restore_{os.getpid()}"
    admin = psycopg.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres", autocommit=True)
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(scratch)))
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(scratch)))
    try:
        with database_named(scratch):
            call_command("restore", str(done.path), "--yes")
            assert rows() == source
            call_command("check_books")  # raises on any difference
            with pytest.raises(CommandError, match="is not empty, so nothing was restored"):
                call_command("restore", str(done.path), "--yes")
    finally:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(scratch)))
        admin.close()
