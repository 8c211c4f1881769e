"""A private table and its members for invitation tests."""

from __future__ import annotations

from accounts.models import User
from tables.models import Table
from tables.play.services.tables import create_table


def private_table(creator: User, *, game: str = "hawsker", players: int = 2, private: bool = True) -> Table:
    return create_table(creator=creator, game=game, players=players, private=private)
