"""How often invitations may be sent: every invitation pushes a notice to its member's lobby, so without limits
one member could flood another's screen (issue 39: invite and withdraw one member 40 times in 3 s, 40 notices).

Three limits, all counted from the invitations themselves (the database), so they hold however many processes
serve the club and survive a restart:
- an inviter sends at most INVITATIONS_SENT_PER_HOUR in any hour (withdrawn ones count: the notice went out);
- a member receives at most INVITATIONS_RECEIVED_PER_HOUR in any hour, from everyone together, so a few accounts
  taking turns do not get round the first;
- after a member declined an inviter's invitation, or the inviter withdrew it, that inviter may not invite that
  member again for INVITATION_COOLDOWN_MINUTES (to any table): the invite/withdraw loop makes one notice, not forty.
A setting of 0 turns its limit off. The service (`invitations.invite`) asks while it holds the table's lock and
both members' row locks, so two invitations sent at once are counted one after the other.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import ngettext

from accounts.models import User
from tables.models import Invitation

WINDOW = timedelta(hours=1)


def _minutes_until(moment: datetime, now: datetime) -> int:
    return max(1, math.ceil((moment - now).total_seconds() / 60))


def _free_again(rows: list[datetime], cap: int) -> datetime | None:
    """When the window holds fewer than `cap` of these creation times again (None: it already does)."""
    if len(rows) < cap:
        return None
    return sorted(rows)[len(rows) - cap] + WINDOW


def over_limit(*, inviter: User, member: User, now: datetime) -> str:
    """Why this invitation would be over one of the three limits, naming it and when it lifts; "" when it is not.
    A read: the caller refuses (and holds the locks that keep the answer true)."""
    cooldown = timedelta(minutes=settings.INVITATION_COOLDOWN_MINUTES)
    if cooldown:
        last = (Invitation.objects.filter(
            invited_by=inviter, invited=member, answered_at__gt=now - cooldown,
            status__in=[Invitation.Status.DECLINED, Invitation.Status.WITHDRAWN])
            .order_by("-answered_at").values("status", "answered_at").first())
        if last is not None:
            minutes = _minutes_until(last["answered_at"] + cooldown, now)
            if last["status"] == Invitation.Status.DECLINED:
                text = ngettext(
                    "%(member)s declined your invitation recently; you can invite them again in %(minutes)s "
                    "minute.",
                    "%(member)s declined your invitation recently; you can invite them again in %(minutes)s "
                    "minutes.", minutes)
            else:
                text = ngettext(
                    "You withdrew your invitation to %(member)s recently; you can invite them again in "
                    "%(minutes)s minute.",
                    "You withdrew your invitation to %(member)s recently; you can invite them again in "
                    "%(minutes)s minutes.", minutes)
            return text % {"member": member.shown_name, "minutes": minutes}
    since = now - WINDOW
    sent_cap = settings.INVITATIONS_SENT_PER_HOUR
    if sent_cap:
        sent = list(Invitation.objects.filter(invited_by=inviter, created_at__gt=since)
                    .values_list("created_at", flat=True))
        again = _free_again(sent, sent_cap)
        if again is not None:
            minutes = _minutes_until(again, now)
            return ngettext(
                "You have sent %(count)s invitations in the last hour, as many as the club allows; you can send the "
                "next in %(minutes)s minute.",
                "You have sent %(count)s invitations in the last hour, as many as the club allows; you can send the "
                "next in %(minutes)s minutes.", minutes) % {"count": len(sent), "minutes": minutes}
    received_cap = settings.INVITATIONS_RECEIVED_PER_HOUR
    if received_cap:
        received = list(Invitation.objects.filter(invited=member, created_at__gt=since)
                        .values_list("created_at", flat=True))
        again = _free_again(received, received_cap)
        if again is not None:
            minutes = _minutes_until(again, now)
            return ngettext(
                "%(member)s has had as many invitations in the last hour as the club allows; try again in "
                "%(minutes)s minute.",
                "%(member)s has had as many invitations in the last hour as the club allows; try again in "
                "%(minutes)s minutes.", minutes) % {"member": member.shown_name, "minutes": minutes}
    return ""

