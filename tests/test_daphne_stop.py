"""Under Daphne, a socket the site closes for its rate is read no further once the close frame is written, so
nothing more the flooding client sends is parsed, its write side is shut after the frame, and it is dropped only
after a grace long enough for a slow client to read the code (config/daphne_stop.py); every other close keeps
Daphne's close handshake and autobahn's timeout."""

from __future__ import annotations

import pytest
from daphne.ws_protocol import WebSocketProtocol

from config import daphne_stop
from tables.play.sockets import CLOSE_TOO_FAST, CLOSE_TRY_AGAIN


class Recorded:
    """Stands in for Daphne's protocol below `serverClose` and its transport: what they were asked to do, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.transport = self
        self.closeHandshakeTimeout = 1  # autobahn's default

    def sendClose(self, code: int | None = None) -> None:
        self.calls.append(("close frame", code))
        self.calls.append(("drop after", self.closeHandshakeTimeout))  # autobahn reads it as it sends the frame

    def pauseProducing(self) -> None:
        self.calls.append(("stop reading", None))

    def loseWriteConnection(self) -> None:
        self.calls.append(("end of writing", None))


def test_a_close_for_the_rate_stops_reading_after_the_close_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(WebSocketProtocol, "serverClose", WebSocketProtocol.serverClose)  # restored afterwards
    daphne_stop.install(codes=[CLOSE_TOO_FAST])
    daphne_stop.install(codes=[CLOSE_TOO_FAST])  # once per process: a second install wraps nothing again
    flooder, other = Recorded(), Recorded()
    WebSocketProtocol.serverClose(flooder, code=CLOSE_TOO_FAST)
    WebSocketProtocol.serverClose(other, code=CLOSE_TRY_AGAIN)
    assert flooder.calls == [("close frame", CLOSE_TOO_FAST), ("drop after", daphne_stop.GRACE), ("stop reading", None),
                             ("end of writing", None)]
    assert daphne_stop.GRACE > 1  # longer than autobahn's second, which a client stalled on a loaded machine missed
    assert other.calls == [("close frame", CLOSE_TRY_AGAIN), ("drop after", 1)]
