"""Work done after a commit (the shared snapshot, the pushes) may fail; what was committed stands.

A move that committed is the member's move: a cache or channel layer that fails afterwards is logged,
the other after-commit work still runs, and the mover is told the move was made.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client

from tables.models import Move, Table
from tables.play import push, snapshots
from tables.play.services.tables import add_bot, create_table, join_table
from tables.quickplay.services.matchmaking import enqueue
from tests.tables.helpers import legal_for, seat_to_act

pytestmark = pytest.mark.django_db(transaction=True)  # the move commits, so its after-commit work runs


def running_table(first, second) -> Table:
    table = create_table(creator=first, game="puskiyon", players=4, turn_seconds=600)
    join_table(table_id=table.pk, user=second)
    add_bot(table_id=table.pk, user=first)
    add_bot(table_id=table.pk, user=first)
    table.refresh_from_db()
    return table


def listen(group: str) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return channel


def received(channel: str) -> dict:
    async def receive() -> dict:
        import asyncio

        return await asyncio.wait_for(get_channel_layer().receive(channel), timeout=2)

    return async_to_sync(receive)()


def logged_in(table: Table, members: dict) -> tuple[Client, object]:
    """The client of the member to move, logged in before anything is broken (sessions use the cache)."""
    mover = members[seat_to_act(table)]
    client = Client(raise_request_exception=False)  # a crash shows as the 500 a member would get
    client.force_login(mover)
    return client, mover


def post_a_move(table: Table, client: Client) -> object:
    move = legal_for(table, seat_to_act(table))[0]
    response = client.post(f"/t/{table.code}/move/", {"move": move, "version": table.version},
                           HTTP_HX_REQUEST="true")
    return response


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info is not None]


def test_a_failing_shared_cache_after_the_move_commits_loses_neither_the_move_nor_its_push(
        make_member, settings, monkeypatch, caplog) -> None:
    settings.TABLE_SNAPSHOTS_SHARED = True  # as with several processes: the snapshot also goes to the cache

    def broken_set(self, *args, **kwargs):
        raise ConnectionError("the cache is down")

    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    before = table.version
    channel = listen(push.table_group(table.pk))
    client, mover = logged_in(table, {0: alice, 1: bob})
    monkeypatch.setattr(LocMemCache, "set", broken_set)
    with caplog.at_level(logging.ERROR):
        response = post_a_move(table, client)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version > before
    assert Move.objects.filter(user=mover).count() == 1
    assert f'data-version="{table.version}"' in response.content.decode()
    message = received(channel)
    assert message == {"type": "table.changed", "version": table.version}
    logged = errors_logged(caplog)
    assert logged and any("the cache is down" in str(r.exc_info[1]) for r in logged)
    assert snapshots.recall_here(table.code, table.version) is not None  # this process still has it


def test_a_failing_channel_layer_after_the_move_commits_is_logged_and_the_move_stands(
        make_member, monkeypatch, caplog) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    before = table.version
    layer = get_channel_layer()

    async def broken_send(group, message):
        raise ConnectionError("the channel layer is down")

    client, mover = logged_in(table, {0: alice, 1: bob})
    monkeypatch.setattr(layer, "group_send", broken_send)
    with caplog.at_level(logging.ERROR):
        response = post_a_move(table, client)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version > before and Move.objects.filter(user=mover).count() == 1
    assert any("the channel layer is down" in str(r.exc_info[1]) for r in errors_logged(caplog))


def test_a_failing_channel_layer_after_quick_play_seats_members_does_not_fail_the_request(
        make_member, monkeypatch, caplog) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    enqueue(user=alice, game="hawsker")
    layer = get_channel_layer()

    async def broken_send(group, message):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(layer, "group_send", broken_send)
    with caplog.at_level(logging.ERROR):
        made = enqueue(user=bob, game="hawsker")
    assert made.state == "matched" and made.table is not None
    assert made.table.seats.filter(user__in=[alice, bob]).count() == 2
    assert any("the channel layer is down" in str(r.exc_info[1]) for r in errors_logged(caplog))
