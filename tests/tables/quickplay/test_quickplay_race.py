"""Many members join and cancel quick play at the same moment (threads on SQLite).

Every thread waits at a barrier and then asks, some cancel at once, some ask twice from two
threads: afterwards nobody is seated twice, nobody who cancelled is seated, every table is full
and of one kind, and no request is lost.
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from tables.models import QueueRequest
from tables.play.services.errors import NotAllowed, TableError
from tables.quickplay.services.matchmaking import cancel, enqueue
from tests.tables.quickplay.support import Outcomes, check_invariants, random_request

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = 36


def storm(members: list, rng: random.Random) -> Outcomes:
    outcomes = Outcomes()
    lock = threading.Lock()
    plans = []
    for i, member in enumerate(members):
        # Every third member cancels at once. Some of those ask for a rare table (Sheepshead for three
        # at high stakes) that forms only among themselves, so cancels meet completions; a few ask for
        # a table nobody else wants (rounds=i), so some cancels always find the request still waiting.
        request = random_request(rng)
        if i % 6 == 0:
            request = {"game": "sheepshead", "players": 3, "band": "high"}
        if i % 12 == 0:
            request = {"game": "sheepshead", "players": 7, "band": "high", "options": {"rounds": 1 + i % 50}}
        plans.append((member, request, i % 3 == 0))
        if i % 5 == 0:  # the same member asks again from another tab at the same moment
            plans.append((member, random_request(rng), False))
    barrier = threading.Barrier(len(plans))

    def act(member, request: dict, then_cancel: bool) -> None:
        try:
            barrier.wait()
            try:
                made = enqueue(user=member, **request)
            except NotAllowed as error:
                with lock:
                    outcomes.refused.append(str(error))
                return
            with lock:
                outcomes.requested.add(made.pk)
            if then_cancel:
                try:
                    cancel(user=member)
                except NotAllowed as error:
                    assert "Too late" in str(error), error
                    with lock:
                        outcomes.too_late.add(member.pk)
                else:
                    with lock:
                        outcomes.cancelled.add(member.pk)
        except BaseException as error:  # anything unexpected fails the test
            with lock:
                outcomes.errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=plan) for plan in plans]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return outcomes


def test_joining_and_cancelling_at_once_loses_nobody_and_seats_nobody_twice(make_member) -> None:
    members = [make_member(f"racer{i}") for i in range(MEMBERS)]
    outcomes = storm(members, random.Random(11))
    summary = check_invariants(outcomes)
    assert summary["tables"] >= 3 and summary.get("cancelled", 0) >= 1
    # Every ask either made a request or was told why not: waiting already, or seated already.
    asks = MEMBERS + len(range(0, MEMBERS, 5))
    assert len(outcomes.requested) + len(outcomes.refused) == asks
    assert len(outcomes.refused) >= 1
    assert set(QueueRequest.objects.values_list("user_id", flat=True)) == {m.pk for m in members}
    assert all("waiting in quick play" in m or "already playing" in m for m in outcomes.refused), outcomes.refused


def cancel_against_completion(alice, bob) -> dict[str, str]:
    """Alice (waiting) cancels at the moment bob's request would complete their Hawsker table."""
    enqueue(user=alice, game="hawsker")
    barrier = threading.Barrier(2)
    told: dict[str, str] = {}

    def alice_cancels() -> None:
        barrier.wait()
        try:
            cancel(user=alice)
            told["alice"] = "cancelled"
        except TableError as error:
            told["alice"] = str(error)
        finally:
            connection.close()

    def bob_asks() -> None:
        barrier.wait()
        try:
            told["bob"] = enqueue(user=bob, game="hawsker").state
        finally:
            connection.close()

    threads = [threading.Thread(target=alice_cancels), threading.Thread(target=bob_asks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return told


def test_a_cancel_racing_the_request_that_completes_the_table_is_one_or_the_other(make_member) -> None:
    for round_number in range(8):
        alice, bob = make_member(f"alice{round_number}"), make_member(f"bob{round_number}")
        told = cancel_against_completion(alice, bob)
        if told["alice"] == "cancelled":
            assert told["bob"] == "waiting"
            assert not alice.seats.exists() and not bob.seats.exists()
            cancel(user=bob)
        else:
            assert "Too late" in told["alice"] and told["bob"] == "matched"
            assert alice.seats.get().table_id == bob.seats.get().table_id
