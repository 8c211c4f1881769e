"""A socket the site closes for flooding is read no further: Daphne stops reading its connection once the close is
sent.

After an application's close, Daphne (autobahn underneath) waits for the client's close in answer, reading and
parsing every frame the client still sends, for up to autobahn's close-handshake timeout (1 s). A flooding client
that never reads never answers: that second of one-byte frames (tens of thousands, parsed on the event loop every
socket and page of the process shares) was most of what a flood cost the others after the site had closed the
socket for it (bench/socket_flood.py). So after a close with one of the codes given to `install` (the socket's
rate, tables/play/sockets.py) the connection is no longer read (Twisted's `pauseProducing`): the close frame is
already written, so the page learns the code, and the same timeout then drops the connection. It is not dropped
at once: closing a socket with unread data sends a reset, which can destroy the close frame before the client
reads it.

This restates Daphne's `serverClose` (pinned in pyproject.toml; tests/test_upstream_pins.py fails when it changes).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable
from typing import Any


def install(*, codes: Iterable[int]) -> None:
    """Under Daphne only (its protocol module is loaded by then); once per process."""
    module = sys.modules.get("daphne.ws_protocol")
    if module is None:
        return
    protocol = module.WebSocketProtocol
    if getattr(protocol.serverClose, "stops_reading_after", None) is not None:
        return
    close = protocol.serverClose
    stopping = frozenset(codes)

    @functools.wraps(close)  # the pin (tests/test_upstream_pins.py) reads Daphne's own source through __wrapped__
    def serverClose(self: Any, code: int | None = None) -> None:
        close(self, code=code)
        if code in stopping and self.transport is not None:
            self.transport.pauseProducing()

    serverClose.stops_reading_after = stopping  # type: ignore[attr-defined]
    protocol.serverClose = serverClose
