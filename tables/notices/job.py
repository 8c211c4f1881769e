"""The notices' work on the table clock's passes (tables.play.background.add_job, from TablesConfig.ready)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from tables.notices import events, pushes, selectors, sending
from tables.notices.off_the_pass import run_now

log = logging.getLogger(__name__)

LOOK_EVERY = timedelta(seconds=30)


def send_all_due(*, now: datetime) -> None:
    """The pushes first, then the emails: a push service that fails in a way nobody foresaw (logged) keeps no
    email from going out; an email failure raises (logged by whoever runs this)."""
    try:
        pushes.send_pushes_due(now=now)
    except Exception:
        log.exception("notices: pushing failed; what is still due is pushed by a later look")
    sending.send_due(now=now)


class NoticeJob:
    """Every `LOOK_EVERY` (a clock pass in between costs nothing): scan the correspondence tables for notices due
    (tables.notices.events), then, once that has committed, send what the outbox holds due (the pushes,
    tables.notices.pushes, and the emails, tables.notices.sending), retries included. A deadline or a member's
    turn may wait up to `LOOK_EVERY` to be told: at tables of hours per move that is nothing. A look that fails
    leaves the job due, so the next pass looks again. `now` is for tests; the clock calls it without.

    `send` runs the sending: the clock's job is given a thread of its own (tables.notices.off_the_pass, so a relay
    or push service that stops answering never holds up the clock's pass); by default the look sends itself."""

    def __init__(self, *, send: Callable[[Callable[[], object]], bool] = run_now) -> None:
        self.next_look: datetime | None = None
        self.seat_to_act = selectors.SeatToAct()
        self.send = send

    def __call__(self, now: datetime | None = None) -> datetime:
        now = now or timezone.now()
        if self.next_look is not None and now < self.next_look:
            return self.next_look
        self.next_look = None  # due until this look has succeeded
        events.scan(now=now, seat_to_act=self.seat_to_act)
        # once the scan's rows are committed (at once, outside a transaction: the clock's)
        transaction.on_commit(partial(self.send, partial(send_all_due, now=now)))
        self.next_look = now + LOOK_EVERY
        return self.next_look
