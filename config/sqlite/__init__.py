"""Django's SQLite backend, with the process's writers taking turns in Python (see base.py)."""

from __future__ import annotations

from typing import Any

# How the site opens SQLite (config/settings.py): one writer at a time, IMMEDIATE taking the write lock when a
# transaction starts, so two services never both read a table's state and then race to write it; WAL lets readers
# go on. Here, not in the settings, so a test that opens a SQLite database of its own while the run's database is
# PostgreSQL opens it as the site would.
OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
}
