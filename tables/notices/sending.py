"""Sending the outbox: the notices due, each claimed, composed, handed to the SMTP server and marked.

Runs after the scan's commit (tables.notices.job), so it only ever sees committed rows, and outside any
transaction: each claim and each mark commits on its own, so a claim is seen by every other process at once and a
mark is never rolled back by something later in the batch. See tables.notices.outbox for why a notice is sent at
most once, and for the one gap (a crash between the server's accept and the mark).
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime

from django.core.mail import get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

from tables.models import Notice
from tables.notices import emails, outbox
from tables.notices.preferences import wants

log = logging.getLogger(__name__)

BATCH = 50  # notices one look sends at most: a clock's pass stays short, the rest go on the next look


def send_due(*, now: datetime | None = None, limit: int = BATCH) -> int:
    """Send the notices due as of `now`; returns how many went out. A notice that fails is counted and tried again
    later (tables.notices.outbox.mark_failed); when the server cannot be reached at all the batch stops there, and
    the rest wait for the next look without a try counted against them."""
    now = now or timezone.now()
    connection: BaseEmailBackend | None = None
    sent = 0
    try:
        for notice_id in outbox.due(now, limit=limit):
            claimed = outbox.claim(notice_id, now=now)
            if claimed is None:
                continue  # another process has it, or sent it since `due` read it
            notice = Notice.objects.select_related("user", "table").get(pk=notice_id)
            if not wants(notice.user, notice.kind):
                outbox.drop(notice_id, claimed_until=claimed, now=now, reason="the member turned these emails off")
                continue
            try:
                message = emails.compose(notice, now=now)
            except Exception as error:  # a bug in one email keeps none of the others back
                log.exception("email notice %s: could not be written", notice.key)
                outbox.mark_failed(notice_id, claimed_until=claimed, now=now, error=f"composing: {error!r}")
                continue
            if isinstance(message, str):
                outbox.drop(notice_id, claimed_until=claimed, now=now, reason=message)
                continue
            try:
                if connection is None:
                    connection = get_connection(fail_silently=False)
                    connection.open()
                connection.send_messages([message])
            except (smtplib.SMTPException, OSError) as error:
                outbox.mark_failed(notice_id, claimed_until=claimed, now=now, error=repr(error))
                # A refusal (451 to DATA, a refused address) is this email's; no connection at all is everyone's.
                unreachable = (not isinstance(error, smtplib.SMTPException)
                               or isinstance(error, (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError)))
                if connection is not None:
                    _close(connection)
                    connection = None
                if unreachable:
                    break
                continue
            if outbox.mark_sent(notice_id, claimed_until=claimed, now=timezone.now()):
                sent += 1
            else:  # the claim ran out while the server was taking it: another process may send it again
                log.warning("email notice %s: sent after its claim ran out", notice.key)
    finally:
        if connection is not None:
            _close(connection)
    return sent


def _close(connection: BaseEmailBackend) -> None:
    try:
        connection.close()
    except (smtplib.SMTPException, OSError):
        log.warning("email notices: closing the SMTP connection failed", exc_info=True)
