"""The notices' emails: plain text from templates (templates/tables/notices/), in the member's language and time
zone, naming the table and linking to it, with a signed one-click unsubscribe link (also in the List-Unsubscribe
headers, RFC 2369 and RFC 8058) and the settings page.

What an email may say is little on purpose: whose turn, at which table, by when; that time ran out; that a match
is over. Never a card, a hand, the blind or a seed: nothing of a round's state is put in the context at all, so no
template can show it (tests/tables/notices scan every email for every card of the round).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from accounts.languages import saved_language
from accounts.models import User
from accounts.templatetags.member_time import when_text
from accounts.time_zones import zone_named
from tables.models import Notice, Table
from tables.notices import selectors
from tables.notices.preferences import TOPIC_OF_KIND
from tables.notices.tokens import unsubscribe_token

TEMPLATES = "tables/notices"


def absolute(path: str) -> str:
    """A link for an email: the site's address (SITE_URL) and the path; emails are made outside any request."""
    return f"{settings.SITE_URL}{path}"


def unsubscribe_url(user: User, kind: str) -> str:
    return absolute(reverse("notices_unsubscribe", args=[unsubscribe_token(user_id=user.pk,
                                                                             topic=TOPIC_OF_KIND[kind])]))


def time_left(left: timedelta) -> str:
    """"about 5 hours", "about 2 days", "less than an hour": how long a member has, in round words."""
    hours = round(left.total_seconds() / 3600)
    if hours < 1:
        return gettext("less than an hour")
    if hours >= 48:
        days = round(hours / 24)
        return ngettext("about %(count)s day", "about %(count)s days", days) % {"count": days}
    return ngettext("about %(count)s hour", "about %(count)s hours", hours) % {"count": hours}


def _turn_lines(turns: list[selectors.Turn], now: datetime) -> list[dict[str, str]]:
    return [{"table": str(t.table), "url": absolute(reverse("table", args=[t.table.code])),
             "deadline": when_text(t.deadline) if t.deadline else "",
             "left": time_left(t.deadline - now) if t.deadline and t.deadline > now else ""}
            for t in sorted(turns, key=lambda t: (t.deadline is None, t.deadline or now))]


def still_their_turn(notice: Notice) -> selectors.Turn | None:
    """The turn a "your turn" or reminder notice is about, if it is still waiting (the same round, no move since)."""
    for turn in selectors.turns_waiting(user_id=notice.user_id):
        if turn.table.pk == notice.table_id and turn.number == (notice.data.get("round"),
                                                                 notice.data.get("moves_made")):
            return turn
    return None


def _context(notice: Notice, now: datetime) -> dict[str, Any] | str:
    """What the notice's templates read, or why it is not sent any more."""
    user = notice.user
    context: dict[str, Any] = {
        "name": user.shown_name, "club": settings.CLUB_NAME,
        "settings_url": absolute(reverse("email_notices")), "unsubscribe_url": unsubscribe_url(user, notice.kind),
    }
    table: Table | None = notice.table
    if table is not None:
        context.update(table=str(table), table_url=absolute(reverse("table", args=[table.code])))
    if notice.kind in (Notice.Kind.TURN, Notice.Kind.REMINDER):
        turn = still_their_turn(notice)
        if turn is None:
            return "no longer the member's turn"
        if turn.deadline is not None and notice.kind == Notice.Kind.REMINDER and turn.deadline <= now:
            return "the deadline has passed"
        [line] = _turn_lines([turn], now)
        context.update(deadline=line["deadline"], left=line["left"])
    elif notice.kind == Notice.Kind.DIGEST:
        turns = selectors.turns_waiting(user_id=user.pk)
        if not turns:
            return "no table is waiting for the member any more"
        context["turns"] = _turn_lines(turns, now)
        context["count"] = len(turns)
    return context


def compose(notice: Notice, *, now: datetime) -> EmailMessage | str:
    """The email of `notice` (its member, table and data loaded), or the reason it is no longer to be sent."""
    user = notice.user
    with translation.override(saved_language(user) or settings.LANGUAGE_CODE), \
            timezone.override(zone_named(user.time_zone)):
        context = _context(notice, now)
        if isinstance(context, str):
            return context
        subject = " ".join(render_to_string(f"{TEMPLATES}/{notice.kind}_subject.txt", context).split())
        body = render_to_string(f"{TEMPLATES}/{notice.kind}.txt", context)
        language = translation.get_language()
    body = "\n".join(line.rstrip() for line in body.strip().splitlines()) + "\n"
    while "\n\n\n" in body:
        body = body.replace("\n\n\n", "\n\n")
    unsubscribe = context["unsubscribe_url"]
    return EmailMessage(
        subject=f"[{settings.CLUB_NAME}] {subject}", body=body, to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no out-of-office replies to it
            "Content-Language": language,
        },
    )
