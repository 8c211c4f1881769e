"""Channels' in-memory layer, with its expiry sweep run once a second instead of on every message.

Why: `InMemoryChannelLayer` walks every channel and every group membership of the process before each
`receive` and each `group_send` (`_clean_expired`). Every connected socket waits in `receive`, so one push
to a table of two sockets walked the whole process three times: with 400 sockets that sweep was the single
largest cost of a move (a sixth of the CPU of a Daphne process doing nothing else, measured with py-spy on
bench/floor_app.py), and it grows with the square of the sockets. Expiry here is 60 s for messages and a
day for group memberships, so sweeping at most once a second changes nothing a member could notice.

`group_send` also hands the message to each member channel directly rather than through a task per
channel: `send` never waits (it raises `ChannelFull` at once), so the tasks only added scheduling.
"""

from __future__ import annotations

import time
from contextlib import suppress
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_SECONDS = 1.0


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args: Any, sweep_seconds: float = SWEEP_SECONDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sweep_seconds = sweep_seconds
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_seconds
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            with suppress(ChannelFull):  # as the parent: a full channel misses it, the others still get it
                await self.send(channel, message)

    async def flush(self) -> None:
        await super().flush()
        self._next_sweep = 0.0
