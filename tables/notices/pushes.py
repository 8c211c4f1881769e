"""Sending the outbox's pushes: each notice of the push channel claimed, written in its member's language, pushed to
every device they subscribed (accounts.webpush) and marked, as the emails are (tables.notices.sending).

Once per device: a try that reached some devices and not others records the ones reached in the notice's data, and
the retry pushes to the others alone. A member whose devices are all gone by the time it is sent (unsubscribed, or
the push service said so) has nothing to be told: the notice is dropped with that reason. What a push says is a
title and a sentence naming the table, as a lock screen may show anyone: never a card (tests/tables/notices check
every push they make, decrypted, as they check every email).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts import webpush
from accounts.languages import saved_language
from accounts.templatetags.member_time import when_text
from accounts.time_zones import zone_named
from tables.models import Notice
from tables.notices import emails, outbox

log = logging.getLogger(__name__)

BATCH = 50


def message_for(notice: Notice, *, now: datetime) -> webpush.Message | str:
    """The push of `notice` (its member and table loaded), in the member's language and zone; or why it is not to
    be sent any more (the turn it names has passed, the deadline too)."""
    user, table = notice.user, notice.table
    assert table is not None, "pushes are about one table each"
    with translation.override(saved_language(user) or settings.LANGUAGE_CODE), \
            timezone.override(zone_named(user.time_zone)):
        name = str(table)
        if notice.kind in (Notice.Kind.TURN, Notice.Kind.REMINDER):
            turn = emails.still_their_turn(notice)
            if turn is None:
                return "no longer the member's turn"
            if turn.deadline is None or turn.deadline <= now:
                return "the deadline has passed"
            by = when_text(turn.deadline)
            if notice.kind == Notice.Kind.TURN:
                title = gettext("Your turn")
                body = gettext("At %(table)s, by %(deadline)s.") % {"table": name, "deadline": by}
            else:
                title = gettext("Your time runs out in %(left)s") % {"left": emails.time_left(turn.deadline - now)}
                body = gettext("At %(table)s: move by %(deadline)s, or the bot plays for you.") % {
                    "table": name, "deadline": by}
        elif notice.kind == Notice.Kind.TIMEOUT:
            title = gettext("Time ran out: the bot played for you.")
            body = name
        elif notice.kind == Notice.Kind.MATCH_OVER:
            title = gettext("The match is over")
            body = name
        else:
            return f"no push for a notice of kind {notice.kind!r}"
    return webpush.Message(title=title, body=body, url=reverse("table", args=[table.code]), tag=f"table-{table.code}")


def send_pushes_due(*, now: datetime | None = None, limit: int = BATCH) -> int:
    """Push the notices of the push channel due as of `now`; how many were sent (to at least one device each)."""
    now = now or timezone.now()
    sent = 0
    for notice_id in outbox.due(now, limit=limit, channel=Notice.Channel.PUSH):
        claimed = outbox.claim(notice_id, now=now)
        if claimed is None:
            continue  # another process has it, or sent it since `due` read it
        notice = Notice.objects.select_related("user", "table").get(pk=notice_id)
        try:
            message = message_for(notice, now=now)
        except Exception as error:  # one push that cannot be written keeps none of the others back
            log.exception("push notice %s: could not be written", notice.key)
            outbox.mark_failed(notice_id, claimed_until=claimed, now=now, error=f"composing: {error!r}")
            continue
        if isinstance(message, str):
            outbox.drop(notice_id, claimed_until=claimed, now=now, reason=message)
            continue
        done = [int(pk) for pk in notice.data.get("pushed", [])]
        reached = webpush.send_to_member(user_id=notice.user_id, message=message, done=done)
        pushed = [*done, *reached.delivered]
        if reached.failed:
            outbox.mark_failed(notice_id, claimed_until=claimed, now=now,
                               error=f"{reached.failed} device(s) not reached", data={**notice.data, "pushed": pushed})
        elif not pushed:
            outbox.drop(notice_id, claimed_until=claimed, now=now, reason="the member has no device subscribed")
        elif outbox.mark_sent(notice_id, claimed_until=claimed, now=timezone.now()):
            sent += 1
        else:  # the claim ran out while the services took it: another process may push it again
            log.warning("push notice %s: sent after its claim ran out", notice.key)
    return sent
