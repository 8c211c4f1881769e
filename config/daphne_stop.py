"""A socket the site closes for flooding is read no further: Daphne stops reading its connection once the close is
sent, tells the client it will send nothing more, and drops the connection a few seconds later.

After an application's close, Daphne (autobahn underneath) waits for the client's close in answer, reading and
parsing every frame the client still sends, for up to autobahn's close-handshake timeout (1 s). A flooding client
that never reads never answers: that second of one-byte frames (tens of thousands, parsed on the event loop every
socket and page of the process shares) was most of what a flood cost the others after the site had closed the
socket for it (bench/socket_flood.py). So after a close with one of the codes given to `install` (the socket's
rate, tables/play/sockets.py):

- the connection is no longer read (Twisted's `pauseProducing`): a paused connection costs the process nothing;
- its write side is shut once the close frame is out (`loseWriteConnection`: a FIN after the frame), so a client
  that reads learns the code and sees the connection end at once, as a browser does after a server's close;
- it is dropped `GRACE` seconds later (the close-handshake timeout, set for this connection only). Dropping it
  sends a reset, as the client's unread frames are still queued, and a reset can destroy the close frame in a
  client that has not read it yet. Autobahn's 1 s was too short for that: a client process that did not run for
  over a second on a loaded machine lost the code (seen in CI, and reproduced by stalling the client 1.5 s).

This restates Daphne's `serverClose` and relies on autobahn reading `closeHandshakeTimeout` when it sends the close
frame (both pinned in pyproject.toml; tests/test_upstream_pins.py fails when either changes).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable
from typing import Any

GRACE = 5.0  # seconds a flooder's closed connection is kept (unread) before it is dropped: its close frame's time


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
        if code not in stopping:
            close(self, code=code)
            return
        self.closeHandshakeTimeout = GRACE  # read as the close frame is sent: this connection's drop timer
        close(self, code=code)
        if self.transport is not None:
            self.transport.pauseProducing()
            self.transport.loseWriteConnection()

    serverClose.stops_reading_after = stopping  # type: ignore[attr-defined]
    protocol.serverClose = serverClose
