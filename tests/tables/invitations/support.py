"""A private table and its members for invitation tests."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tables.models import Table
from tables.play import push
from tables.play.services.tables import create_table


def private_table(creator: User, *, game: str = "hawsker", players: int = 2, private: bool = True) -> Table:
    return create_table(creator=creator, game=game, players=players, private=private)


def notices(sent: list[tuple[str, dict[str, Any]]], user: User) -> list[tuple[str, int]]:
    """(kind, invitation) of the invitation notices among `sent` (the `sent` fixture) for the member's lobby."""
    return [(message["kind"], message["invitation"]) for group, message in sent
            if group == push.user_group(user.pk) and message.get("type") == "invitation.notice"]
