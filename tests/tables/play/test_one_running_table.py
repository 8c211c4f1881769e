"""A member plays at one running table at a time, however the tables they sit at come to start.

A member may hold seats at several open tables; when one of them would start while the member is
already playing at another, the start is refused with a reason naming them and the table stays open.
"""

from __future__ import annotations

import pytest

from tables.models import Match, Seat, Table
from tables.play.services.errors import TableError
from tables.play.services.tables import add_bot, create_table, join_table, leave_table

pytestmark = pytest.mark.django_db


def running_seats(user) -> list[int]:
    return list(Seat.objects.filter(user=user, away=False, table__status=Table.Status.RUNNING)
                .values_list("table_id", flat=True))


def state_of(table: Table) -> tuple:
    table.refresh_from_db()
    return (table.status, table.version, Match.objects.filter(table=table).count(),
            list(Seat.objects.filter(table=table).order_by("position").values_list("user_id", "is_bot")))


def test_a_member_seated_at_two_open_tables_plays_at_the_first_that_fills_only(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    bob, carol, dave, erin = (make_member(n) for n in ("bob", "carol", "dave", "erin"))
    first = create_table(creator=alice, game="puskiyon", players=3)
    second = create_table(creator=alice, game="puskiyon", players=3)
    join_table(table_id=first.pk, user=bob)
    join_table(table_id=second.pk, user=dave)
    join_table(table_id=first.pk, user=carol)  # the first fills and starts
    first.refresh_from_db()
    assert first.status == Table.Status.RUNNING
    before = state_of(second)
    with pytest.raises(TableError, match=f"Alice is already playing at {first.name};"):
        join_table(table_id=second.pk, user=erin)
    assert state_of(second) == before  # still open, erin not seated, nothing dealt
    assert before[0] == Table.Status.OPEN
    assert running_seats(alice) == [first.pk]
    # Once alice has left the running table, the second may start.
    leave_table(table_id=first.pk, user=alice)
    join_table(table_id=second.pk, user=erin)
    second.refresh_from_db()
    assert second.status == Table.Status.RUNNING
    assert running_seats(alice) == [second.pk]


def test_a_bot_in_the_last_seat_does_not_start_a_table_while_its_member_plays_elsewhere(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    waiting = create_table(creator=alice, game="puskiyon", players=3)
    join_table(table_id=waiting.pk, user=bob)
    playing = create_table(creator=carol, game="hawsker", players=2)
    join_table(table_id=playing.pk, user=alice)  # alice is now playing there
    playing.refresh_from_db()
    assert playing.status == Table.Status.RUNNING
    before = state_of(waiting)
    for adder, who in ((alice, "You are"), (bob, "alice is")):
        with pytest.raises(TableError, match=f"{who} already playing at {playing.name};"):
            add_bot(table_id=waiting.pk, user=adder)
        assert state_of(waiting) == before
    assert running_seats(alice) == [playing.pk]


def test_filling_a_table_whose_members_are_free_starts_it(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="puskiyon", players=3)
    join_table(table_id=table.pk, user=bob)
    add_bot(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    assert sorted(running_seats(alice) + running_seats(bob)) == [table.pk, table.pk]
