"""`manage.py backup` and `restore` of the site's database, whichever the run uses (SQLite, or PostgreSQL when
DATABASE_URL says so; restores then go into a database of a role that is no superuser, see site_databases.py): a
backup taken while members play restores into an empty database whose books check clean and hold every entry
committed before the backup began; a damaged file, a non-empty database and a backup from newer code are refused;
only the newest N backups are kept, and only once the new one has been read back; the manifest carries the file's
checksum and the code's release."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import User
from tables.models import LedgerEntry, Round, Table
from tables.play.services import play
from tables.treasury.services import backups
from tables.treasury.services.backups import BackupError, code_migrations, restore_backup, take_backup
from tests.tables.helpers import current_round, full_table, play_one
from tests.tables.treasury.site_databases import empty_site_database
from tests.tables.treasury.small_club import small_club

pytestmark = pytest.mark.django_db(transaction=True)


class Player(threading.Thread):
    """Members making moves through the play services, one committed move after another, until told to stop."""

    def __init__(self, table: Table, members: list[User]) -> None:
        super().__init__(daemon=True)
        self.table, self.members = table, members
        self.by_seat = {position: member for position, member in enumerate(members)}
        self.moves = 0
        self.rounds_over = 0
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        self.moved = threading.Condition()

    def run(self) -> None:
        rng = random.Random(20)
        try:
            while not self.stop.is_set():
                self.table.refresh_from_db()
                if self.table.status != Table.Status.RUNNING:
                    break
                if current_round(self.table).over:
                    with self.moved:
                        self.rounds_over += 1
                    for member in self.members:
                        self.table.refresh_from_db()
                        play.ready_for_next_round(table_id=self.table.pk, user=member,
                                                  expected_version=self.table.version)
                    continue
                if play_one(self.table, self.by_seat, rng):
                    with self.moved:
                        self.moves += 1
                        self.moved.notify_all()
        except BaseException as error:  # reported by the test
            self.errors.append(error)
        finally:
            connection.close()
            with self.moved:
                self.moved.notify_all()

    def wait_for(self, *, moves: int = 0, rounds: int = 0) -> None:
        def reached() -> bool:
            return self.moves >= moves and self.rounds_over >= rounds

        with self.moved:
            self.moved.wait_for(lambda: reached() or not self.is_alive() or bool(self.errors), timeout=120)
        assert not self.errors, self.errors
        assert reached(), "the members stopped playing"


def test_a_backup_taken_while_members_play_restores_to_clean_books(make_member, tmp_path) -> None:
    small_club(make_member)
    players = [make_member(name) for name in ("eve", "fay", "gus")]
    table = full_table("sheepshead", players, bots=2)
    player = Player(table, players)
    player.start()
    try:
        player.wait_for(moves=5, rounds=1)  # a round of theirs is in the ledger, and the next one is under way
        committed = set(LedgerEntry.objects.values_list("pk", flat=True))
        finished = set(Round.objects.filter(over=True).values_list("pk", flat=True))
        at_start = player.moves
        done = take_backup(directory=tmp_path / "backups", keep=3)
        player.wait_for(moves=at_start + 10)  # the table went on playing, during and after the backup
    finally:
        player.stop.set()
        player.join(timeout=60)
    assert not player.is_alive() and not player.errors, player.errors
    played_before = LedgerEntry.objects.filter(round__match__table=table, pk__in=committed)
    assert played_before.count() >= 5  # the live table's first round (one entry per seat) was committed before
    with empty_site_database(tmp_path):
        call_command("restore", str(done.path), "--yes")
        call_command("check_books")  # raises on any difference
        restored = set(LedgerEntry.objects.values_list("pk", flat=True))
        assert committed <= restored
        assert finished <= set(Round.objects.filter(over=True).values_list("pk", flat=True))
        assert User.objects.filter(username="eve").exists()


def test_the_manifest_carries_the_checksum_the_release_and_the_migrations(make_member, tmp_path) -> None:
    make_member("ann")
    done = take_backup(directory=tmp_path, keep=2)
    manifest = json.loads((tmp_path / f"{done.path.name}.json").read_text())
    assert manifest == done.manifest
    assert manifest["file"] == done.path.name and manifest["vendor"] == connection.vendor
    assert done.path.suffix == backups.SUFFIXES[connection.vendor]
    assert manifest["size"] == done.path.stat().st_size
    assert manifest["sha256"] == hashlib.sha256(done.path.read_bytes()).hexdigest()
    described = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=settings.BASE_DIR,
                               capture_output=True, text=True, check=True).stdout.strip()
    assert manifest["release"] == described
    latest_tables = max(name for app, name in code_migrations() if app == "tables")
    assert manifest["migrations"]["tables"] == latest_tables
    assert manifest["created_at"].endswith("+00:00")
    assert not list(tmp_path.glob("*.partial"))
    assert done.path.stat().st_mode & 0o077 == 0  # members' emails and password hashes: the owner's eyes only
    assert (tmp_path / f"{done.path.name}.json").stat().st_mode & 0o077 == 0


def test_without_git_the_release_is_the_project_version(monkeypatch) -> None:
    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(backups.subprocess, "run", no_git)
    assert backups.release() == "0.1.0"


def test_only_the_newest_backups_are_kept_and_only_after_the_new_one_checks_out(make_member, tmp_path,
                                                                                monkeypatch) -> None:
    make_member("ann")
    made = [take_backup(directory=tmp_path, keep=2).path for _ in range(3)]
    assert backups.backups_in(tmp_path) == [made[2], made[1]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [made[1].name, f"{made[1].name}.json", made[2].name, f"{made[2].name}.json"])

    def damaged(path: Path) -> None:
        raise BackupError(f"{path.name} cannot be read back")

    monkeypatch.setattr(backups, "_sqlite_integrity", damaged)  # the read-back check of either vendor's copy
    monkeypatch.setattr(backups, "_pg_archive_readable", damaged)
    with pytest.raises(CommandError, match="cannot be read back"):
        call_command("backup", "--dir", str(tmp_path), "--keep", "1")
    assert backups.backups_in(tmp_path) == [made[2], made[1]]  # nothing pruned, nothing half-written left
    assert len(list(tmp_path.iterdir())) == 4


def test_the_backup_command_reports_and_prunes(make_member, tmp_path, capsys) -> None:
    make_member("ann")
    call_command("backup", "--dir", str(tmp_path), "--keep", "1")
    call_command("backup", "--dir", str(tmp_path), "--keep", "1")
    out = capsys.readouterr().out
    assert "sha256: " in out and "release: " in out and "deleted older backup: cardclub-" in out
    assert len(backups.backups_in(tmp_path)) == 1
    with pytest.raises(CommandError, match="at least one"):
        call_command("backup", "--dir", str(tmp_path), "--keep", "0")


def test_a_damaged_backup_is_refused_and_nothing_is_restored(make_member, tmp_path) -> None:
    make_member("ann")
    done = take_backup(directory=tmp_path / "b", keep=2)
    data = bytearray(done.path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    done.path.write_bytes(bytes(data))
    with empty_site_database(tmp_path) as site:
        with pytest.raises(CommandError, match="is damaged: its SHA-256 is"):
            call_command("restore", str(done.path), "--yes")
        assert site.untouched()
        done.path.with_name(done.path.name + ".json").unlink()
        with pytest.raises(CommandError, match="has no manifest"):
            call_command("restore", str(done.path), "--yes")
        assert site.untouched()


def test_a_restore_into_a_database_with_rows_is_refused(make_member, tmp_path) -> None:
    make_member("ann")
    done = take_backup(directory=tmp_path, keep=2)
    with empty_site_database(tmp_path):
        call_command("restore", str(done.path), "--yes")
        make_member("bob")  # the restored site goes on: a second restore would lose bob
        with pytest.raises(CommandError, match=(
                r"is not empty, so nothing was restored: .*accounts_user \(2 rows\)")):
            call_command("restore", str(done.path), "--yes")
        assert sorted(User.objects.values_list("username", flat=True)) == ["ann", "bob"]


def test_a_backup_from_newer_code_is_refused(tmp_path) -> None:
    done = take_backup(directory=tmp_path, keep=2)
    beside = done.path.with_name(done.path.name + ".json")
    manifest = json.loads(beside.read_text())
    manifest["migrations"]["tables"] = "9999_from_the_future"
    beside.write_text(json.dumps(backups.sign_manifest(manifest)))  # as a newer release of this site signs it
    with empty_site_database(tmp_path), pytest.raises(BackupError, match=r"newer code.*9999_from_the"):
        restore_backup(path=done.path)


def test_a_restore_asks_first_and_no_answer_restores_nothing(make_member, tmp_path, monkeypatch) -> None:
    make_member("ann")
    done = take_backup(directory=tmp_path, keep=2)
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with empty_site_database(tmp_path) as site:
        with pytest.raises(CommandError, match="Nothing was restored"):
            call_command("restore", str(done.path))
        assert site.untouched()


def manage(*args: str, database: Path) -> str:
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{database}", "HOME": str(database.parent)}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_older_backup_is_migrated_after_it_is_restored(tmp_path) -> None:
    """A database one migration behind the code, backed up and restored: `restore` applies what it lacks.

    The old database is migrated forward to 0014 only, as that release made it: migrating the newest schema back
    to 0014 would go through 0038's rebuild of the ledger's table on SQLite (a CHECK constraint changed), whose
    columns then stand in the migration state's order, not in the order 0003 created them."""
    old = tmp_path / "old.sqlite3"
    manage("migrate", "tables", "0014", "-v0", database=old)
    manage("backup", "--dir", str(tmp_path / "b"), database=old)
    [path] = backups.backups_in(tmp_path / "b")
    assert json.loads(path.with_name(path.name + ".json").read_text())["migrations"]["tables"].startswith("0014_")
    out = manage("restore", str(path), "--yes", database=tmp_path / "new.sqlite3")
    migrated = next(line for line in out.splitlines() if "migrated: " in line)
    assert "tables.0015_treasurer" in migrated and "tables.0038_tournament_money" in migrated  # (and the other apps)
    assert "Restored" in out
