"""Members clicking "Rematch" and "Play again" at the same moment, each more than once: one rematch, one new table, and
every click that was not refused sends its member there (the finished table's row lock takes them one at a time)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import User
from tables.models import Rematch, Table
from tables.play.services.rematch import answer_rematch
from tests.tables.helpers import full_table
from tests.tables.ledger_support import play_until_round_over

pytestmark = pytest.mark.django_db(transaction=True)


def all_at_once(clicks: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    barrier = threading.Barrier(len(clicks))
    done: list[object] = []
    failed: list[BaseException] = []
    lock = threading.Lock()

    def run(click: Callable[[], object]) -> None:
        try:
            barrier.wait()
            result = click()
            with lock:
                done.append(result)
        except BaseException as error:
            with lock:
                failed.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(click,)) for click in clicks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return done, failed


def finished(members: list[User], bots: int) -> Table:
    table = full_table("hawk", members, bots=bots, rounds=1)
    play_until_round_over(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def ask(table: Table, member: User) -> Callable[[], object]:
    return lambda: answer_rematch(table_code=table.code, user=member, accept=True, offer=None)


def test_two_members_asking_at_once_twice_each_make_one_rematch_that_starts(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    tables = Table.objects.count()
    done, failed = all_at_once([ask(table, alice), ask(table, bob), ask(table, alice), ask(table, bob)])
    assert failed == []
    offer = Rematch.objects.get(table=table)
    assert offer.state == "started" and sorted(offer.accepted) == sorted([alice.pk, bob.pk])
    assert Table.objects.count() == tables + 1
    # The click that completed it and every one after it go to the new table; those before it waited for the other.
    sent = [answered.go_to for answered in done if answered.go_to is not None]
    assert sent and set(sent) == {offer.new_table.code}


def test_play_again_clicked_five_times_at_once_makes_one_table(make_member) -> None:
    alice = make_member("alice")
    table = finished([alice], bots=3)
    tables = Table.objects.count()
    done, failed = all_at_once([ask(table, alice)] * 5)
    assert failed == []
    assert Table.objects.count() == tables + 1
    new = Rematch.objects.get(table=table).new_table
    assert [answered.go_to for answered in done] == [new.code] * 5
    assert new.status == Table.Status.RUNNING


def test_an_accept_and_a_decline_at_once_leave_one_answer_each(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished([alice, bob, carol], bots=1)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    _done, failed = all_at_once([
        lambda: answer_rematch(table_code=table.code, user=bob, accept=True, offer=offer.pk),
        lambda: answer_rematch(table_code=table.code, user=carol, accept=False, offer=offer.pk),
    ])
    assert failed == []  # neither answer lost: each was written after the other's, under the table's lock
    offer.refresh_from_db()
    assert offer.state == "opened" and offer.accepted == [alice.pk, bob.pk] and offer.declined == [carol.pk]
