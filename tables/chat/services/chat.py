"""Writing to the chat: a line, a mute, staff hiding lines. Each one transaction; its push leaves after commit."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import disarm
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from tables.chat import push, selectors
from tables.chat.errors import ChatError
from tables.models import ChatMessage, ChatMute, Table
from tables.play import privacy

MAX_CHARS = 300
# (lines, seconds): at most 5 lines in any 10 seconds and 30 in any 5 minutes, per member, across all chats.
RATE_LIMITS = ((5, 10), (30, 300))


def clean_text(text: str) -> str:
    """Trimmed, with control characters (a pasted tab, a line break, a NUL) made spaces: a line is one line. Bidi
    controls are dropped: a right-to-left override would make a line read differently from what it holds, or run
    on into the name and time beside it (issue 39)."""
    line = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return disarm.strip_bidi(line).strip()


def shows_something(line: str) -> bool:
    """Whether anything is left to see once invisible characters (zero-width spaces, fillers, soft hyphens) are
    gone: a line of them would be an empty line under a member's name."""
    return bool(disarm.strip_format(line).strip())


def _check_rate(*, author_id: int, now: Any) -> None:
    longest = max(seconds for _, seconds in RATE_LIMITS)
    written = selectors.lines_written_since(author_id=author_id, since=now - timedelta(seconds=longest))
    for limit, seconds in RATE_LIMITS:
        recent = [at for at in written if at > now - timedelta(seconds=seconds)]
        if len(recent) >= limit:
            frees_at = recent[-limit] + timedelta(seconds=seconds)
            wait = max(1, int((frees_at - now).total_seconds() + 0.999))
            raise ChatError(ngettext(
                "Slow down: at most %(limit)s lines in %(seconds)s seconds. Wait %(wait)s second, then send it again.",
                "Slow down: at most %(limit)s lines in %(seconds)s seconds. Wait %(wait)s seconds, then send it again.",
                wait) % {"limit": limit, "seconds": seconds, "wait": wait}, status=429)


@push.batched
def post_line(*, author: Any, table_id: int | None, text: object) -> ChatMessage:
    """A member's line in a table's chat (`table_id`) or the lobby's (None). Refused, with nothing stored, when
    it is empty or too long (never cut short: the member decides what to drop), when the member writes too fast,
    or when the table is gone or closed."""
    if not isinstance(text, str):
        raise ChatError(gettext("Write something first."))
    line = clean_text(text)
    if not line:
        raise ChatError(gettext("Write something first."))
    if not shows_something(line):
        raise ChatError(gettext("This line holds only invisible characters. Nothing was sent."))
    if len(line) > MAX_CHARS:
        raise ChatError(gettext("A line holds at most %(limit)s characters; this one has %(count)s. Nothing was sent.")
                        % {"limit": MAX_CHARS, "count": len(line)})
    with transaction.atomic():
        # The member's row, locked: two lines sent at once (two tabs, two processes) are counted one after the
        # other, so the rate limit holds (SQLite's IMMEDIATE transactions do the same there).
        member = User.objects.select_for_update().filter(pk=author.pk, is_active=True).first()
        if member is None or not selectors.may_read(member, None):
            raise ChatError(gettext("Sign in to chat."), status=403)
        spectator, round_number = False, None
        if table_id is not None:
            table = Table.objects.filter(pk=table_id).first()
            if table is None:
                raise ChatError(gettext("There is no such table."), status=404)
            if not selectors.may_read(member, table):
                raise ChatError(str(privacy.refusal(table)), status=403)
            if table.status == Table.Status.ABANDONED:
                raise ChatError(gettext("This table is closed; its chat is read only."), status=409)
            spectator = not selectors.is_player(table_id=table_id, user_id=member.pk)
            round_number = selectors.round_in_play(table_id=table_id)
        now = timezone.now()
        _check_rate(author_id=member.pk, now=now)
        message = ChatMessage.objects.create(
            table_id=table_id, author=member, text=line, spectator=spectator, round_number=round_number)
        push.line_posted(message)
    return message


def mute(*, member: Any, muted_id: int) -> None:
    """The member no longer sees `muted_id`'s lines anywhere; muting twice is muting once."""
    with transaction.atomic():
        if muted_id == member.pk:
            raise ChatError(gettext("You cannot mute yourself."))
        if not User.objects.filter(pk=muted_id).exists():
            raise ChatError(gettext("There is no such member."), status=404)
        ChatMute.objects.get_or_create(member_id=member.pk, muted_id=muted_id)


def unmute(*, member: Any, muted_id: int) -> None:
    with transaction.atomic():
        ChatMute.objects.filter(member_id=member.pk, muted_id=muted_id).delete()


@push.batched
def hide_lines(*, staff: Any, message_ids: Iterable[int]) -> int:
    """Staff hide lines: kept, marked hidden with who did it, shown to nobody (taken off every open chat pane).
    Lines hidden already keep their first hider. Returns how many were hidden now."""
    if not (getattr(staff, "is_active", False) and getattr(staff, "is_staff", False)):
        raise ChatError(gettext("Only staff may hide chat lines."), status=403)
    with transaction.atomic():
        lines = list(ChatMessage.objects.select_for_update().filter(pk__in=list(message_ids), hidden_at__isnull=True))
        now = timezone.now()
        for line in lines:
            line.hidden_at, line.hidden_by = now, staff
            line.save(update_fields=["hidden_at", "hidden_by"])
            push.line_hidden(line)
    return len(lines)
