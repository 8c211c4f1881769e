"""The site's SQLite database and the files SQLite keeps beside it are readable by their owner only.

They hold members' emails, password hashes, sessions and every live round's hidden cards; `make run` created
db.sqlite3 (and SQLite its -wal and -shm) 0644 under the usual umask, readable by every account on the machine.
The mode is set on the files rather than by the process's umask: the umask is one per process, shared by every
thread, and changing it for good would surprise whatever else the server writes. SQLite creates -wal, -shm and
-journal with the database file's own mode, so a database file that is 0600 when SQLite opens it keeps its
companions 0600 too; files left looser by an older run are tightened at the next connection.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

PRIVATE = 0o600
COMPANIONS = ("", "-wal", "-shm", "-journal")

logger = logging.getLogger(__name__)


def make_private(database: Path) -> None:
    """`database` exists (created empty, 0600, if it did not) and it and its companions are the owner's alone."""
    # FileExistsError: there already; FileNotFoundError: no folder for it (SQLite will say so when it opens it).
    with contextlib.suppress(FileExistsError, FileNotFoundError):
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    for suffix in COMPANIONS:
        path = database.with_name(database.name + suffix)
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            continue
        if mode & 0o077:
            try:
                os.chmod(path, mode & 0o700)
            except PermissionError:  # another account's file: the site can still use it, and says so
                logger.warning("%s is readable by others (mode %o) and this process may not change that.", path, mode)
