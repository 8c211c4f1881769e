"""Inviting a member to a private table and every answer to it. Each function is one transaction.

An invitation ends when it is answered, withdrawn, runs out of time (INVITATION_MINUTES) or its table starts or
closes. Nothing in the browser ends it: stale ones are marked here, lazily, whenever an invitation of that table or
member is written or listed (`expire_stale`), so no page ever offers a seat that is gone and the one-pending-per-
member constraint never meets a dead row. Invitations lock their table first (as play's services do), then
themselves, so two answers to one table are taken one after the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.invitations import push
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


def lifetime() -> timedelta:
    return timedelta(minutes=settings.INVITATION_MINUTES)


def stale_filter(now: object) -> Q:
    """Pending invitations that have ended without an answer: out of time, or their table no longer open."""
    return Q(status=Status.PENDING) & (Q(expires_at__lte=now) | ~Q(table__status=Table.Status.OPEN))


def expire_stale(*, table_id: int | None = None, user_id: int | None = None) -> int:
    """Mark ended invitations expired (of one table, one invited member, or all: the sweep); returns how many.
    A read, and only when something ended one conditional UPDATE (no transaction of its own: on SQLite that would
    take the writer's lock on every lobby page), so it is safe to run from any number of readers at once."""
    now = timezone.now()
    query = Invitation.objects.filter(stale_filter(now))
    if table_id is not None:
        query = query.filter(table_id=table_id)
    if user_id is not None:
        query = query.filter(invited_id=user_id)
    ids = list(query.values_list("pk", flat=True))
    if not ids:
        return 0
    return Invitation.objects.filter(pk__in=ids, status=Status.PENDING).update(status=Status.EXPIRED, answered_at=now)


def mark_expired(*, ids: list[int]) -> int:
    """Mark these invitations expired, if still pending (a reader found them ended: `selectors.has_ended`)."""
    if not ids:
        return 0
    return Invitation.objects.filter(pk__in=ids, status=Status.PENDING).update(
        status=Status.EXPIRED, answered_at=timezone.now())


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


@push.batched
def invite(*, table_id: int, inviter: User, member: User) -> Invitation:
    """Invite `member` to the inviter's private open table; they are told on their lobby socket after commit."""
    expire_stale(table_id=table_id)
    with transaction.atomic():
        table = locked_table(table_id)
        ensure_may_invite(table, inviter)
        ensure_invitable(table, inviter, member)
        now = timezone.now()
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
            _end(invitation, Status.ACCEPTED)
            push.answered(invitation)
            table.refresh_from_db()
            if table.status != Table.Status.OPEN:  # the seat filled the table: it started, the rest are over
                _expire_others(table, invitation)
    if refusal is not None:
        raise InvitationError(str(refusal)) from None
    return Answer(invitation, table)


def _has_room(table: Table) -> bool:
    table.refresh_from_db(fields=["status"])
    return table.status == Table.Status.OPEN and Seat.objects.filter(
        table=table, user__isnull=True, is_bot=False).exists()


def _expire_others(table: Table, taken: Invitation) -> None:
    others = list(Invitation.objects.filter(table=table, status=Status.PENDING).exclude(pk=taken.pk))
    for other in others:
        _end(other, Status.EXPIRED)
        push.answered(other, kind="table_started")


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
