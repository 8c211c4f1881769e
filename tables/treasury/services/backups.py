"""Copies of the whole database that outlive the machine, and bringing one back into an empty database.

A backup is taken while the site runs and must be one moment of the books, never half a round. SQLite: the
online backup API copies every page in one step under one read transaction (WAL lets the server's writers go on
meanwhile), so the copy is the database as it stood when the step began. PostgreSQL: `pg_dump` reads everything
in one repeatable-read transaction. Each copy gets a manifest beside it (`<file>.json`) with its SHA-256, size,
the code's release and the latest migration per app, so a restore can refuse a damaged file and knows whether
the restored database needs migrating. Older copies are deleted only after the new one has been read back and
checked, so a failing backup never costs the good ones.

A restore writes into an empty database only: replacing live books is not something to do by accident.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

PREFIX = "cardclub-"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
MANIFEST_SUFFIX = ".json"
BACKUP_NAME = re.compile(rf"^{PREFIX}\d{{8}}T\d{{12}}Z(\.sqlite3|\.pgdump)$")
# Tables that `migrate` itself fills: a freshly migrated database has rows there and is still empty of books.
FILLED_BY_MIGRATE = {"django_migrations", "django_content_type", "auth_permission", "sqlite_sequence"}
TOOL_TIMEOUT = 3600  # seconds: pg_dump and pg_restore of a club's books take far less


class BackupError(Exception):
    """A backup or restore that cannot be done as asked; what exists is left as it was."""


@dataclass
class BackupResult:
    path: Path
    manifest: dict[str, Any]
    pruned: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def manifest_path(self) -> Path:
        return manifest_path(self.path)


@dataclass
class RestoreResult:
    path: Path
    manifest: dict[str, Any]
    migrated: list[str] = field(default_factory=list)  # migrations applied after the restore ("app.name")
    seconds: float = 0.0


def manifest_path(path: Path) -> Path:
    return path.with_name(path.name + MANIFEST_SUFFIX)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def release() -> str:
    """The code's release: `git describe --always --dirty` in a checkout, else the project's version."""
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=settings.BASE_DIR, capture_output=True, text=True,
            timeout=10, check=False,
        )
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        with open(Path(settings.BASE_DIR) / "pyproject.toml", "rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def vendor_of(database: dict[str, Any]) -> str:
    engine = str(database.get("ENGINE", ""))
    if "sqlite" in engine:
        return "sqlite"
    if "postgresql" in engine:
        return "postgresql"
    raise BackupError(f"Backups are made for SQLite and PostgreSQL, not for {engine!r}.")


def code_migrations() -> set[tuple[str, str]]:
    """Every migration this code knows (read from disk, no database needed)."""
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def _latest(applied: list[tuple[str, str]]) -> dict[str, str]:
    """The latest applied migration per app (names start with their number, so the greatest is the latest)."""
    latest: dict[str, str] = {}
    for app, name in applied:
        if name > latest.get(app, ""):
            latest[app] = name
    return dict(sorted(latest.items()))


# SQLite


def _sqlite_path(database: dict[str, Any]) -> Path:
    name = str(database.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        raise BackupError(f"The SQLite database {name!r} is not a file that can be copied.")
    return Path(name)


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=20)


def _copy_sqlite(source: Path, target: Path) -> None:
    """One step of the online backup API: every page under one read transaction, so one moment of the books."""
    if not source.exists():
        raise BackupError(f"There is no database file at {source}.")
    src = sqlite3.connect(source, timeout=20)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # pages=-1: all of them in one step
            dst.execute("PRAGMA journal_mode=DELETE")  # the copy is one self-contained file, no -wal beside it
        finally:
            dst.close()
    finally:
        src.close()


def _sqlite_integrity(path: Path) -> None:
    connection = _read_only(path)
    try:
        rows = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path.name} is not a readable SQLite database: {error}.") from None
    finally:
        connection.close()
    if rows != ["ok"]:
        raise BackupError(f"{path.name} fails SQLite's integrity check: {'; '.join(rows[:5])}")


def _sqlite_migrations(path: Path) -> dict[str, str]:
    connection = _read_only(path)
    try:
        applied = connection.execute("SELECT app, name FROM django_migrations").fetchall()
    except sqlite3.DatabaseError:
        applied = []
    finally:
        connection.close()
    return _latest([(str(app), str(name)) for app, name in applied])


def _sqlite_tables_with_rows(path: Path) -> dict[str, int]:
    if not path.exists() or path.stat().st_size == 0:
        return {}
    connection = sqlite3.connect(path, timeout=20)
    try:
        names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        counts = {
            name: connection.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]
            for name in names if name not in FILLED_BY_MIGRATE
        }
    finally:
        connection.close()
    return {name: count for name, count in counts.items() if count}


def _restore_sqlite(source: Path, target: Path) -> None:
    src = _read_only(source)
    try:
        dst = sqlite3.connect(target, timeout=20)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


# PostgreSQL


def _pg_args(database: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """Connection arguments for pg_dump and pg_restore (the password only in their environment)."""
    args = []
    if database.get("HOST"):
        args += ["--host", str(database["HOST"])]
    if database.get("PORT"):
        args += ["--port", str(database["PORT"])]
    if database.get("USER"):
        args += ["--username", str(database["USER"])]
    environment = dict(os.environ)
    if database.get("PASSWORD"):
        environment["PGPASSWORD"] = str(database["PASSWORD"])
    return [*args, "--no-password"], environment


def _psycopg(database: dict[str, Any]) -> Any:
    import psycopg

    return psycopg.connect(
        dbname=database["NAME"], user=database.get("USER") or None, password=database.get("PASSWORD") or None,
        host=database.get("HOST") or None, port=database.get("PORT") or None, autocommit=True,
    )


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed on this machine (Debian: apt-get install postgresql-client).")
    return found


def _run(command: list[str], environment: dict[str, str], what: str) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=TOOL_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        raise BackupError(f"{what} took longer than {TOOL_TIMEOUT} seconds and was stopped.") from None
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def pg_versions(database: dict[str, Any]) -> tuple[int, int]:
    """(pg_dump's major version, the server's): pg_dump refuses a server newer than itself."""
    output = _run([_tool("pg_dump"), "--version"], dict(os.environ), "pg_dump --version")
    found = re.search(r"(\d+)(?:\.\d+)?", output)
    client = int(found.group(1)) if found else 0
    with _psycopg(database) as connection:
        server = int(connection.info.server_version) // 10000
    return client, server


def _pg_migrations(database: dict[str, Any]) -> dict[str, str]:
    with _psycopg(database) as connection:
        applied = connection.execute("SELECT app, name FROM django_migrations").fetchall()
    return _latest([(str(app), str(name)) for app, name in applied])


def _pg_tables_with_rows(database: dict[str, Any]) -> dict[str, int]:
    from psycopg import sql

    with _psycopg(database) as connection:
        names = [row[0] for row in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()]
        counts = {
            name: connection.execute(sql.SQL("SELECT COUNT(*) FROM {}").format(sql.Identifier(name))).fetchone()[0]
            for name in names if name not in FILLED_BY_MIGRATE
        }
    return {name: count for name, count in counts.items() if count}


def _dump_postgresql(database: dict[str, Any], target: Path) -> dict[str, Any]:
    client, server = pg_versions(database)
    if client < server:
        raise BackupError(
            f"pg_dump {client} cannot dump a PostgreSQL {server} server: install postgresql-client-{server}."
        )
    args, environment = _pg_args(database)
    _run([_tool("pg_dump"), "--format=custom", "--file", str(target), *args, str(database["NAME"])], environment,
         "pg_dump")
    return {"pg_dump_major": client, "server_major": server}


def _pg_archive_readable(path: Path) -> None:
    _run([_tool("pg_restore"), "--list", str(path)], dict(os.environ), f"Reading {path.name} with pg_restore")


def _restore_postgresql(source: Path, database: dict[str, Any]) -> None:
    args, environment = _pg_args(database)
    # --clean drops only what the archive recreates: on an empty database that is at most migrate's own tables.
    _run([
        _tool("pg_restore"), *args, "--dbname", str(database["NAME"]), "--no-owner", "--no-privileges", "--clean",
        "--if-exists", "--single-transaction", "--exit-on-error", str(source),
    ], environment, "pg_restore")


# Both


def verify_backup(*, path: Path) -> dict[str, Any]:
    """The backup's manifest, once the file is shown to be the one it describes (size, SHA-256) and readable."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    beside = manifest_path(path)
    try:
        manifest = json.loads(beside.read_text())
    except FileNotFoundError:
        raise BackupError(f"{path.name} has no manifest ({beside.name}) to check it against; it is not used.") from None
    except (OSError, ValueError) as error:
        raise BackupError(f"The manifest {beside.name} cannot be read: {error}.") from None
    if not isinstance(manifest, dict) or manifest.get("file") != path.name:
        raise BackupError(f"The manifest {beside.name} does not describe {path.name}.")
    size = path.stat().st_size
    if size != manifest.get("size"):
        raise BackupError(f"{path.name} is {size} bytes but was written as {manifest.get('size')}: it is damaged.")
    checksum = sha256_of(path)
    if checksum != manifest.get("sha256"):
        raise BackupError(
            f"{path.name} is damaged: its SHA-256 is {checksum}, the manifest says {manifest.get('sha256')}."
        )
    if manifest.get("vendor") == "sqlite":
        _sqlite_integrity(path)
    elif manifest.get("vendor") == "postgresql":
        _pg_archive_readable(path)
    else:
        raise BackupError(f"The manifest names no database this code restores ({manifest.get('vendor')!r}).")
    return manifest


def backups_in(directory: Path) -> list[Path]:
    """The backups in `directory` that have a manifest, newest first (their names sort by time)."""
    if not directory.is_dir():
        return []
    found = [p for p in directory.iterdir() if BACKUP_NAME.match(p.name) and manifest_path(p).is_file()]
    return sorted(found, key=lambda p: p.name, reverse=True)


def _prune(directory: Path, keep: int) -> list[Path]:
    removed = []
    for old in backups_in(directory)[keep:]:
        old.unlink(missing_ok=True)
        manifest_path(old).unlink(missing_ok=True)
        removed.append(old)
    return removed


def _write_json(path: Path, data: dict[str, Any]) -> None:
    partial = path.with_name(path.name + ".partial")
    with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    partial.replace(path)


def take_backup(*, directory: Path | None = None, keep: int | None = None, using: str = "default") -> BackupResult:
    """A consistent copy of the whole database and its manifest in `directory`, then only the newest `keep` kept.

    The copy is written under a temporary name, checked, renamed, and read back against its manifest before any
    older backup is deleted; if anything fails, this attempt's files are removed and the older ones stay.
    """
    started = time.monotonic()
    directory = Path(directory if directory is not None else settings.BACKUP_DIR)
    keep = int(keep if keep is not None else settings.BACKUP_KEEP)
    if keep < 1:
        raise BackupError("Keep at least one backup (--keep 1 or more).")
    database = connections[using].settings_dict
    vendor = vendor_of(database)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)  # the copies hold members' emails and password hashes
    created = datetime.now(UTC)
    path = directory / f"{PREFIX}{created:%Y%m%dT%H%M%S%f}Z{SUFFIXES[vendor]}"
    partial = path.with_name(path.name + ".partial")
    extra: dict[str, Any] = {}
    try:
        if vendor == "sqlite":
            _copy_sqlite(_sqlite_path(database), partial)
            _sqlite_integrity(partial)
            migrations = _sqlite_migrations(partial)
        else:
            migrations = _pg_migrations(database)  # before the dump: a migration during a backup is not expected
            extra = _dump_postgresql(database, partial)
        os.chmod(partial, 0o600)
        with open(partial, "rb+") as handle:
            os.fsync(handle.fileno())
        partial.replace(path)
        manifest = {
            "format": 1,
            "created_at": created.isoformat(),
            "vendor": vendor,
            "file": path.name,
            "size": path.stat().st_size,
            "sha256": sha256_of(path),
            "release": release(),
            "migrations": migrations,
            **extra,
        }
        _write_json(manifest_path(path), manifest)
        verify_backup(path=path)  # read back from the disk: the checksum, and the copy opens and checks clean
    except BaseException:
        for leftover in (partial, path, manifest_path(path)):
            leftover.unlink(missing_ok=True)
        raise
    pruned = _prune(directory, keep)
    return BackupResult(path=path, manifest=manifest, pruned=pruned, seconds=time.monotonic() - started)


def tables_with_rows(*, using: str = "default") -> dict[str, int]:
    """The tables of the database `using` that hold rows (beyond what `migrate` itself writes)."""
    database = connections[using].settings_dict
    if vendor_of(database) == "sqlite":
        return _sqlite_tables_with_rows(_sqlite_path(database))
    return _pg_tables_with_rows(database)


def pending_migrations(*, using: str = "default") -> list[str]:
    connection = connections[using]
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, backwards in plan if not backwards]


def check_restorable(*, path: Path, using: str = "default") -> dict[str, Any]:
    """The backup's manifest, if `path` can be restored into the database `using`: the file is the one its manifest
    describes, from the same kind of database, made by this code or older (no migration this code lacks), and the
    database holds no rows. Otherwise a BackupError saying why; nothing is written either way."""
    path = Path(path)
    manifest = verify_backup(path=path)
    database = connections[using].settings_dict
    vendor = vendor_of(database)
    if manifest["vendor"] != vendor:
        raise BackupError(f"{path.name} is a {manifest['vendor']} backup; this site's database is {vendor}.")
    known = code_migrations()
    unknown = sorted(f"{app}.{name}" for app, name in (manifest.get("migrations") or {}).items()
                     if (app, name) not in known)
    if unknown:
        raise BackupError(
            f"{path.name} was made by newer code (its migrations {', '.join(unknown)} are not in this code): "
            f"restore it with the release that made it ({manifest.get('release', 'unknown')})."
        )
    full = tables_with_rows(using=using)
    if full:
        listed = ", ".join(f"{name} ({count} rows)" for name, count in sorted(full.items()))
        raise BackupError(f"The database {database['NAME']} is not empty, so nothing was restored: {listed}. "
                          "Restore into a new, empty database.")
    return manifest


def restore_backup(*, path: Path, using: str = "default") -> RestoreResult:
    """The backup at `path` brought back into the empty database `using` (see `check_restorable`), then migrated if
    the backup is older than the code."""
    started = time.monotonic()
    path = Path(path)
    manifest = check_restorable(path=path, using=using)
    database = connections[using].settings_dict
    connections[using].close()
    if manifest["vendor"] == "sqlite":
        _restore_sqlite(path, _sqlite_path(database))
    else:
        _restore_postgresql(path, database)
    connections[using].close()
    migrated = pending_migrations(using=using)
    if migrated:
        call_command("migrate", database=using, interactive=False, verbosity=0)
    return RestoreResult(path=path, manifest=manifest, migrated=migrated, seconds=time.monotonic() - started)
