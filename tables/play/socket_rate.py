"""How fast one socket may send: a token bucket per socket, so one member cannot flood the process.

Every frame a browser sends costs the process something before anyone can tell it is junk (Daphne's read and
queue, a dispatch, an answer); 700,000 junk frames in 5 s over one table socket slowed every other member's pages
fifty-fold. Each socket may send `SOCKET_MESSAGE_BURST` messages at once and `SOCKET_MESSAGES_PER_SECOND` on
average after that; the first message over it closes the socket (tables/play/sockets.py, CLOSE_TOO_FAST).
A page sends a message per click (a move, "ready", a chat line), so a member never comes near either.

The bucket is the socket's own: two numbers on the consumer, read and written only from its event loop, charged
before the message is even parsed. A shared limiter (the `limits` or `pyrate-limiter` packages: keyed storage, a
lock, a clock and a dictionary look-up per call) would add to every frame what this check is there to save, and
bound nothing more: a socket's messages come to one consumer, in order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


def monotonic() -> float:
    """The bucket's clock (tests move it by hand)."""
    return time.monotonic()


@dataclass(slots=True)
class TokenBucket:
    """`burst` tokens at most, refilled at `rate` a second; each message takes one."""

    burst: float
    rate: float
    tokens: float = field(init=False)
    at: float = field(init=False)  # when `tokens` was counted

    def __post_init__(self) -> None:
        self.tokens, self.at = self.burst, monotonic()

    def take(self) -> bool:
        """One token, or False when the socket is over its rate (nothing is taken then)."""
        now = monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
