"""A sweep that forms many tables at once still reaches every member it seated.

A lobby socket reads its channel only between batches, and a channel holds a bounded number of
messages: the personal "your table is ready" notices must not queue behind one "lobby changed" per
formed table (with 150 tables those alone overflowed the channel, and the notices were dropped).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from config.channel_layer import SweepingInMemoryChannelLayer
from tables.models import QueueRequest
from tables.play import push
from tables.quickplay import push as quickplay_push
from tables.quickplay.services.matchmaking import EXPIRES_AFTER, clean_request, sweep

pytestmark = pytest.mark.django_db(transaction=True)  # the sweep commits, so its pushes go out

TABLES = 150


def drain(layer: SweepingInMemoryChannelLayer, channel: str) -> list[dict]:
    """Everything waiting on the channel now, in order."""

    async def read() -> list[dict]:
        got: list[dict] = []
        while layer.channels.get(channel) is not None and not layer.channels[channel].empty():
            got.append(await asyncio.wait_for(layer.receive(channel), timeout=1))
        return got

    return async_to_sync(read)()


def test_a_sweep_forming_many_tables_tells_every_member_and_the_lobby_once(make_member) -> None:
    layer = get_channel_layer()
    assert isinstance(layer, SweepingInMemoryChannelLayer)  # the default tier's layer, with the site's capacity
    async_to_sync(layer.flush)()
    members = [make_member(f"q{i}") for i in range(2 * TABLES)]
    clean = clean_request(game="hawsker", players=None, band="standard", options=None, bots_after_seconds=None)
    now = timezone.now()
    QueueRequest.objects.bulk_create(  # waiting already (as after a restart): the next sweep seats them all
        QueueRequest(user=m, game=clean.game, players=clean.players, band=clean.band, options=clean.options,
                     created_at=now + timedelta(microseconds=i), expires_at=now + EXPIRES_AFTER)
        for i, m in enumerate(members)
    )
    sockets: dict[int, str] = {}
    for member in members:  # each member's lobby socket: the lobby group and their own group
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(push.LOBBY_GROUP, channel)
        async_to_sync(layer.group_add)(push.user_group(member.pk), channel)
        sockets[member.pk] = channel
    onlooker = async_to_sync(layer.new_channel)()  # a lobby socket of someone not waiting
    async_to_sync(layer.group_add)(push.LOBBY_GROUP, onlooker)

    report = sweep(game="hawsker")

    assert len(report.tables) == TABLES
    table_of = {r.user_id: r.table for r in QueueRequest.objects.select_related("table")}
    got = {member.username: drain(layer, sockets[member.pk]) for member in members}
    untold = [member.username for member in members
              if [m for m in got[member.username] if m["type"] == "user.notice"]
              != [{"type": "user.notice", "kind": "table_ready", "table": table_of[member.pk].code, "game": "hawsker",
                   "name": table_of[member.pk].name}]]
    assert untold == []
    assert {name: [m["type"] for m in messages].count("lobby.changed") for name, messages in got.items()} == {
        member.username: 1 for member in members}
    seen = [m["type"] for m in drain(layer, onlooker)]
    assert sorted(seen) == ["lobby.changed", "queue.changed"]  # one of each for the whole batch


def test_a_batch_keeps_table_versions_in_order_and_sends_each_lobby_message_once(monkeypatch) -> None:
    sent: list[tuple[str, dict]] = []

    async def record(group: str, message: dict) -> None:
        sent.append((group, message))

    monkeypatch.setattr(get_channel_layer(), "group_send", record)
    table = SimpleNamespace(pk=7, version=1)

    @push.batched
    def service() -> None:
        with transaction.atomic():
            quickplay_push.queue_changed(members=[1])
            push.table_changed(table)
            push.lobby_changed()
            table.version = 2
            push.table_changed(table)
            push.user_notice(user_id=3, kind="hello")
            quickplay_push.queue_changed(members=[2, 1])
            push.lobby_changed()

    service()
    assert sent == [
        ("table-7", {"type": "table.changed", "version": 1}),
        ("table-7", {"type": "table.changed", "version": 2}),
        ("user-3", {"type": "user.notice", "kind": "hello"}),
        ("lobby", {"type": "queue.changed", "members": [1, 2]}),  # every member who must re-render their panel
        ("lobby", {"type": "lobby.changed"}),
    ]
