"""Two processes' table clocks on PostgreSQL split the due tables between them (issue 40, item 3; services tier).

Each pass read the same due list in the same order and locked each table in turn: a second process waited on the
lock of the table the first was stepping, then found it done, table after table, and added no capacity. Now each
step claims the soonest due table nobody holds (`FOR UPDATE SKIP LOCKED`): while one process is in a table's step,
however long, the other steps the rest. (SQLite lets one writer in at a time, so there this cannot be shown: the
default tier's tests/tables/play/test_clock_shared_by_processes.py runs on both.)"""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection

from tables.models import Table
from tables.play.search_budget import SearchBudget
from tables.play.services import clock, play
from tests.tables.helpers import hawk_table
from tests.tables.play.table_life import fake_time, moves_at

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WAIT = 20.0


def test_a_table_one_process_is_stepping_holds_up_no_other_table(make_member, monkeypatch) -> None:
    assert connection.features.has_select_for_update_skip_locked
    tables = [hawk_table(make_member(f"m{i}"), level="easy", speed="brisk") for i in range(4)]
    time = fake_time(monkeypatch)
    start = time.to(max([time.now, *(t.due_at for t in tables)]))
    for i, table in enumerate(tables):  # due in this order: both processes' lists start with the first
        Table.objects.filter(pk=table.pk).update(due_at=start - timedelta(seconds=10 - i))
    before = {t.pk: moves_at(t).count() for t in tables}
    held, release = threading.Event(), threading.Event()
    loaded: dict[str, list[int]] = defaultdict(list)
    real_load = play.Live.load.__func__

    def load(cls, table, seats=None, now=None):
        name = threading.current_thread().name
        loaded[name].append(table.pk)
        if name == "one" and table.pk == tables[0].pk:  # the first process's step at the first table takes long
            held.set()
            release.wait(WAIT * 2)
        return real_load(cls, table, seats, now)

    monkeypatch.setattr(play.Live, "load", classmethod(load))
    done = {"one": threading.Event(), "two": threading.Event()}
    errors: list[BaseException] = []

    def process(name: str) -> None:
        try:
            clock.sweep(now=start, budget=SearchBudget(share=0.0))
        except BaseException as error:
            errors.append(error)
        finally:
            done[name].set()
            close_old_connections()

    one = threading.Thread(target=process, args=("one",), name="one", daemon=True)
    two = threading.Thread(target=process, args=("two",), name="two", daemon=True)
    one.start()
    try:
        assert held.wait(WAIT), "the first process never reached the first table"
        two.start()
        two_done = done["two"].wait(WAIT)
        moved_meanwhile = {t.pk: moves_at(t).count() - before[t.pk] for t in tables}
    finally:
        release.set()
        one.join(WAIT)
        two.join(WAIT)
    assert not errors, errors

    assert two_done, "the second process waited for the table the first was stepping"
    assert moved_meanwhile == {tables[0].pk: 0, **{t.pk: 1 for t in tables[1:]}}
    assert {t.pk: moves_at(t).count() - before[t.pk] for t in tables} == {t.pk: 1 for t in tables}
    assert loaded == {"one": [tables[0].pk], "two": [t.pk for t in tables[1:]]}  # each table stepped by one
