"""The Redis cache shares one client (and its connection pool) among the threads of a process, and a move's
table snapshot reaches another process's sockets through it without the members' private fields."""

from __future__ import annotations

import pickle
import threading

import pytest
from django.core.cache import cache, caches

from tables.play import snapshots
from tables.play.services.tables import create_table, join_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_threads_share_one_redis_client_and_see_each_others_values() -> None:
    clients: list[object] = []

    def in_a_thread(n: int) -> None:
        thread_cache = caches["default"]  # a backend of this thread's own, as every request thread gets
        thread_cache.set(f"shared-{n}", n, 30)
        clients.append(thread_cache._cache.get_client(write=True))
        caches.close_all()

    threads = [threading.Thread(target=in_a_thread, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert len(clients) == 4 and all(client is clients[0] for client in clients)
    assert [cache.get(f"shared-{n}") for n in range(4)] == [0, 1, 2, 3]


def test_a_moves_snapshot_is_in_the_shared_cache_without_private_fields(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2)
    join_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    snapshots.forget_here()  # as if the move had been made by another process
    shared = snapshots.recall(table.code, table.version)
    assert shared is not None and shared.version == table.version
    assert [seat.user_id for seat in shared.seats] == [alice.pk, bob.pk]
    assert [seat.user.shown_name for seat in shared.seats] == ["alice", "bob"]
    stored = pickle.dumps(shared)
    assert alice.password.encode() not in stored and b"@example.org" not in stored
