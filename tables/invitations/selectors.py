"""Reads: a member's open invitations, a table's invitations, and finding the member a creator means by a name.

"Open" here is judged at the moment of reading (time and table status), so a list is right even before
`expire_stale` has marked what ended."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from tables.models import Invitation, Seat, Table

SUGGESTIONS = 6
MIN_SUGGEST_CHARS = 2


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
    """A few active members whose username, display name or email starts with (or whose name contains) `text`,
    leaving out the inviter, whoever is seated and whoever is already invited. Bots are seats, not members, so they
    never appear."""
    text = text.strip()
    if len(text) < MIN_SUGGEST_CHARS:
        return []
    matching = (Q(username__istartswith=text) | Q(display_name__icontains=text) | Q(email__istartswith=text))
    return list(User.objects.filter(matching, is_active=True).exclude(_unavailable(table, inviter))
                .order_by("display_name", "username")[:SUGGESTIONS])


@dataclass(frozen=True)
class Found:
    """The one member a name means, or why there is none (`problem`)."""

    member: User | None
    problem: str = ""


def _exactly(text: str) -> QuerySet[User]:
    return User.objects.filter(Q(username__iexact=text) | Q(display_name__iexact=text) | Q(email__iexact=text))


def resolve(table: Table, inviter: User, text: str) -> Found:
    """The member `text` names, exactly (username, display name or email, any case), and free to be invited here.
    Never a guess: two members answering to the name is a question back, not a pick."""
    text = " ".join(text.split())
    if not text:
        return Found(None, "Type the member's username, display name or email.")
    members = list(_exactly(text).filter(is_active=True)[:5])
    if not members:
        return Found(None, f"No member is called “{text}”. Pick one of the suggestions, or try their email.")
    by_username = [m for m in members if m.username.lower() == text.lower() or m.email.lower() == text.lower()]
    if len(members) > 1 and len(by_username) == 1:
        members = by_username  # a username or email is unique: it wins over someone's display name
    if len(members) > 1:
        names = ", ".join(sorted(m.username for m in members))
        return Found(None, f"Several members answer to “{text}” ({names}); type the username of the one you mean.")
    member = members[0]
    if member.pk == inviter.pk:
        return Found(None, "That is you: you are already at this table.")
    if Seat.objects.filter(table=table, user=member).exists():
        return Found(None, f"{member.shown_name} already has a seat at this table.")
    if Invitation.objects.filter(table=table, invited=member, status=Invitation.Status.PENDING,
                                 expires_at__gt=timezone.now()).exists():
        return Found(None, f"{member.shown_name} is already invited to this table.")
    return Found(member)
