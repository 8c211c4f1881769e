"""Tables whose seats a feature decides, not the members: a tournament's round seats its drawn tables, and its
organiser may put another member in a seat. Each function is one transaction (or joins the caller's).

Why apart from `tables.py`: there every seat is a member's own choice, checked against the club's rules for
choosing (the one-running-table rule, the table limits, a private table's invitations). Here the club itself seats
members, so those checks do not apply: a member already at another live table is seated all the same (that table
plays on; where they are offline the bot plays for them after the table's grace, as anywhere), and the table counts
against nobody's limits (it has no creator). The table is private (never listed in the lobby, nobody else may sit)
and running from its first moment (nobody can join it); every member may watch it (`Table.anyone_may_watch`).

A seat made here keeps `joined_at` empty until its member first opens the table (`presence.socket_opened` fills it):
that is how the feature tells a member who came late from one who never came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Seat, Table, TableSocket
from tables.play import pace, push
from tables.play.services.errors import NotSeated, TableError
from tables.play.services.play import Live, begin_match, locked_table
from tables.play.services.tables import NAME_LENGTH, _config


def create_seated_table(*, game: str, members: list[User], options: Mapping[str, Any] | None, name: str) -> Table:
    """A private table of exactly `members`, in seat order, its match begun at once with the table's usual pace."""
    config = _config(game, len(members), options)
    if len({member.pk for member in members}) != len(members):
        raise TableError(gettext("A member can have only one seat at a table."))
    with transaction.atomic():
        table = Table.objects.create(
            game=game, name=" ".join(name.split())[:NAME_LENGTH], seat_count=config.players,
            options=dict(config.options), private=True, created_by=None, anyone_may_watch=True,
        )
        seats = Seat.objects.bulk_create(
            [Seat(table=table, position=position, user=member, joined_at=None)
             for position, member in enumerate(members)]
        )
        for seat, member in zip(seats, members, strict=True):
            seat.user = member
        begin_match(table, seats)
        push.lobby_changed()
    return table


def give_seat(*, table_id: int, leaving: User, joining: User) -> Seat:
    """`joining` takes `leaving`'s seat at a running table, with its cards and its place in the match: what the seat
    plays from now on, and its result, are theirs. Nothing of the leaving member's stays with the seat (their
    premove, their "while you were away"); the newcomer has a moment to open the table, then the table's usual rule
    for an offline member applies. A new version, so every board shows who sits there."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.RUNNING:
            raise TableError(gettext("This table is not playing: nobody can take a seat at it."))
        seat = Seat.objects.filter(table=table, user=leaving).first()
        if seat is None:
            raise NotSeated(gettext("%(member)s has no seat at this table.") % {"member": leaving.shown_name})
        if Seat.objects.filter(table=table, user=joining).exists():
            raise TableError(gettext("%(member)s already has a seat at this table.") % {"member": joining.shown_name})
        now = timezone.now()
        watching = TableSocket.objects.filter(table=table, user=joining).exists()
        Seat.objects.filter(pk=seat.pk).update(
            user=joining, joined_at=now if watching else None, away=False, away_from=None, ready=False,
            offline_since=None, gone_at=None if watching else now + pace.FIRST_LOOK,
            premove="", premove_dropped="",
        )
        live = Live.load(table, now=now)
        live.save()
        return Seat.objects.get(pk=seat.pk)
