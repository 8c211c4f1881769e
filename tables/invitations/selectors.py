"""Reads: a member's open invitations, a table's invitations, and finding the member a creator means by a name.

"Open" here is judged at the moment of reading (time and table status), so a list is right even before
`expire_stale` has marked what ended."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.members import Found, find_member, suggest_members
from accounts.models import User
from tables.models import Invitation, Seat, Table

SUGGESTIONS = 6


def pending_for(user: User) -> list[Invitation]:
    """The member's invitations still marked pending, newest first, whether or not they have ended meanwhile (one
    query: the lobby shows the open ones and has the ended ones marked)."""
    if not user.is_authenticated:
        return []
    return list(Invitation.objects.filter(invited=user, status=Invitation.Status.PENDING)
                .select_related("table", "invited_by").order_by("-created_at", "-pk"))


def has_ended(invitation: Invitation) -> bool:
    return invitation.expires_at <= timezone.now() or invitation.table.status != Table.Status.OPEN


def open_for(user: User) -> list[Invitation]:
    """The member's invitations that still offer a seat, newest first."""
    return [invitation for invitation in pending_for(user) if not has_ended(invitation)]


def of_table(table: Table) -> list[Invitation]:
    """Everyone the table's creator invited, newest first, one line per invitation (a member invited again after
    declining shows twice: the creator sees both answers)."""
    return list(Invitation.objects.filter(table=table).select_related("invited").order_by("-created_at", "-pk"))


def _unavailable(table: Table, inviter: User) -> Q:
    seated = Seat.objects.filter(table=table, user__isnull=False).values("user_id")
    invited = Invitation.objects.filter(table=table, status=Invitation.Status.PENDING,
                                        expires_at__gt=timezone.now()).values("invited_id")
    return Q(pk=inviter.pk) | Q(pk__in=seated) | Q(pk__in=invited)


def suggestions(table: Table, inviter: User, text: str) -> list[User]:
    """A few active members whose username starts with `text` or whose display name contains it (accounts.members),
    leaving out the inviter, whoever is seated and whoever is already invited. Bots are seats, not members, so they
    never appear."""
    return suggest_members(text, exclude=_unavailable(table, inviter))[:SUGGESTIONS]


def resolve(table: Table, inviter: User, text: str) -> Found:
    """The member `text` names, exactly (accounts.members: username or display name, any case), and free to be
    invited here. Never by email: any member may invite, so an answer that told a member's address from a stranger's
    would let anyone test addresses against the club's list (issue 39); an email is "no member is called ..." whether
    or not it is a member's."""
    found = find_member(text, by_email=False)
    if found.member is None:
        return found
    member = found.member
    if member.pk == inviter.pk:
        return Found(None, gettext("That is you: you are already at this table."))
    if Seat.objects.filter(table=table, user=member).exists():
        return Found(None, gettext("%(member)s already has a seat at this table.") % {"member": member.shown_name})
    if Invitation.objects.filter(table=table, invited=member, status=Invitation.Status.PENDING,
                                 expires_at__gt=timezone.now()).exists():
        return Found(None, gettext("%(member)s is already invited to this table.") % {"member": member.shown_name})
    return Found(member)
