"""A backup file is code the site will run: a crafted one is refused and changes nothing.

Reported: a copied SQLite backup with a trigger added and its manifest recomputed was restored, and the trigger
then made a member superuser. Now the manifest must be signed by this site (or the operator says they trust the
file), and either way the file may hold only the triggers, views, tables and indexes the code's migrations make.

The crafted files are SQLite files: those tests make the site's database a SQLite file of their own (the
`sqlite_site` fixture), so they prove the same in the PostgreSQL run of the tier (test_backup_postgres.py crafts a
PostgreSQL archive). Signing is the same for both vendors: those tests back up the run's own database.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.models import User
from tables.treasury.services import backups
from tables.treasury.services.backups import BackupResult, take_backup
from tests.conftest import PASSWORD
from tests.sqlite_databases import sqlite_database
from tests.tables.treasury.site_databases import empty_site_database

# The reported attack: the next time the site updates any member, mallory becomes a superuser.
PROMOTE = """CREATE TRIGGER promote AFTER UPDATE ON accounts_user BEGIN
    UPDATE accounts_user SET is_superuser = 1, is_staff = 1 WHERE username = 'mallory'; END;"""


def craft(done: BackupResult, *, sql: str, key: str | None) -> None:
    """`sql` run in the backup file, its manifest's size and checksum recomputed, and the manifest signed with the
    SECRET_KEY `key` (None: left unsigned), as whoever copied the file would."""
    connection = sqlite3.connect(done.path)
    connection.executescript(sql)
    connection.close()
    manifest = json.loads(done.manifest_path.read_text())
    manifest.pop("signature", None)
    manifest["size"] = done.path.stat().st_size
    manifest["sha256"] = hashlib.sha256(done.path.read_bytes()).hexdigest()
    if key is not None:
        with override_settings(SECRET_KEY=key):
            manifest = backups.sign_manifest(manifest)
    done.manifest_path.write_text(json.dumps(manifest))


def restored_nothing(target: Path) -> None:
    assert not target.exists()
    assert not User.objects.get(username="mallory").is_superuser


@pytest.fixture
def sqlite_backup(sqlite_site, tmp_path) -> BackupResult:
    """A backup of the site's SQLite database (mallory and ann its members), ready to be crafted."""
    for name in ("mallory", "ann"):
        User.objects.create_user(username=name, email=f"{name}@example.org", password=PASSWORD)
    done = take_backup(directory=tmp_path / "backups", keep=3)
    assert done.manifest["vendor"] == "sqlite"
    return done


@pytest.fixture
def backup(make_member, tmp_path) -> BackupResult:
    """A backup of the run's own database, SQLite or PostgreSQL."""
    make_member("mallory")
    make_member("ann")
    return take_backup(directory=tmp_path / "backups", keep=3)


@pytest.mark.parametrize("key", [None, "another-site's-key-0123456789-0123456789-0123456789"])
def test_a_crafted_backup_that_this_site_did_not_sign_is_refused(sqlite_backup, tmp_path, key) -> None:
    craft(sqlite_backup, sql=PROMOTE, key=key)
    target = tmp_path / "empty.sqlite3"
    with sqlite_database(target), pytest.raises(CommandError) as refused:
        call_command("restore", str(sqlite_backup.path), "--yes")
    said = str(refused.value)
    assert ("is not signed" if key is None else "has a signature this site did not make") in said
    assert "nothing was restored" in said and "--trust-unsigned" in said
    restored_nothing(target)


def test_a_crafted_backup_the_operator_trusts_is_still_refused_for_its_trigger(sqlite_backup, tmp_path) -> None:
    craft(sqlite_backup, sql=PROMOTE, key=None)
    target = tmp_path / "empty.sqlite3"
    with sqlite_database(target), pytest.raises(CommandError, match=(
            r"holds a schema that the code's migrations do not make, so nothing was restored: "
            r"trigger promote \(on accounts_user\) is not made by the code")):
        call_command("restore", str(sqlite_backup.path), "--yes", "--trust-unsigned")
    restored_nothing(target)


@pytest.mark.parametrize(("sql", "found"), [
    (PROMOTE, "trigger promote (on accounts_user) is not made by the code"),
    ("CREATE VIEW staff AS SELECT username, password FROM accounts_user;", "view staff (on staff) is not made"),
    ("CREATE TABLE notes (body TEXT);", "table notes (on notes) is not made by the code"),
    ("CREATE INDEX by_password ON accounts_user (password);", "index by_password (on accounts_user) is not made"),
    ("ALTER TABLE accounts_user ADD COLUMN note TEXT DEFAULT 'x';", "table accounts_user differs from the code's"),
    # A round paid twice: the one-result-per-seat rule gone, or kept for no row at all.
    ("DROP INDEX one_result_per_seat_per_round;", "index one_result_per_seat_per_round is missing"),
    ("DROP INDEX one_result_per_seat_per_round; CREATE UNIQUE INDEX one_result_per_seat_per_round ON "
     "tables_ledgerentry (round_id, seat) WHERE 0;",
     "index one_result_per_seat_per_round differs from the code's (where)"),
])
def test_a_signed_backup_whose_schema_the_code_does_not_make_is_refused(sqlite_backup, tmp_path, sql,
                                                                       found) -> None:
    """Signed with this site's own key (whoever holds it, or a file changed before it was signed): the schema
    check stands on its own."""
    craft(sqlite_backup, sql=sql, key=settings.SECRET_KEY)
    assert backups.signed_by_this_site(json.loads(sqlite_backup.manifest_path.read_text()))
    target = tmp_path / "empty.sqlite3"
    with sqlite_database(target), pytest.raises(CommandError) as refused:
        call_command("restore", str(sqlite_backup.path), "--yes")
    assert "holds a schema that the code's migrations do not make, so nothing was restored" in str(refused.value)
    assert found in str(refused.value)
    restored_nothing(target)


@pytest.mark.django_db(transaction=True)
def test_a_genuine_backup_is_signed_and_restores(backup, tmp_path, capsys) -> None:
    manifest = json.loads(backup.manifest_path.read_text())
    assert manifest["format"] == 2 and backups.signed_by_this_site(manifest)
    with empty_site_database(tmp_path):
        call_command("restore", str(backup.path), "--yes")
        assert sorted(User.objects.values_list("username", flat=True)) == ["ann", "mallory"]
    assert "checksum good, signed by this site, schema as the code makes it" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_a_key_rotation_keeps_older_backups_restorable(backup, tmp_path) -> None:
    with override_settings(SECRET_KEY="the-new-key-0123456789-0123456789-0123456789-012",
                           SECRET_KEY_FALLBACKS=[settings.SECRET_KEY]), empty_site_database(tmp_path):
        call_command("restore", str(backup.path), "--yes")
        assert User.objects.filter(username="mallory").exists()


@pytest.mark.django_db(transaction=True)
def test_an_unsigned_backup_restores_only_when_the_operator_trusts_it(backup, tmp_path, capsys) -> None:
    """A backup made before manifests were signed (format 1) is not lost: the operator vouches for it."""
    manifest = json.loads(backup.manifest_path.read_text())
    manifest.pop("signature")
    manifest["format"] = 1
    backup.manifest_path.write_text(json.dumps(manifest))
    with empty_site_database(tmp_path) as site:
        with pytest.raises(CommandError, match="is not signed"):
            call_command("restore", str(backup.path), "--yes")
        assert site.untouched()
        call_command("restore", str(backup.path), "--yes", "--trust-unsigned")
        assert User.objects.filter(username="ann").exists()
    assert "NOT signed by this site (trusted)" in capsys.readouterr().out
