"""Copies of the whole database that outlive the machine, and bringing one back into an empty database.

A backup is taken while the site runs and must be one moment of the books, never half a round. SQLite: the
online backup API copies every page in one step under one read transaction (WAL lets the server's writers go on
meanwhile), so the copy is the database as it stood when the step began. PostgreSQL: `pg_dump` reads everything
in one repeatable-read transaction. Each copy gets a manifest beside it (`<file>.json`) with its SHA-256, size,
the code's release and the latest migration per app, so a restore can refuse a damaged file and knows whether
the restored database needs migrating. Older copies are deleted only after the new one has been read back and
checked, so a failing backup never costs the good ones.

A restore writes into an empty database only: replacing live books is not something to do by accident. A backup
file is also code the site will run (a trigger added to a copied SQLite backup made a member superuser on the next
write), so a restore takes only what the site itself wrote and what its migrations make: the manifest is signed
with an HMAC keyed by the site's SECRET_KEY (a purpose salt of its own; SECRET_KEY_FALLBACKS verify older backups
after a key rotation), an unsigned or wrongly signed file is refused unless the operator says they trust it
(`--trust-unsigned`), and either way every trigger, view, table and index of a SQLite file must be one that the
migrations it records make (backup_schema.py). A PostgreSQL archive's entries are listed first and may only be
tables, their data, sequences, keys and indexes of tables the code makes, and pg_restore never runs as a superuser:
an archive's entries are SQL, run as the role that restores them.

The copies hold members' emails and password hashes: their directory is the owner's alone (0700, also when it
exists), and every file a backup or restore writes is created 0600 under the umask 0o077, set for the copy only
and put back after (the umask is the process's, so a thread creating files meanwhile creates them private too).
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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.utils.crypto import constant_time_compare, salted_hmac

from tables.treasury.services import backup_schema

PREFIX = "cardclub-"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
MANIFEST_SUFFIX = ".json"
BACKUP_NAME = re.compile(rf"^{PREFIX}\d{{8}}T\d{{12}}Z(\.sqlite3|\.pgdump)$")
# Tables that `migrate` itself fills: a freshly migrated database has rows there and is still empty of books.
FILLED_BY_MIGRATE = {"django_migrations", "django_content_type", "auth_permission", "sqlite_sequence"}
TOOL_TIMEOUT = 3600  # seconds: pg_dump and pg_restore of a club's books take far less
MANIFEST_FORMAT = 2  # 2: signed
# The HMAC's purpose: a value signed for anything else with the same SECRET_KEY is never a backup's signature.
SIGNING_SALT = "cardclub.tables.treasury.backups.manifest"
TRUST_UNSIGNED = "--trust-unsigned"
# What pg_dump writes for tables Django's migrations make; anything else (TRIGGER, FUNCTION, VIEW, RULE, POLICY,
# EXTENSION...) is not restored. Longest first: "TABLE DATA" is not a TABLE named DATA.
PG_ENTRY_KINDS = ("SEQUENCE OWNED BY", "FK CONSTRAINT", "SEQUENCE SET", "TABLE DATA", "CONSTRAINT", "SEQUENCE",
                  "DEFAULT", "INDEX", "TABLE")
PRIVATE_UMASK = 0o077


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


def _signature(manifest: dict[str, Any], *, secret: str) -> str:
    body = {key: value for key, value in manifest.items() if key != "signature"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return salted_hmac(SIGNING_SALT, text, secret=secret, algorithm="sha256").hexdigest()


def sign_manifest(manifest: dict[str, Any]) -> dict[str, Any]:
    """`manifest` with its signature: an HMAC-SHA256 of everything else in it, keyed by this site's SECRET_KEY."""
    return {**manifest, "signature": _signature(manifest, secret=settings.SECRET_KEY)}


def signed_by_this_site(manifest: dict[str, Any]) -> bool:
    given = manifest.get("signature")
    if not isinstance(given, str):
        return False
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return any(constant_time_compare(given, _signature(manifest, secret=key)) for key in keys)


@contextmanager
def private_files() -> Iterator[None]:
    """Files created meanwhile are the owner's alone (umask 0o077), whatever the tool creating them (SQLite's
    journals, pg_dump's output); the process's umask is put back after."""
    before = os.umask(PRIVATE_UMASK)
    try:
        yield
    finally:
        os.umask(before)


def _private_directory(directory: Path) -> None:
    """`directory` exists and only its owner may enter it, also when it existed with a looser mode."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if directory.stat().st_mode & 0o777 != 0o700:
            os.chmod(directory, 0o700)
    except OSError as error:
        raise BackupError(f"The backup directory {directory} cannot be made private (mode 0700): {error}.") from None


def _create_private(path: Path) -> None:
    """An empty file at `path`, mode 0600, before a tool writes into it (an existing one is an error)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


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
        _create_private(target)
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
        if not target.exists():
            _create_private(target)
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


def tables_made_by(migrations: dict[str, str]) -> set[str]:
    """The tables of a database migrated to `migrations` (the latest per app), read from the migrations alone:
    both vendors name them alike."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    state = loader.project_state(nodes=sorted(migrations.items()), at_end=True)
    made = {"django_migrations"}
    for model in state.apps.get_models(include_auto_created=True):
        if model._meta.managed and not model._meta.proxy:
            made.add(model._meta.db_table)
    return made


def _pg_entry_problem(entry: str, tables: set[str]) -> str | None:
    """Why one line of `pg_restore --list` is not something the code's migrations make (None: it is)."""
    found = re.fullmatch(r"\d+; \d+ \d+ (.+)", entry)
    if not found:
        return f"an entry that cannot be read ({entry[:80]!r})"
    rest = found.group(1)
    kind = next((kind for kind in PG_ENTRY_KINDS if rest.startswith(f"{kind} ")), None)
    words = rest[len(kind) + 1:].split(" ") if kind else []
    if kind is None:
        return f"{rest.rsplit(' ', 1)[0]} is not made by the code"
    if len(words) != (4 if kind in ("CONSTRAINT", "FK CONSTRAINT", "DEFAULT") else 3):
        return f"an entry that cannot be read ({rest[:80]!r})"
    name = words[1]
    if kind.startswith("SEQUENCE"):
        if name.endswith("_seq") and any(name.startswith(f"{table}_") for table in tables):
            return None
        return f"{kind} {name} does not belong to a table the code makes"
    if kind != "INDEX" and name not in tables:
        return f"{kind} {name} is not a table the code makes"
    return None


def _pg_check_archive(path: Path, tables: set[str]) -> None:
    """The archive holds only tables the code makes, with their data, sequences, keys and indexes: no trigger,
    function, view, rule, policy or extension (pg_restore would run them as SQL)."""
    listed = _run([_tool("pg_restore"), "--list", str(path)], dict(os.environ), f"Reading {path.name} with pg_restore")
    entries = [line for line in listed.splitlines() if line.strip() and not line.startswith(";")]
    problems = [problem for entry in entries if (problem := _pg_entry_problem(entry, tables))]
    if problems:
        raise BackupError(f"{path.name} holds what the code's migrations do not make, so nothing was restored: "
                          f"{'; '.join(problems[:20])}.")


def _pg_refuse_superuser(database: dict[str, Any]) -> None:
    """pg_restore runs an archive's entries as SQL with the rights of the role it connects as (the same
    DATABASE_URL user): a superuser's may read and write files and run programs on the server."""
    with _psycopg(database) as connection:
        role, superuser = connection.execute(
            "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    if superuser:
        raise BackupError(
            f"The database connection's role {role!r} is a PostgreSQL superuser, so nothing was restored: restore as "
            "the site's own role (its DATABASE_URL, the owner of the database), never as a superuser "
            "(deploy/README.md, Restoring a backup)."
        )


def _pg_refuse_objects_not_made(database: dict[str, Any], tables: set[str]) -> None:
    """After pg_restore: no trigger, function, view, rule or policy, and no table the code does not make. An
    archive's entries are SQL, and one could hide more than its listing says; pg_restore has committed by now,
    so this can only stop the site from being started on what it restored."""
    schemas = "('pg_catalog', 'information_schema')"
    with _psycopg(database) as connection:
        found = [row[0] for row in connection.execute(f"""
            SELECT 'trigger ' || tgname || ' on ' || tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal
            UNION ALL SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
                JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN {schemas}
            UNION ALL SELECT 'view ' || viewname FROM pg_views WHERE schemaname NOT IN {schemas}
            UNION ALL SELECT 'materialized view ' || matviewname FROM pg_matviews
            UNION ALL SELECT 'rule ' || rulename || ' on ' || tablename FROM pg_rules WHERE schemaname NOT IN {schemas}
            UNION ALL SELECT 'policy ' || policyname || ' on ' || tablename FROM pg_policies
            UNION ALL SELECT 'table ' || tablename FROM pg_tables WHERE schemaname NOT IN {schemas}
                AND NOT (tablename = ANY(%s))
        """, (sorted(tables),)).fetchall()]
    if found:
        raise BackupError(
            f"pg_restore has written into {database['NAME']} what the code's migrations do not make: "
            f"{'; '.join(sorted(found)[:20])}. Do not start the site on it: drop that database and restore a backup "
            "this site signed."
        )


# Both


def verify_backup(*, path: Path, trust_unsigned: bool = False) -> dict[str, Any]:
    """The backup's manifest, once the file is shown to be the one it describes (size, SHA-256) and readable, and
    the manifest to be signed by this site (unless `trust_unsigned`: the operator vouches for the file)."""
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
    if not trust_unsigned and not signed_by_this_site(manifest):
        state = "is not signed" if "signature" not in manifest else "has a signature this site did not make"
        raise BackupError(
            f"The manifest {beside.name} {state} (made by another site or SECRET_KEY, by older code, or changed "
            f"since), so nothing was restored. Only if you know where the file comes from, restore it with "
            f"{TRUST_UNSIGNED}: its schema is still checked against the code's migrations."
        )
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
    with private_files():  # the copies hold members' emails and password hashes
        _private_directory(directory)
    created = datetime.now(UTC)
    path = directory / f"{PREFIX}{created:%Y%m%dT%H%M%S%f}Z{SUFFIXES[vendor]}"
    partial = path.with_name(path.name + ".partial")
    extra: dict[str, Any] = {}
    try:
        with private_files():
            if vendor == "sqlite":
                _copy_sqlite(_sqlite_path(database), partial)
                _sqlite_integrity(partial)
                migrations = _sqlite_migrations(partial)
            else:
                migrations = _pg_migrations(database)  # before the dump: a migration during a backup is not expected
                _create_private(partial)
                extra = _dump_postgresql(database, partial)
        os.chmod(partial, 0o600)
        with open(partial, "rb+") as handle:
            os.fsync(handle.fileno())
        partial.replace(path)
        manifest = sign_manifest({
            "format": MANIFEST_FORMAT,
            "created_at": created.isoformat(),
            "vendor": vendor,
            "file": path.name,
            "size": path.stat().st_size,
            "sha256": sha256_of(path),
            "release": release(),
            "migrations": migrations,
            **extra,
        })
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


def _check_sqlite_schema(path: Path, manifest: dict[str, Any]) -> None:
    """The SQLite file at `path` holds exactly the objects its recorded migrations make (backup_schema.py)."""
    applied = backup_schema.applied_migrations(path)
    if _latest(sorted(applied)) != (manifest.get("migrations") or {}):
        raise BackupError(f"{path.name} records other migrations than its manifest names, so nothing was restored.")
    try:
        expected, made_by_code = backup_schema.expected_sqlite_schema(migrations=_latest(sorted(applied)))
    except backup_schema.SchemaError as error:
        raise BackupError(f"The schema of {path.name} could not be checked, so nothing was restored: {error}") from None
    if applied != made_by_code:
        odd = ", ".join(f"{app}.{name}" for app, name in sorted(applied ^ made_by_code)[:10])
        raise BackupError(f"{path.name} records migrations that migrating to its latest ones does not apply "
                          f"(or the other way round): {odd}; nothing was restored.")
    found = backup_schema.differences(backup_schema.sqlite_schema(path), expected)
    if found:
        more = f"; and {len(found) - 20} more" if len(found) > 20 else ""
        raise BackupError(f"{path.name} holds a schema that the code's migrations do not make, so nothing was "
                          f"restored: {'; '.join(found[:20])}{more}.")


def check_restorable(*, path: Path, using: str = "default", trust_unsigned: bool = False) -> dict[str, Any]:
    """The backup's manifest, if `path` can be restored into the database `using`: the file is the one its manifest
    describes, signed by this site (unless `trust_unsigned`), from the same kind of database, made by this code or
    older (no migration this code lacks), holding only what the code's migrations make, the database holds no rows,
    and (PostgreSQL) the restore would not run as a superuser. Otherwise a BackupError saying why; nothing is
    written either way."""
    path = Path(path)
    manifest = verify_backup(path=path, trust_unsigned=trust_unsigned)
    database = connections[using].settings_dict
    vendor = vendor_of(database)
    if manifest["vendor"] != vendor:
        raise BackupError(f"{path.name} is a {manifest['vendor']} backup; this site's database is {vendor}.")
    known = code_migrations()
    migrations = manifest.get("migrations") or {}
    if not isinstance(migrations, dict):
        raise BackupError(f"The manifest of {path.name} names its migrations in a form this code does not read.")
    unknown = sorted(f"{app}.{name}" for app, name in migrations.items() if (app, name) not in known)
    if unknown:
        raise BackupError(
            f"{path.name} was made by newer code (its migrations {', '.join(unknown)} are not in this code): "
            f"restore it with the release that made it ({manifest.get('release', 'unknown')})."
        )
    if vendor == "postgresql":
        _pg_refuse_superuser(database)
    full = tables_with_rows(using=using)
    if full:
        listed = ", ".join(f"{name} ({count} rows)" for name, count in sorted(full.items()))
        raise BackupError(f"The database {database['NAME']} is not empty, so nothing was restored: {listed}. "
                          "Restore into a new, empty database.")
    if vendor == "sqlite":
        _check_sqlite_schema(path, manifest)  # last: it migrates a scratch database, which takes seconds
    else:
        _pg_check_archive(path, tables_made_by(migrations))
    return manifest


def restore_backup(*, path: Path, using: str = "default", trust_unsigned: bool = False) -> RestoreResult:
    """The backup at `path` brought back into the empty database `using` (see `check_restorable`), then migrated if
    the backup is older than the code."""
    started = time.monotonic()
    path = Path(path)
    manifest = check_restorable(path=path, using=using, trust_unsigned=trust_unsigned)
    database = connections[using].settings_dict
    connections[using].close()
    with private_files():
        if manifest["vendor"] == "sqlite":
            _restore_sqlite(path, _sqlite_path(database))
        else:
            _restore_postgresql(path, database)
            _pg_refuse_objects_not_made(database, tables_made_by(manifest.get("migrations") or {}))
    connections[using].close()
    migrated = pending_migrations(using=using)
    if migrated:
        call_command("migrate", database=using, interactive=False, verbosity=0)
    return RestoreResult(path=path, manifest=manifest, migrated=migrated, seconds=time.monotonic() - started)
