"""The notices' work on the table clock's passes (tables.play.background.add_job, from TablesConfig.ready)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from tables.notices import events, pushes, selectors, sending

LOOK_EVERY = timedelta(seconds=30)


class NoticeJob:
    """Every `LOOK_EVERY` (a clock pass in between costs nothing): scan the correspondence tables for notices due
    (tables.notices.events), then, once that has committed, send what the outbox holds due (the pushes,
    tables.notices.pushes, and the emails, tables.notices.sending), retries included. A deadline or a member's
    turn may wait up to `LOOK_EVERY` to be told: at tables of hours per move that is nothing. A look that fails
    leaves the job due, so the next pass looks again. `now` is for tests; the clock calls it without."""

    def __init__(self) -> None:
        self.next_look: datetime | None = None
        self.seat_to_act = selectors.SeatToAct()

    def __call__(self, now: datetime | None = None) -> datetime:
        now = now or timezone.now()
        if self.next_look is not None and now < self.next_look:
            return self.next_look
        self.next_look = None  # due until this look has succeeded
        events.scan(now=now, seat_to_act=self.seat_to_act)
        # at once, outside a transaction (the clock's); the pushes first and robust: an SMTP server that fails in a
        # way nobody foresaw (logged) keeps no device from its push, nor the other way round
        transaction.on_commit(partial(pushes.send_pushes_due, now=now), robust=True)
        transaction.on_commit(partial(sending.send_due, now=now))
        self.next_look = now + LOOK_EVERY
        return self.next_look
