"""The table clock's wake-ups: after a commit that made something due sooner, this process's clock is told.

The services (play, presence) say what their transaction made due (`after_commit`); the process's clock
(tables.play.background) listens once it runs (`listen`). This module knows neither, so the dependency runs one way:
the clock uses the services (its sweep) and this module, the services use this module, and this module uses nothing
of the clock's (an import-linter contract in pyproject.toml fails the build if a service imports the clock again).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import transaction

Waker = Callable[[datetime], None]
_waker: Waker | None = None


def listen(waker: Waker | None) -> None:
    """`waker(at)` is told every wake-up of this process from now on, from whichever thread commits (None: nobody
    listens, as when the clock stops)."""
    global _waker
    _waker = waker


def wake(at: datetime) -> None:
    """Tell the listening clock to look at `at` rather than later (nothing when no clock listens)."""
    waker = _waker
    if waker is not None:
        waker(at)


def after_commit(at: datetime) -> None:
    """Once the current transaction commits, wake this process's clock if `at` is sooner than it planned to look.
    Robust: a wake-up that fails is logged and the commit's other callbacks still run."""

    def wake_the_clock() -> None:  # named: Django's log of a failed robust callback reads its __qualname__
        wake(at)

    transaction.on_commit(wake_the_clock, robust=True)
