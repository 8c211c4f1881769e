"""Members' emails and password hashes are the owner's alone: in a backup while it is written and after, in its
directory even when that existed with a looser mode, and in the site's own SQLite database and its WAL files.

Reported: into an existing 0755 directory the `.partial`, `-wal` and `-shm` files were 0644 during the copy, and
`make run`'s db.sqlite3 and its WAL were 0644.

The SQLite tests make the site's database a SQLite file of their own (the `sqlite_site` fixture,
tests/sqlite_databases.py), so they prove the same in the PostgreSQL run of the tier.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from accounts.models import User
from tables.treasury.services import backups
from tables.treasury.services.backups import take_backup
from tests.sqlite_databases import sqlite_database


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class Watch:
    """The mode of every file in `directory`, each time SQLite is asked to do anything with a file there: while
    the copy is made (after each step, before and after each statement, before closing), not only at the end."""

    def __init__(self, directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.directory = directory
        self.seen: dict[str, set[int]] = {}
        watch = self

        class Watched(sqlite3.Connection):
            def execute(self, *args, **kwargs):  # type: ignore[no-untyped-def]
                watch.look()
                try:
                    return super().execute(*args, **kwargs)
                finally:
                    watch.look()

            def backup(self, *args, **kwargs):  # type: ignore[no-untyped-def]
                def progress(status: int, remaining: int, total: int) -> None:
                    watch.look()  # mid-copy: the pages are in, the copy's transaction not yet ended

                try:
                    return super().backup(*args, **{**kwargs, "progress": progress})
                finally:
                    watch.look()

            def close(self) -> None:
                watch.look()
                super().close()

        real = sqlite3.connect

        def connect(database, *args, **kwargs):  # type: ignore[no-untyped-def]
            if str(directory) in str(database):
                kwargs["factory"] = Watched
            made = real(database, *args, **kwargs)
            self.look()
            return made

        monkeypatch.setattr(backups.sqlite3, "connect", connect)

    def look(self) -> None:
        if self.directory.is_dir():
            for entry in os.scandir(self.directory):
                self.seen.setdefault(entry.name, set()).add(stat.S_IMODE(entry.stat().st_mode))


@pytest.fixture
def database_access(django_db_blocker: Any) -> Iterator[None]:
    """For the tests that open a SQLite database of their own and leave the run's database alone."""
    with django_db_blocker.unblock():
        yield


def test_every_file_a_backup_writes_is_private_while_it_is_written_and_after(sqlite_site, tmp_path,
                                                                             monkeypatch) -> None:
    User.objects.create_user(username="ann", email="ann@example.org")
    directory = tmp_path / "backups"
    directory.mkdir()
    os.chmod(directory, 0o755)  # the reported case: a directory that already existed, readable by all
    watch = Watch(directory, monkeypatch)
    umask = os.umask(0o022)
    os.umask(umask)
    done = take_backup(directory=directory, keep=2)
    watch.look()
    assert mode(directory) == 0o700
    partial = f"{done.path.name}.partial"
    assert partial in watch.seen and f"{partial}-journal" in watch.seen  # it did look while the copy was made
    assert {done.path.name, done.manifest_path.name} <= watch.seen.keys()
    loose = {name: sorted(oct(m) for m in modes) for name, modes in watch.seen.items() if modes != {0o600}}
    assert not loose, loose
    assert sorted(p.name for p in directory.iterdir()) == sorted([done.path.name, done.manifest_path.name])
    assert (os.umask(umask), os.umask(umask)) == (umask, umask)  # the process's umask is back as it was


@pytest.mark.django_db(transaction=True)
def test_a_new_backup_directory_and_its_new_parents_are_private(make_member, tmp_path) -> None:
    """Whichever database the run uses."""
    make_member("ann")
    call_command("backup", "--dir", str(tmp_path / "var" / "backups"), "--keep", "1")
    assert mode(tmp_path / "var" / "backups") == 0o700 and mode(tmp_path / "var") == 0o700


def test_a_restored_sqlite_database_is_private(sqlite_site, tmp_path) -> None:
    User.objects.create_user(username="ann", email="ann@example.org")
    done = take_backup(directory=tmp_path / "backups", keep=2)
    target = tmp_path / "restored.sqlite3"
    with sqlite_database(target):
        call_command("restore", str(done.path), "--yes")
        files = [p for p in tmp_path.iterdir() if p.name.startswith("restored.sqlite3")]
        assert files and {p.name: mode(p) for p in files} == {p.name: 0o600 for p in files}


def test_the_sites_sqlite_database_and_its_wal_files_are_private(database_access, tmp_path) -> None:
    new = tmp_path / "db.sqlite3"
    with sqlite_database(new), connection.cursor() as cursor:  # the site's own connection makes the file
        cursor.execute("CREATE TABLE t (x INTEGER)")
        cursor.execute("INSERT INTO t VALUES (1)")
        made = {p.name: mode(p) for p in tmp_path.iterdir()}
    assert {"db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm"} <= made.keys()
    assert made == {name: 0o600 for name in made}


def test_an_older_runs_readable_database_and_wal_are_made_private(database_access, tmp_path) -> None:
    old = tmp_path / "db.sqlite3"
    writer = sqlite3.connect(old)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (x INTEGER)")
    writer.execute("INSERT INTO t VALUES (1)")
    writer.commit()  # still open: its -wal and -shm stay beside the database
    for path in tmp_path.iterdir():
        os.chmod(path, 0o644)
    try:
        with sqlite_database(old), connection.cursor() as cursor:
            cursor.execute("SELECT x FROM t")
            assert cursor.fetchall() == [(1,)]
        files = {p.name: mode(p) for p in tmp_path.iterdir()}
    finally:
        writer.close()
    assert {"db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm"} <= files.keys()
    assert files == {name: 0o600 for name in files}
