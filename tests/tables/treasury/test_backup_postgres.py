"""`manage.py backup` and `restore` on PostgreSQL (pg_dump --format=custom, pg_restore): the club's books copied
from the test database and restored, as the site's own role, into a second, freshly created database it owns hold
the same rows; a second restore into it is refused because it is no longer empty; a restore as a superuser is
refused, and so is an archive holding a trigger or function the code does not make (its manifest signed all the
same), both before anything is written. Run with the services tier (DATABASE_URL on PostgreSQL)."""

from __future__ import annotations

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import User
from tables.models import InPersonRecord, LedgerEntry, Round
from tables.treasury.services import backups
from tables.treasury.services.backups import take_backup
from tests.tables.treasury.site_databases import database_named, pg_site_database, tables_in
from tests.tables.treasury.small_club import small_club

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def rows() -> dict[str, list[tuple]]:
    return {
        "users": sorted(User.objects.values_list("pk", "username")),
        "entries": sorted(LedgerEntry.objects.values_list("pk", "kind", "amount", "round", "in_person")),
        "rounds": sorted(Round.objects.values_list("pk", "seed", "over")),
        "records": sorted(InPersonRecord.objects.values_list("pk", "summary")),
    }


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

    with pg_site_database() as (name, role):
        with database_named(name, user="postgres"), pytest.raises(CommandError, match=(
                "role 'postgres' is a PostgreSQL superuser, so nothing was restored: restore as the site's own role")):
            call_command("restore", str(done.path), "--yes")
        assert tables_in(name) == []
        with database_named(name, user=role):
            call_command("restore", str(done.path), "--yes")
            assert rows() == source
            call_command("check_books")  # raises on any difference
            with pytest.raises(CommandError, match="is not empty, so nothing was restored"):
                call_command("restore", str(done.path), "--yes")


PROMOTE = """
CREATE FUNCTION promote() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE accounts_user SET is_superuser = true WHERE username = 'mallory'; RETURN NEW; END $$;
CREATE TRIGGER promote AFTER UPDATE ON accounts_user FOR EACH STATEMENT EXECUTE FUNCTION promote();
"""


def test_an_archive_with_a_trigger_the_code_does_not_make_is_refused_though_signed(make_member, tmp_path) -> None:
    assert connection.vendor == "postgresql", "run this file with DATABASE_URL on PostgreSQL (-m services)"
    make_member("mallory")
    with connection.cursor() as cursor:
        cursor.execute(PROMOTE)
    try:
        done = take_backup(directory=tmp_path, keep=2)  # signed by this site: only the listing check refuses it
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER promote ON accounts_user; DROP FUNCTION promote();")
    assert backups.signed_by_this_site(done.manifest)
    with pg_site_database() as (name, role), database_named(name, user=role):
        with pytest.raises(CommandError, match=(
                r"holds what the code's migrations do not make, so nothing was restored: "
                r"FUNCTION public promote\(\) is not made by the code; TRIGGER public accounts_user promote")):
            call_command("restore", str(done.path), "--yes")
        assert tables_in(name) == []


def test_after_pg_restore_whatever_the_code_does_not_make_is_named(tmp_path) -> None:
    """An archive's entries are SQL and may hide more than its listing shows: what pg_restore left behind is looked
    for in the catalogue (here written directly, as a hidden statement would)."""
    assert connection.vendor == "postgresql", "run this file with DATABASE_URL on PostgreSQL (-m services)"
    with pg_site_database() as (name, role):
        with psycopg.connect(host="127.0.0.1", port=5432, user=role, dbname=name, autocommit=True) as site:
            site.execute("CREATE TABLE accounts_user (id integer, is_superuser boolean)")
            site.execute("CREATE VIEW secrets AS SELECT id FROM accounts_user")
            site.execute(PROMOTE.replace("FOR EACH STATEMENT", "FOR EACH ROW"))
        database = {**connection.settings_dict, "NAME": name, "USER": role}
        with pytest.raises(backups.BackupError) as found:
            backups._pg_refuse_objects_not_made(database, {"accounts_user", "django_migrations"})
        assert ("function promote(); trigger promote on accounts_user; view secrets. Do not start the site on it"
                in str(found.value))
