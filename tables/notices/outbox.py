"""The outbox's writes (tables.models.Notice): adding a notice once, claiming one to send, and marking how the
try went. Each is one statement or one transaction of its own.

Never twice for one event: a notice's `key` is unique, so an event found again (by the next scan, by another
process) adds nothing; a row is sent only by the process whose conditional UPDATE claimed it (`claim`), and it is
marked sent at once after the SMTP server accepted it. The one gap left is between those two: a process that dies
(or loses its database) after the server accepted the email and before `mark_sent` committed leaves the row
unsent, and once its claim has run out another process sends it again. That duplicate is the price of never
losing one; every other path sends each notice at most once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import User
from tables.models import Notice, Table

log = logging.getLogger(__name__)

CLAIM = timedelta(minutes=5)  # how long a sender holds a row: well past an SMTP call's EMAIL_TIMEOUT
MAX_ATTEMPTS = 8  # failed tries before a notice is given up (the backoff below spreads them over about a day)
BACKOFF = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15), timedelta(hours=1), timedelta(hours=3))


def notice_key(kind: str, *parts: object) -> str:
    """The outbox key of an event: its kind and what names it, e.g. `turn:<table>:<round>:<moves made>:<member>`."""
    return ":".join([kind, *(str(part) for part in parts)])


def add_notice(*, key: str, kind: str, user: User, now: datetime, table: Table | None = None,
               data: Mapping[str, Any] | None = None, channel: str = Notice.Channel.EMAIL) -> bool:
    """The notice of one event for one member, unless it is there already; True when this call added it. Inside
    a savepoint: a row another process added meanwhile (the unique key) is "already there", and the caller's
    transaction goes on."""
    try:
        with transaction.atomic():
            Notice.objects.create(key=key, kind=kind, user=user, table=table, data=dict(data or {}), created_at=now,
                                  next_try_at=now, channel=channel)
    except IntegrityError:
        return False
    return True


def due(now: datetime, *, limit: int, channel: str = Notice.Channel.EMAIL) -> list[int]:
    """The ids of notices of `channel` to send now, oldest first: unsent, not given up, their time come, nobody's
    claim on them (or a claim run out: that sender stopped)."""
    return list(Notice.objects.filter(sent_at__isnull=True, next_try_at__lte=now, channel=channel)
                .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
                .order_by("next_try_at", "pk").values_list("pk", flat=True)[:limit])


def claim(notice_id: int, *, now: datetime) -> datetime | None:
    """This process's hold on the notice, by a conditional UPDATE that only one process's statement can win (the
    row as `due` found it: unsent, due, unclaimed); returns the claim's end (the token `mark_*` check), or None
    when another process has it or it is no longer due."""
    until = now + CLAIM
    won = Notice.objects.filter(pk=notice_id, sent_at__isnull=True, next_try_at__lte=now).filter(
        Q(claimed_until__isnull=True) | Q(claimed_until__lte=now)).update(claimed_until=until)
    return until if won == 1 else None


def mark_sent(notice_id: int, *, claimed_until: datetime, now: datetime) -> bool:
    """The SMTP server took it: sent, never to be tried again. Only under this process's claim."""
    return Notice.objects.filter(pk=notice_id, claimed_until=claimed_until, sent_at__isnull=True).update(
        sent_at=now, next_try_at=None, claimed_until=None) == 1


def mark_failed(notice_id: int, *, claimed_until: datetime, now: datetime, error: str,
                data: Mapping[str, Any] | None = None) -> None:
    """A try that failed: counted, and tried again after a longer wait each time; after `MAX_ATTEMPTS` given up.
    Both are logged (the notice's key and the error; never the email's text). `data`: the notice's data as the try
    left it (a push's devices already reached, not to be told again)."""
    with transaction.atomic():
        notice = Notice.objects.select_for_update().filter(pk=notice_id, claimed_until=claimed_until).first()
        if notice is None:
            return  # the claim ran out and another sender has it: theirs to record
        if data is not None:
            notice.data = dict(data)
        notice.attempts += 1
        notice.last_error = error[:300]
        notice.claimed_until = None
        if notice.attempts >= MAX_ATTEMPTS:
            notice.next_try_at, notice.given_up_at = None, now
            log.error("email notice %s: gave up after %s failed tries: %s", notice.key, notice.attempts, error)
        else:
            notice.next_try_at = now + BACKOFF[min(notice.attempts, len(BACKOFF)) - 1]
            log.warning("email notice %s: try %s failed, again at %s: %s", notice.key, notice.attempts,
                        notice.next_try_at.isoformat(), error)
        notice.save(update_fields=["attempts", "last_error", "claimed_until", "next_try_at", "given_up_at", "data"])


def drop(notice_id: int, *, claimed_until: datetime, now: datetime, reason: str) -> None:
    """Not to be sent at all (no longer true, no longer wanted): given up with the reason, without a try."""
    Notice.objects.filter(pk=notice_id, claimed_until=claimed_until).update(
        next_try_at=None, given_up_at=now, claimed_until=None, last_error=reason[:300])

