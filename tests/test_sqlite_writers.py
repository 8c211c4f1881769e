"""The SQLite backend's writer queue (config/sqlite): writers of one process take turns, and every way a
transaction can end lets the next one in, so no thread is left waiting for a writer that is gone.

The site's database here is a SQLite file of the test's own (tests/sqlite_databases.py), so the queue is tested in
the PostgreSQL run of the tier as well."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction

from config.sqlite import base
from tests.sqlite_databases import sqlite_database


@pytest.fixture(autouse=True)
def writers_database(tmp_path: Path, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock(), sqlite_database(tmp_path / "writers.sqlite3"):
        assert isinstance(connections["default"], base.DatabaseWrapper)
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE member (name TEXT PRIMARY KEY)")
        yield
        assert not base._writer.locked()


def add(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO member (name) VALUES (%s)", [name])


def names() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM member")
        return {row[0] for row in cursor.fetchall()}


def in_thread(work) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # reported to the test below
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    if errors:
        raise errors[0]


def test_a_transaction_holds_the_writer_until_it_commits() -> None:
    with transaction.atomic():
        add("one")
        assert connection.holds_writer and base._writer.locked()
    assert not connection.holds_writer and not base._writer.locked()
    assert names() == {"one"}


def test_a_rolled_back_transaction_lets_the_next_writer_in() -> None:
    add("taken")
    with pytest.raises(IntegrityError), transaction.atomic():
        add("taken")
    assert not base._writer.locked()
    in_thread(lambda: add("next"))
    assert names() == {"taken", "next"}


def test_a_connection_closed_inside_a_transaction_lets_the_next_writer_in() -> None:
    def abandon() -> None:
        connection.ensure_connection()
        connection._start_transaction_under_autocommit()  # BEGIN, as atomic() does; then the thread goes
        assert connection.holds_writer and base._writer.locked()
        connection.close()

    in_thread(abandon)
    assert not base._writer.locked()
    in_thread(lambda: add("next"))
    assert names() == {"next"}


def test_many_threads_writing_at_once_all_commit_in_turn() -> None:
    """Forty threads each write ten rows in their own transactions: all 400 are there, none failed."""
    barrier = threading.Barrier(40)

    def writer(n: int) -> None:
        barrier.wait()
        for i in range(10):
            with transaction.atomic():
                add(f"w{n}-{i}")

    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            writer(n)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert len(names()) == 400
    assert not base._writer.locked()
