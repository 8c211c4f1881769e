"""The SQLite backend's writer queue (config/sqlite): writers of one process take turns, and every way a
transaction can end lets the next one in, so no thread is left waiting for a writer that is gone."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from config.sqlite import base

pytestmark = pytest.mark.django_db(transaction=True)


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
        User.objects.create(username="one")
        assert base._writer.locked()
    assert not base._writer.locked()


def test_a_rolled_back_transaction_lets_the_next_writer_in() -> None:
    User.objects.create(username="taken")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="taken")
    assert not base._writer.locked()
    in_thread(lambda: User.objects.create(username="next"))
    assert User.objects.filter(username="next").exists()


def test_a_connection_closed_inside_a_transaction_lets_the_next_writer_in() -> None:
    def abandon() -> None:
        connection.ensure_connection()
        connection._start_transaction_under_autocommit()  # BEGIN, as atomic() does; then the thread goes
        assert connection.holds_writer and base._writer.locked()
        connection.close()

    in_thread(abandon)
    assert not base._writer.locked()


def test_many_threads_writing_at_once_all_commit_in_turn() -> None:
    """Forty threads each write ten rows in their own transactions: all 400 are there, none failed."""
    barrier = threading.Barrier(40)

    def writer(n: int) -> None:
        barrier.wait()
        for i in range(10):
            with transaction.atomic():
                User.objects.create(username=f"w{n}-{i}")

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
    assert User.objects.filter(username__startswith="w").count() == 400
    assert not base._writer.locked()
