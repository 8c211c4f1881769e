"""Several members who accept bots come due in one sweep: each is seated once, and the sweep holds."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from tables.models import QueueRequest, Seat, Table
from tables.quickplay.services.matchmaking import enqueue, sweep
from tests.tables.quickplay.support import Outcomes, check_invariants, random_request

pytestmark = pytest.mark.django_db

W = QueueRequest.State


def seated(table: Table) -> list[str]:
    return [s.user.username if s.user else "bot"
            for s in Seat.objects.filter(table=table).select_related("user").order_by("position")]


def assert_each_seated_once(names: list[str]) -> None:
    assert not Seat.objects.filter(user__isnull=False).values("user").annotate(n=Count("id")).filter(n__gt=1)
    for request in QueueRequest.objects.select_related("user", "table"):
        assert request.user.username in names
        assert request.state == W.MATCHED, request.user.username
        assert request.with_bots
        assert Seat.objects.get(user=request.user).table_id == request.table_id


@pytest.mark.parametrize("count", [2, 3])
def test_members_who_accept_bots_and_come_due_together_share_one_table(make_member, count) -> None:
    """Same game, same count and band: the first due takes the others who accept bots, bots fill the rest."""
    names = [f"m{i}" for i in range(count)]
    for name in names:
        enqueue(user=make_member(name), game="puskiyon", players=4, bots_after_seconds=10)
    [table] = sweep(now=timezone.now() + timedelta(seconds=11)).tables
    assert seated(table) == [*names, *["bot"] * (4 - count)]
    assert table.status == Table.Status.RUNNING
    assert_each_seated_once(names)
    assert sweep(now=timezone.now() + timedelta(seconds=12)).tables == []


def test_members_due_together_who_cannot_share_get_their_own_tables(make_member) -> None:
    """Different counts: each member due gets a table of the count they asked for, once."""
    enqueue(user=make_member("two"), game="puskiyon", players=2, bots_after_seconds=10)
    enqueue(user=make_member("four"), game="puskiyon", players=4, bots_after_seconds=10)
    enqueue(user=make_member("three"), game="puskiyon", players=3, bots_after_seconds=10)
    tables = sweep(now=timezone.now() + timedelta(seconds=11)).tables
    assert sorted(seated(t) for t in tables) == [
        ["four", "bot", "bot", "bot"], ["three", "bot", "bot"], ["two", "bot"],
    ]
    assert_each_seated_once(["two", "three", "four"])


def test_members_with_any_count_due_together_share_the_default_table(make_member) -> None:
    """Two are too few for any Sheepshead table of members alone; once due, they share the default one."""
    for name in ("a", "b"):
        enqueue(user=make_member(name), game="sheepshead", bots_after_seconds=10)
    [table] = sweep(now=timezone.now() + timedelta(seconds=11)).tables
    assert seated(table) == ["a", "b", "bot", "bot", "bot"]
    assert_each_seated_once(["a", "b"])


@pytest.mark.django_db(transaction=True)
def test_sweeps_from_several_sockets_at_once_seat_everyone_due_once(make_member) -> None:
    """Every lobby socket may sweep: several sweeps at the same moment, with many members due together."""
    rng = random.Random(3)
    outcomes = Outcomes()
    for i in range(16):
        request = {**random_request(rng), "bots_after_seconds": rng.choice([10, 20])}
        outcomes.requested.add(enqueue(user=make_member(f"due{i}"), **request).pk)
    later = timezone.now() + timedelta(seconds=21)
    barrier = threading.Barrier(4)

    def sweeper() -> None:
        try:
            barrier.wait()
            sweep(now=later)
        except BaseException as error:  # anything unexpected fails the test
            outcomes.errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    check_invariants(outcomes)
    assert not QueueRequest.objects.filter(state=W.WAITING).exists()
