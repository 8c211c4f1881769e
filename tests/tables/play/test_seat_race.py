"""Thirty members grab the last two seats at once: exactly two get them."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tables.models import Seat, Table
from tables.play.services.errors import TableFull
from tables.play.services.tables import create_table, join_table

pytestmark = pytest.mark.django_db(transaction=True)


def race_for_seats(make_member) -> tuple[Table, list[str], list[str]]:
    owner, second = make_member("owner"), make_member("second")
    table = create_table(creator=owner, game="hawk", players=4)
    join_table(table_id=table.pk, user=second)
    racers = [make_member(f"racer{i}") for i in range(30)]
    barrier = threading.Barrier(len(racers))
    won: list[str] = []
    refused: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def attempt(user) -> None:
        try:
            barrier.wait()
            join_table(table_id=table.pk, user=user)
            with lock:
                won.append(user.username)
        except TableFull as error:
            with lock:
                refused.append(str(error))
        except BaseException as error:  # anything else fails the test below
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(user,)) for user in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    table.refresh_from_db()
    return table, won, refused


def test_exactly_two_of_thirty_get_the_last_two_seats(make_member) -> None:
    table, won, refused = race_for_seats(make_member)
    assert len(won) == 2
    assert len(refused) == 28
    assert set(refused) <= {"This table is full.", "This table is already playing; you can watch it."}
    seated = list(Seat.objects.filter(table=table).values_list("user__username", flat=True))
    assert sorted(seated[2:]) == sorted(won)
    assert None not in seated
    assert table.status == Table.Status.RUNNING
