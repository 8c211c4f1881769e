"""How long a PostgreSQL connection may wait for a lock, and run one statement, before PostgreSQL ends it.

Why: a table's clock step holds the table's lock while it runs, and a match that ends inside it waits for its game's
rating lock; a lock wait with no end (a stuck session, a long job holding a lock) would freeze that table, and with
it the clock pass of every table behind it. With `lock_timeout` the wait ends in an error instead: the step rolls
back, is logged and is tried again on a later pass (the clock's own retry). `statement_timeout` does the same for a
query that runs away. Both are set when a connection opens (libpq's `options`, so every connection of the pool has
them, and `RESET` returns to them).

Commands decide for themselves where the defaults do not fit:
- `manage.py migrate` runs with no statement timeout (a migration may rewrite or index a big table, and one cut off
  fails the release) but keeps the lock timeout: a migration waiting for a table's lock holds every query of the
  site on that table behind it, so it had better fail and be run again than freeze play (`lift_statement_timeout`,
  on `pre_migrate`; `restore_statement_timeout` on `post_migrate` puts the connection's own back).
- `manage.py rebuild_ratings` keeps both: it reads and writes in short pages and takes the game locks only briefly
  (tables/ratings/services/rebuild.py).
- `manage.py backup` and `restore` run pg_dump and pg_restore on connections of their own, which set no statement
  timeout themselves; Django's settings do not reach them.
SQLite has its own bound on lock waits: the busy timeout (20 s) in config/settings.py.
"""

from __future__ import annotations

from typing import Any

LIFTED = "statement_timeout_lifted"  # the attribute a connection wrapper carries while migrate runs without one


def postgresql_options(*, lock_timeout: float, statement_timeout: float, given: str = "") -> str:
    """libpq `options` setting both timeouts (seconds; 0: none), after any the database URL already gives."""
    ours = f"-c lock_timeout={_milliseconds(lock_timeout)} -c statement_timeout={_milliseconds(statement_timeout)}"
    return f"{given} {ours}".strip()


def _milliseconds(seconds: float) -> int:
    if seconds < 0:
        raise ValueError(f"a timeout of {seconds} s: give 0 for none, or a positive number of seconds")
    return round(seconds * 1000)


def lift_statement_timeout(*, using: str, **kwargs: Any) -> None:
    """`pre_migrate`: no statement timeout on the connection the migrations run on (see the module's docstring)."""
    from django.db import connections

    connection = connections[using]
    if connection.vendor == "postgresql" and not getattr(connection, LIFTED, False):
        with connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = 0")
        setattr(connection, LIFTED, True)


def restore_statement_timeout(*, using: str, **kwargs: Any) -> None:
    """`post_migrate`: the connection's own statement timeout again (the one it opened with)."""
    from django.db import connections

    connection = connections[using]
    if getattr(connection, LIFTED, False):
        if connection.connection is not None:  # closed meanwhile: the next connection opens with its own
            with connection.cursor() as cursor:
                cursor.execute("RESET statement_timeout")
        setattr(connection, LIFTED, False)
