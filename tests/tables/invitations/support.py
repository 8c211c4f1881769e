"""A private table and its members for invitation tests."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts.models import User
from tables.models import Seat, Table
from tables.play import push
from tables.play.services.tables import create_table


def private_table(creator: User, *, game: str = "hawsker", players: int = 2, private: bool = True) -> Table:
    return create_table(creator=creator, game=game, players=players, private=private)


def notices(sent: list[tuple[str, dict[str, Any]]], user: User) -> list[tuple[str, int]]:
    """(kind, invitation) of the invitation notices among `sent` (the `sent` fixture) for the member's lobby."""
    return [(message["kind"], message["invitation"]) for group, message in sent
            if group == push.user_group(user.pk) and message.get("type") == "invitation.notice"]


def seat_at(table: Table, member: User) -> None:
    """Sit `member` in the first empty seat of an open table, however they came to have it (a private table's link
    seats only the invited: tables.play.privacy; these tests need someone seated, not how)."""
    seat = Seat.objects.filter(table=table, user__isnull=True, is_bot=False).order_by("position").first()
    assert seat is not None, "no empty seat"
    Seat.objects.filter(pk=seat.pk).update(user=member, joined_at=timezone.now())
