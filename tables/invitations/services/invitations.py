"""Inviting a member to a private table and every answer to it. Each function is one transaction.

An invitation ends when it is answered, withdrawn, runs out of time (INVITATION_MINUTES) or its table starts or
closes. Nothing in the browser ends it, and the invited member's open lobby is told of every end (its notice and
list are pushed to their lobby socket), so "Take the seat" never stays offered for a seat that is gone:
- the table starting or closing ends its invitations in the very transaction (play's `table_stopped_waiting`,
  received by tables.invitations.receivers: `end_with_table`);
- running out of time is noticed by the server, on the table clock every serving process runs (tables.play.
  background; `EndedInvitations` is its job, registered in `TablesConfig.ready`), within a second of the time;
- and readers still mark what ended whenever an invitation of that table or member is written or listed
  (`expire_stale`, `mark_ended`), so a page is right even before the clock's pass, and the one-pending-per-member
  constraint never meets a dead row.
Whoever marks an invitation ended (a conditional UPDATE from "pending") is the one who tells the lobby: once.
Invitations lock their table first (as play's services do), then themselves, so two answers to one table are
taken one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.invitations import push
from tables.invitations.services.limits import over_limit
from tables.models import Invitation, Seat, Table
from tables.play.services.errors import TableError
from tables.play.services.play import locked_table, seat_of
from tables.play.services.tables import called, join_table

Status = Invitation.Status


class InvitationError(TableError):
    """An invitation that cannot be made or answered as asked; nothing was changed (but a stale one marked)."""

    status = 400


class NoSuchInvitation(InvitationError):
    """Unknown, or someone else's: the two are not told apart, so nobody learns who else was invited."""

    status = 404


class AlreadyAnswered(InvitationError):
    status = 409


class InvitationLimit(InvitationError):
    """Over one of the club's limits on sending invitations (services.limits); the message says when it lifts."""

    status = 429


def lifetime() -> timedelta:
    return timedelta(minutes=settings.INVITATION_MINUTES)


def stale_filter(now: object) -> Q:
    """Pending invitations that have ended without an answer: out of time, or their table no longer open."""
    return Q(status=Status.PENDING) & (Q(expires_at__lte=now) | ~Q(table__status=Table.Status.OPEN))


def _how_it_ended(invitation: Invitation, ending: str | None) -> tuple[str, str]:
    """(the status, the lobby notice's kind) of a pending invitation that ended unanswered. `ending` is the table's
    ("started", "closed") when the caller knows it; else the table's status says (a table still open: time ran out).
    A member who sat down at the table by its link while invited has answered it: accepted."""
    table = invitation.table
    if ending is None:
        if table.status == Table.Status.OPEN:
            return Status.EXPIRED, "expired"
        ending = "closed" if table.status == Table.Status.ABANDONED else "started"
    if Seat.objects.filter(table_id=table.pk, user_id=invitation.invited_id).exists():
        return Status.ACCEPTED, "answered"
    return Status.EXPIRED, "table_started" if ending == "started" else "table_closed"


def end_invitations(invitations: Iterable[Invitation], *, ending: str | None = None) -> int:
    """Mark these pending invitations ended (each by a conditional UPDATE, so of two processes or readers only one
    ends it) and tell each invited member's lobby, after commit; returns how many this call ended. No transaction of
    its own: inside a service's it commits with it; from a reader each UPDATE is its own (a transaction around every
    lobby page would take SQLite's writer's lock), and only when something ended."""
    ended = 0
    now = timezone.now()
    for invitation in invitations:
        status, kind = _how_it_ended(invitation, ending)
        if Invitation.objects.filter(pk=invitation.pk, status=Status.PENDING).update(status=status, answered_at=now):
            invitation.status, invitation.answered_at = status, now
            push.answered(invitation, kind=kind)
            ended += 1
    return ended


def expire_stale(*, table_id: int | None = None, user_id: int | None = None) -> int:
    """End the invitations that ended unanswered (of one table, one invited member, or all); returns how many.
    A read, and only when something ended a conditional UPDATE each (see `end_invitations`), so it is safe to run
    from any number of readers at once."""
    query = Invitation.objects.filter(stale_filter(timezone.now()))
    if table_id is not None:
        query = query.filter(table_id=table_id)
    if user_id is not None:
        query = query.filter(invited_id=user_id)
    return end_invitations(query.select_related("table", "invited_by"))


def mark_ended(invitations: list[Invitation]) -> int:
    """End these invitations, if still pending (a reader found them ended: `selectors.has_ended`)."""
    return end_invitations(invitations) if invitations else 0


def end_with_table(*, table: Table, ending: str) -> int:
    """The table stopped waiting for players ("started" or "closed"), in the caller's transaction: its pending
    invitations end with it (accepted for a member now seated there), and each invited member's lobby is told."""
    pending = Invitation.objects.filter(table_id=table.pk, status=Status.PENDING).select_related("table", "invited_by")
    return end_invitations(pending, ending=ending)


LOOK_EVERY = timedelta(seconds=15)  # besides the next expiry it knows of: invitations another process made


class EndedInvitations:
    """The table clock's job (tables.play.background): invitations that ran out of time, or whose table stopped
    waiting without telling this process, are ended and their lobbies told. It looks at the next expiry it knows
    of, and every `LOOK_EVERY` besides (another process may have made an invitation that ends sooner); between
    looks a pass costs nothing. A look that fails leaves it due, so the next pass (a second later) looks again."""

    def __init__(self) -> None:
        self.next_look: datetime | None = None

    @push.batched
    def __call__(self) -> datetime | None:
        now = timezone.now()
        if self.next_look is not None and now < self.next_look and self.next_look - now <= LOOK_EVERY:
            return self.next_look
        self.next_look = None  # due until this look has succeeded
        expire_stale()
        soonest = Invitation.objects.filter(status=Status.PENDING).aggregate(soonest=Min("expires_at"))["soonest"]
        self.next_look = min(t for t in (soonest, now + LOOK_EVERY) if t is not None)
        return self.next_look


def ensure_may_invite(table: Table, inviter: User) -> None:
    """The table-side rules, for the form (before a name is even looked up) and again under the table's lock."""
    if table.created_by_id != inviter.pk:
        raise InvitationError(gettext("Only the member who opened this table can invite to it."))
    if not table.private:
        raise InvitationError(gettext("Only private tables take invitations; anyone may sit down at a public one."))
    if table.status != Table.Status.OPEN:
        raise InvitationError(gettext("This table is no longer waiting for players, so nobody can be invited to it."))
    if not Seat.objects.filter(table=table, user__isnull=True, is_bot=False).exists():
        raise InvitationError(gettext("This table has no empty seat left."))


def ensure_invitable(table: Table, inviter: User, member: User) -> None:
    """The member-side rules (the form says the same before it asks the service)."""
    if member.pk == inviter.pk:
        raise InvitationError(gettext("You cannot invite yourself: you are sitting at this table."))
    if not member.is_active:
        raise InvitationError(gettext("%(member)s is not an active member.") % {"member": member.shown_name})
    if Seat.objects.filter(table=table, user=member).exists():
        raise InvitationError(gettext("%(member)s already has a seat at this table.") % {"member": member.shown_name})
    if Invitation.objects.filter(table=table, invited=member, status=Status.PENDING).exists():
        raise InvitationError(gettext("%(member)s is already invited to this table.") % {"member": member.shown_name})


def _lock_members(*members: User) -> None:
    """Both members' rows (PostgreSQL; in id order, after the table's, as play's services take them), so that two
    invitations by one inviter, or to one member, at two tables are counted one after the other by the limits."""
    if connection.features.has_select_for_update:
        list(User.objects.select_for_update().filter(pk__in=sorted(m.pk for m in members)).order_by("pk")
             .values_list("pk", flat=True))


@push.batched
def invite(*, table_id: int, inviter: User, member: User) -> Invitation:
    """Invite `member` to the inviter's private open table; they are told on their lobby socket after commit.
    Refused (InvitationLimit) over the club's limits on invitations (services.limits)."""
    expire_stale(table_id=table_id)
    with transaction.atomic():
        table = locked_table(table_id)
        ensure_may_invite(table, inviter)
        ensure_invitable(table, inviter, member)
        _lock_members(inviter, member)
        now = timezone.now()
        refusal = over_limit(inviter=inviter, member=member, now=now)
        if refusal:
            raise InvitationLimit(refusal)
        invitation = Invitation.objects.create(
            table=table, invited=member, invited_by=inviter, expires_at=now + lifetime())
        push.invited(invitation)
    return invitation


@dataclass(frozen=True)
class Answer:
    invitation: Invitation
    table: Table


def _answerable(invitation_id: int, user: User, *, by_creator: bool = False) -> tuple[Table, Invitation]:
    """The invitation, under its table's lock, if it is `user`'s to answer (or, `by_creator`, to withdraw)."""
    found = Invitation.objects.filter(pk=invitation_id).values_list("table_id", flat=True).first()
    if found is None:
        raise NoSuchInvitation(gettext("There is no such invitation."))
    table = locked_table(found)
    invitation = Invitation.objects.select_for_update().select_related("invited_by", "invited").get(pk=invitation_id)
    owner = invitation.invited_by_id if by_creator else invitation.invited_id
    if owner != user.pk:
        raise NoSuchInvitation(gettext("There is no such invitation."))
    if invitation.status != Status.PENDING:
        raise AlreadyAnswered(_already(invitation))
    return table, invitation


def _already(invitation: Invitation) -> str:
    wording = {
        Status.ACCEPTED: gettext("This invitation to %(table)s was already accepted; nothing changed."),
        Status.DECLINED: gettext("This invitation to %(table)s was already declined; nothing changed."),
        Status.EXPIRED: gettext("This invitation to %(table)s has ended (it ran out of time, or the table started or "
                                "closed); nothing changed."),
        Status.WITHDRAWN: gettext("This invitation to %(table)s was withdrawn; nothing changed."),
    }.get(invitation.status)
    if wording is None:
        return gettext("This invitation is no longer open; nothing changed.")
    return wording % {"table": called(invitation.table)}


def _end(invitation: Invitation, status: str) -> None:
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


@push.batched
def accept(*, invitation_id: int, user: User) -> Answer:
    """Take the seat the invitation offers: the seat (play's `join_table`, which starts the match when it fills the
    table) and the answer commit together. A table that can no longer seat anyone ends the invitation; a member who
    is busy elsewhere (playing, or waiting in quick play) keeps it and is told why."""
    _expire_for(invitation_id)
    refusal: TableError | None = None
    with transaction.atomic():
        table, invitation = _answerable(invitation_id, user)
        if seat_of(table, user) is not None:  # sat down by the link meanwhile: the invitation is answered
            _end(invitation, Status.ACCEPTED)
            push.answered(invitation)
            return Answer(invitation, table)
        try:
            join_table(table_id=table.pk, user=user)
        except TableError as error:
            refusal = error
            if not _has_room(table):
                _end(invitation, Status.EXPIRED)
                push.answered(invitation)
        else:
            # The seat may have filled the table: it started, and its end (`end_with_table`, in this transaction)
            # answered this invitation, the member being seated, and ended the others.
            invitation.refresh_from_db(fields=["status"])
            if invitation.status == Status.PENDING:
                _end(invitation, Status.ACCEPTED)
                push.answered(invitation)
            table.refresh_from_db()
    if refusal is not None:
        raise InvitationError(str(refusal)) from None
    return Answer(invitation, table)


def _has_room(table: Table) -> bool:
    table.refresh_from_db(fields=["status"])
    return table.status == Table.Status.OPEN and Seat.objects.filter(
        table=table, user__isnull=True, is_bot=False).exists()


def _expire_for(invitation_id: int) -> None:
    found = Invitation.objects.filter(pk=invitation_id).values_list("table_id", flat=True).first()
    if found is not None:
        expire_stale(table_id=found)


@push.batched
def decline(*, invitation_id: int, user: User) -> Invitation:
    _expire_for(invitation_id)
    with transaction.atomic():
        _, invitation = _answerable(invitation_id, user)
        _end(invitation, Status.DECLINED)
        push.answered(invitation)
    return invitation


@push.batched
def withdraw(*, invitation_id: int, user: User) -> Invitation:
    """The table's creator takes back a pending invitation; the invited member's lobby hears of it."""
    _expire_for(invitation_id)
    with transaction.atomic():
        _, invitation = _answerable(invitation_id, user, by_creator=True)
        _end(invitation, Status.WITHDRAWN)
        push.answered(invitation, kind="withdrawn")
    return invitation
