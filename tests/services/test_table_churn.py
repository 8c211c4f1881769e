"""Table churn on PostgreSQL (issue 39): one member "creates a table full of bots, leaves" in a small bounded loop,
one attempt after another and from several threads at once (as from several tabs and Daphne processes sharing the
database). The tables made are bounded by the rate (counted from the database under the member's row lock), and
none of them leaves a rated match or a ledger entry. The loop's figures over time are bench.table_churn's."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection

from tables.models import LedgerEntry, MatchResult, Move, Rating, RatingChange, Round, Table
from tables.play.services.errors import NotAllowed
from tables.play.services.table_limits import TooManyTables
from tables.play.services.tables import create_table, leave_table
from tables.treasury.services.books import check_books

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ATTEMPTS = 14


def churn_once(member) -> bool:
    """One step of the attack: whether a table was made (and left)."""
    try:
        table = create_table(creator=member, game="sheepshead", players=5, fill_with_bots=True, bot_speed="instant")
    except TooManyTables:
        return False
    leave_table(table_id=table.pk, user=member)
    return True


def assert_nothing_left_in_the_books(member) -> None:
    tables = Table.objects.filter(created_by=member)
    assert not tables.exclude(status=Table.Status.ABANDONED).exists()
    assert Round.objects.filter(match__table__in=tables, voided_at__isnull=True).count() == 0
    assert not LedgerEntry.objects.exists()
    assert not MatchResult.objects.exists()
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not Move.objects.filter(round__match__table__in=tables).exclude(actor=Move.Actor.BOT).exists()
    books = check_books()
    assert books.ok, books.differences


def test_one_member_churning_bot_tables_is_bounded_by_the_rate_and_leaves_no_books(make_member, settings) -> None:
    settings.TABLE_STARTS_PER_MEMBER = 10
    settings.TABLE_STARTS_WINDOW_MINUTES = 10
    mallory = make_member("mallory")
    made = [churn_once(mallory) for _ in range(ATTEMPTS)]
    assert made == [True] * 10 + [False] * (ATTEMPTS - 10)
    assert Table.objects.filter(created_by=mallory).count() == 10
    assert_nothing_left_in_the_books(mallory)


def test_churning_from_several_threads_at_once_makes_no_more_tables_than_the_rate(make_member, settings) -> None:
    settings.TABLE_STARTS_PER_MEMBER = 5
    settings.TABLE_STARTS_WINDOW_MINUTES = 10
    mallory = make_member("mallory")
    threads_count, per_thread = 4, 3
    barrier = threading.Barrier(threads_count)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def attack() -> None:
        try:
            barrier.wait()
            for _ in range(per_thread):
                # "Already playing" while another thread's table still runs: refused, nothing written.
                with contextlib.suppress(NotAllowed):
                    churn_once(mallory)
        except BaseException as error:  # anything unexpected fails the test
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=attack) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors
    assert 1 <= Table.objects.filter(created_by=mallory).count() <= 5
    assert_nothing_left_in_the_books(mallory)


def test_open_tables_made_at_once_from_several_threads_stop_at_the_cap(make_member, settings) -> None:
    settings.TABLES_OPEN_PER_MEMBER = 3
    settings.TABLE_STARTS_PER_MEMBER = 0
    mallory = make_member("mallory")
    barrier = threading.Barrier(8)
    refused: list[str] = []
    lock = threading.Lock()

    def open_one() -> None:
        try:
            barrier.wait()
            create_table(creator=mallory, game="hawk", players=4)
        except TooManyTables as error:
            with lock:
                refused.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert Table.objects.filter(created_by=mallory, status=Table.Status.OPEN).count() == 3
    assert len(refused) == 5
