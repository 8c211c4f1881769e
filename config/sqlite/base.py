"""Django's SQLite backend, but writers of one process wait for each other in a queue, not in SQLite.

Why: every service transaction starts with BEGIN IMMEDIATE, so two of them never both read a table's
state and then race to write it. When the write lock is taken, SQLite's busy handler makes the other
writer sleep and retry with growing pauses (1, 2, 5, 10 ... up to 100 ms), so under load a move that
arrived a millisecond late could wait a tenth of a second for a lock that was free long before. Here
the threads of one process queue on a lock of their own before BEGIN and are woken the moment the
previous writer commits or rolls back; SQLite's busy timeout still keeps other processes (a management
command beside the server) safe. The wait is bounded by the same timeout as SQLite's.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

from config.sqlite.files import make_private

_writer = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    holds_writer = False

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = str(self.settings_dict["NAME"])
        if not self.is_in_memory_db() and not name.startswith("file:"):
            make_private(Path(name))  # the members' data is the owner's alone: see config/sqlite/files.py
        return super().get_new_connection(conn_params)

    def _start_transaction_under_autocommit(self) -> None:
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 20))
        if not _writer.acquire(timeout=timeout):
            raise OperationalError("database is locked (another writer of this process held it too long)")
        self.holds_writer = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._let_next_writer_in()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._let_next_writer_in()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._let_next_writer_in()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._let_next_writer_in()

    def _let_next_writer_in(self) -> None:
        if self.holds_writer:
            self.holds_writer = False
            _writer.release()
