"""A refusal names what the check saw, even when another transaction ends it a moment later.

Under PostgreSQL's READ COMMITTED every statement sees the latest commits, so a reason looked up by a second
statement may already be gone (a waiting request matched or cancelled by another member's transaction): once,
in CI's quick-play storm, a refusal then failed with an AttributeError instead of saying why. The check's one
statement carries the reason; these tests end the commitment right after that statement and expect the
refusal to still name it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection

from tables.models import QueueRequest, Seat, Table
from tables.play.services.errors import NotAllowed
from tables.play.services.tables import create_table, join_table
from tables.quickplay.services.matchmaking import enqueue
from tests.tables.helpers import full_table

pytestmark = pytest.mark.django_db


def after_the_check(then: Callable[[], None]):
    """Runs `then` right after the commitments statement, as another transaction committing at that moment would."""
    done = []

    def wrapper(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not done and "SELECT u.id," in sql:
            done.append(True)
            then()
        return result

    return connection.execute_wrapper(wrapper), done


def test_a_waiting_request_ended_after_the_check_still_gives_the_reason(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    enqueue(user=alice, game="hawk", players=None, band="")
    ended, done = after_the_check(lambda: QueueRequest.objects.update(state=QueueRequest.State.CANCELLED))
    with ended, pytest.raises(NotAllowed, match=r"You are waiting in quick play for Hawk; cancel that request first\."):
        create_table(creator=alice, game="hawsker", players=2)
    assert done, "the check's statement was not seen: the test no longer ends anything after it"
    assert not Table.objects.filter(game="hawsker").exists()


def test_a_running_table_left_after_the_check_is_still_named(make_member) -> None:
    alice, bob, carol = make_member("alice", display_name="Alice"), make_member("bob"), make_member("carol")
    running = full_table("hawsker", [alice, bob])
    other = create_table(creator=carol, game="hawsker", players=2)
    ended, done = after_the_check(lambda: Seat.objects.filter(user=alice).update(away=True))
    with ended, pytest.raises(NotAllowed, match=f"You are already playing at {running.name};"):
        join_table(table_id=other.pk, user=alice)
    assert done
    assert not Seat.objects.filter(table=other, user=alice).exists()
