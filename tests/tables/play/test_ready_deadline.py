"""The pause between rounds ends on time: getting ready (or leaving and coming back) never stretches it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from unittest import mock

import pytest

from tables.models import Round, Table
from tables.play.services import clock, play
from tables.play.services.tables import join_table, leave_table
from tests.tables.helpers import current_round, full_table, play_one

pytestmark = pytest.mark.django_db


def finished_first_round(members: list) -> Table:
    table = full_table("hawk", members, bots=4 - len(members), rounds=3)
    by_seat = dict(enumerate(members))
    rng = random.Random(5)
    for _ in range(2000):
        if not play_one(table, by_seat, rng):
            break
    assert current_round(table).over and current_round(table).number == 1
    table.refresh_from_db()
    return table


def at(moment: datetime):
    return mock.patch("django.utils.timezone.now", return_value=moment)


def ready(table: Table, user, moment: datetime) -> None:
    table.refresh_from_db()
    with at(moment):
        play.ready_for_next_round(table_id=table.pk, user=user, expected_version=table.version)


def test_getting_ready_never_moves_the_pause_later(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished_first_round([alice, bob, carol])
    deadline = current_round(table).deadline
    assert deadline is not None
    ready(table, alice, deadline - timedelta(seconds=5))
    assert current_round(table).deadline == deadline
    ready(table, bob, deadline - timedelta(seconds=3))  # after another member's ready
    assert current_round(table).deadline == deadline
    ready(table, alice, deadline - timedelta(seconds=1))  # alice clicks again
    rnd = current_round(table)
    assert rnd.number == 1 and rnd.deadline == deadline
    # carol never gets ready: the pause still ends when it was to end, and the next round is dealt
    table.refresh_from_db()
    with at(deadline - timedelta(seconds=1)):
        assert not clock.advance(table_id=table.pk)
    with at(deadline + timedelta(seconds=1)):
        assert clock.advance(table_id=table.pk)
    assert current_round(table).number == 2


def test_leaving_and_coming_back_during_the_pause_does_not_move_it(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished_first_round([alice, bob])
    deadline = current_round(table).deadline
    with at(deadline - timedelta(seconds=4)):
        leave_table(table_id=table.pk, user=bob)
    assert current_round(table).deadline == deadline
    with at(deadline - timedelta(seconds=2)):
        join_table(table_id=table.pk, user=bob)
    assert current_round(table).deadline == deadline


def test_the_last_ready_deals_at_once_with_a_fresh_turn_deadline(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished_first_round([alice, bob])
    deadline = current_round(table).deadline
    ready(table, alice, deadline - timedelta(seconds=10))
    ready(table, bob, deadline - timedelta(seconds=9))
    rnd = current_round(table)
    assert rnd.number == 2 and not rnd.over
    table.refresh_from_db()
    assert rnd.deadline == deadline - timedelta(seconds=9) + timedelta(seconds=table.turn_seconds)
    assert Round.objects.get(match__table=table, number=1).deadline == deadline
