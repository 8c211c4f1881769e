"""The in-memory channel layer the site runs on by default (config/channel_layer.py): every member of a
group still gets every message, expired messages and their channels are still swept, and the sweep runs at
most once per interval whatever the traffic."""

from __future__ import annotations

from config import channel_layer
from config.channel_layer import SweepingInMemoryChannelLayer


async def test_group_send_reaches_every_member_with_its_own_copy() -> None:
    layer = SweepingInMemoryChannelLayer()
    a, b, c = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("t.abc", a)
    await layer.group_add("t.abc", b)
    await layer.group_add("t.other", c)
    await layer.group_send("t.abc", {"type": "table.changed", "moves": [1]})
    got_a, got_b = await layer.receive(a), await layer.receive(b)
    assert got_a == got_b == {"type": "table.changed", "moves": [1]}
    got_a["moves"].append(2)
    assert got_b["moves"] == [1]  # each recipient its own copy, as Channels' layer does
    assert c not in layer.channels  # the other group got nothing


async def test_a_full_channel_misses_the_message_and_the_others_still_get_it() -> None:
    layer = SweepingInMemoryChannelLayer(capacity=1)
    full, free = await layer.new_channel(), await layer.new_channel()
    await layer.send(full, {"type": "first"})
    await layer.group_add("g", full)
    await layer.group_add("g", free)
    await layer.group_send("g", {"type": "second"})
    assert await layer.receive(free) == {"type": "second"}
    assert await layer.receive(full) == {"type": "first"}
    assert full not in layer.channels  # "second" was never queued for it


async def test_expired_messages_are_swept_with_their_channel_at_most_once_per_interval(monkeypatch) -> None:
    clock = {"wall": 1000.0, "mono": 50.0}
    monkeypatch.setattr("channels.layers.time.time", lambda: clock["wall"])
    monkeypatch.setattr(channel_layer.time, "monotonic", lambda: clock["mono"])
    layer = SweepingInMemoryChannelLayer(expiry=60, sweep_seconds=1.0)
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", stale)
    await layer.group_add("g", fresh)
    await layer.send(stale, {"type": "old"})

    clock["wall"] += 61  # the message is now past its expiry
    await layer.group_send("g", {"type": "x"})  # sweeps: the stale channel loses its message and its group
    assert stale not in layer.groups["g"] and fresh in layer.groups["g"]
    assert await layer.receive(fresh) == {"type": "x"}

    await layer.send(stale, {"type": "again"})
    clock["wall"] += 61
    await layer.group_send("g", {"type": "y"})  # within the same second: no sweep yet
    assert layer.channels[stale].qsize() == 1
    clock["mono"] += 1.0
    await layer.group_send("g", {"type": "z"})  # a second later: swept
    assert stale not in layer.channels


async def test_with_no_interval_every_call_sweeps_as_channels_does(monkeypatch) -> None:
    clock = {"wall": 1000.0}
    monkeypatch.setattr("channels.layers.time.time", lambda: clock["wall"])
    layer = SweepingInMemoryChannelLayer(expiry=5, sweep_seconds=0.0)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "old"})
    clock["wall"] += 6
    await layer.group_send("nobody", {"type": "x"})
    assert channel not in layer.channels
