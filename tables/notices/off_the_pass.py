"""The notices are sent on a thread of their own, never on the table clock's pass.

Why: sending talks to servers the club does not run (the SMTP relay, the members' push services), each call with a
timeout of its own (EMAIL_TIMEOUT, accounts.webpush.TIMEOUT: 10 s) and up to a batch of them a look. Sent on the
clock's pass, a relay or a push service that stopped answering held up the pass, and with it every paced bot, every
time-out and every deal of every table of the process, for as long as those timeouts added up (the pass is given up
only after TABLE_CLOCK_PASS_TIMEOUT, 60 s). Now the pass only starts the sending and goes on.

One sending runs at a time per process. A look that finds the last one still running starts none: what is due stays
in the outbox (tables.notices.outbox), and a later look sends it; the outbox's claims keep two processes from
sending a notice twice, as before. A sending that fails is logged and leaves the notices due.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import connections

log = logging.getLogger(__name__)


def run_now(work: Callable[[], object]) -> bool:
    """Sending as part of the look itself (tests, and a look's callers that want it done when it returns)."""
    work()
    return True


class OffThePass:
    """Calls `work` on a thread of its own, unless the work it started last is still running."""

    def __init__(self, *, name: str = "notices-sending") -> None:
        self.name = name
        self._lock = threading.Lock()
        self._running: threading.Thread | None = None

    def __call__(self, work: Callable[[], object]) -> bool:
        """True: started; False: the last sending is still running (nothing started: a later look sends)."""
        with self._lock:
            if self._running is not None and self._running.is_alive():
                return False
            self._running = threading.Thread(target=self._run, args=(work,), name=self.name, daemon=True)
            self._running.start()
            return True

    def busy(self) -> bool:
        with self._lock:
            return self._running is not None and self._running.is_alive()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception:
            log.exception("notices: sending failed; what is still due is sent by a later look")
        finally:
            connections.close_all()  # this thread's own connections: a pooled one goes back to the pool
