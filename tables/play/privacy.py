"""Who a private table is for. A private table was only unlisted: whoever held its link could watch, chat and take
the seat meant for the invited (issue 39). Now its seats are for its creator and the members it invited, and its
board and chat for them, whoever is seated there, and staff.

- May sit: the creator, and a member with an invitation that still stands (pending and in time) or that they
  accepted (they sat down, left while the table was open, and come back); at a rematch's table, the members of the
  match it is the rematch of (tables.play.services.rematch). Staff sit only when invited.
- May watch (the page, the board, the chat, the table socket): whoever may sit, whoever holds a seat there (bots'
  seats aside) or held one at the match it is the rematch of, anyone invited whose invitation ended some other way
  than being withdrawn (declined, or ended with time or the table's start: the table is still theirs to look at),
  and staff; at a table the club seated (`Table.anyone_may_watch`, a tournament's), every member.
Anyone else who holds the link is told the table is private and who to ask for an invitation (views answer 403 with
that page; the socket closes with CLOSE_PRIVATE, which the page says in its words). 403, not 404: table codes are
random, so the link holder learns nothing they did not know by being told the table exists, and "not found" would
send a friend of the creator looking for a broken link instead of asking for an invitation.

A read of the models only (play may not import the invitations feature, whose model lives in tables.models).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tables.models import Invitation, Rematch, Seat, Table
from tables.play.services.errors import TableError


class PrivateTable(TableError):
    """A member who is not invited asked for something at a private table; nothing was changed or shown."""

    status = 403


def _member(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def _invited(table: Table, user: Any) -> Q:
    return Q(table_id=table.pk, invited_id=user.pk)


def _played_before(table: Table, user: Any) -> bool:
    """The table is the rematch of one where the member played (tables.play.services.rematch): its seats are theirs
    as much as its creator's, whether they accepted in time or not."""
    return Rematch.objects.filter(new_table_id=table.pk, table__seats__user_id=user.pk).exists()


def may_sit(table: Table, user: Any) -> bool:
    """May take a seat (a public table: anyone who may play)."""
    if not table.private:
        return True
    if not _member(user):
        return False
    if table.created_by_id == user.pk or _played_before(table, user):
        return True
    standing = Q(status=Invitation.Status.PENDING, expires_at__gt=timezone.now()) | Q(
        status=Invitation.Status.ACCEPTED)
    return Invitation.objects.filter(_invited(table, user) & standing).exists()


def may_watch(table: Table, user: Any) -> bool:
    """May see the table's page, board and chat, and open its socket (a public table: anyone)."""
    if not table.private:
        return True
    if not _member(user):
        return False
    if user.is_staff or table.created_by_id == user.pk or table.anyone_may_watch:
        return True
    if Seat.objects.filter(table_id=table.pk, user_id=user.pk).exists() or _played_before(table, user):
        return True
    return Invitation.objects.filter(_invited(table, user)).exclude(status=Invitation.Status.WITHDRAWN).exists()


def refusal(table: Table) -> PrivateTable:
    """What a link holder who is not invited is told: the table is private, and whose it is."""
    creator = table.created_by.shown_name if table.created_by_id else ""
    if creator:
        return PrivateTable(gettext("This table is private: ask %(member)s, who opened it, for an invitation.")
                            % {"member": creator})
    return PrivateTable(gettext("This table is private: ask the member who opened it for an invitation."))


def ensure_may_watch(table: Table, user: Any) -> None:
    if not may_watch(table, user):
        raise refusal(table)


def ensure_may_sit(table: Table, user: Any) -> None:
    if not may_sit(table, user):
        raise refusal(table)
