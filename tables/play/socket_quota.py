"""How many sockets each member holds open in this process, so one member cannot open them without end.

Every open socket costs a render and a frame at each change it hears of (two hundred lobby sockets of
one member made 22,000 frames and about six seconds of a process's CPU for one change), so each member
gets at most `SOCKETS_PER_MEMBER` (lobby and table sockets together) in each process.

The count is per process, in memory, exact and free. It is not read from the presence rows in the
database, which would bound the member across processes: those rows outlive a process that died or
restarted by up to `presence.STALE_AFTER`, and a member whose tabs all reconnect after a deploy would
find their own dead sockets counted and see some tabs refused with a code htmx never retries. With N
processes behind one address a member can therefore hold N times the cap, which still bounds what
each process spends on them.

Only the event loop's thread touches it (consumers run there), so it needs no lock.
"""

from __future__ import annotations

_held: dict[int, set[str]] = {}


def take(*, user_id: int, channel_name: str, limit: int) -> bool:
    """A place for this socket, or False when the member holds `limit` already (0: no cap)."""
    held = _held.setdefault(user_id, set())
    if channel_name not in held and limit and len(held) >= limit:
        return False
    held.add(channel_name)
    return True


def release(*, user_id: int, channel_name: str) -> None:
    held = _held.get(user_id)
    if held is not None:
        held.discard(channel_name)
        if not held:
            del _held[user_id]
