"""Which ledger entries are the club's money, and which are a tournament's points.

A Sheepshead hand is settled in money, except at a tournament's table: a tournament is played for places and
prizes, so its hands go into the ledger (the record, histories, replays) in points (tables.tournaments.scoring),
never as a debt between members. Such an entry is told from the game's own by its unit alone: a money game's
entry in points. Every reader that means the game's books (balances, settling, statements, standings, a night's
payments) reads `booked` entries; a game counted in points has only points, so for it nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from rules.engine import registry

MONEY = "cents"
POINTS = "points"


def money_games() -> list[str]:
    return [spec.key for spec in registry.all_specs() if spec.unit == MONEY]


def tournament_points_q() -> Q:
    """Entries of a money game written in points: a tournament table's hands."""
    return Q(game__in=money_games(), unit=POINTS)


def booked(entries: QuerySet[Any]) -> QuerySet[Any]:
    """The entries that are their game's books: everything but a money game's tournament points."""
    return entries.exclude(tournament_points_q())


def is_tournament_points(*, game: str, unit: str) -> bool:
    """Whether an entry (or a match result) of `game` in `unit` is a tournament's points rather than the game's
    own unit."""
    return registry.known(game) and registry.spec(game).unit == MONEY and unit == POINTS
