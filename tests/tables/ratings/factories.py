"""Recorded matches for the ratings and profile tests, made as the ledger's `record_match` makes them: a result
with its places, saved, then `match_recorded` sent inside the same transaction (which rates it)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from tables.ledger.signals import match_recorded
from tables.models import Match, MatchPlace, MatchResult, Table

Who = User | str  # a member, or a bot level ("easy", "normal", "strong": the bot player it is rated as)


def places_from_totals(totals: Sequence[int], *, lower_is_better: bool = False) -> list[int]:
    """Competition ranking: equal totals share a place, and the next place skips ("1, 2, 2, 4")."""
    key = [t if lower_is_better else -t for t in totals]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def record_match(game: str, seats: Sequence[Who], totals: Sequence[int], *, table: Table | None = None,
                 finished_at: datetime | None = None, ending: str = MatchResult.Ending.PLAYED,
                 signal: bool = True) -> MatchResult:
    """A finished match of `game`: seat i held seats[i] and scored totals[i]; places from the totals as the game
    ranks them. `table` reuses a played table (its match gets the result); otherwise a bare table is made."""
    spec = registry.spec(game)
    places = places_from_totals(totals, lower_is_better=spec.lower_is_better)
    with transaction.atomic():
        if table is None:
            table = Table.objects.create(game=game, seat_count=len(seats), status=Table.Status.FINISHED,
                                         name=f"{spec.title} test table")
            match = Match.objects.create(table=table, config={"players": len(seats)}, seed="test", state={},
                                         over=True)
        else:
            match = table.match
        result = MatchResult.objects.create(
            match=match, table=table, game=game, unit=spec.unit, ending=ending, rounds=1,
            finished_at=finished_at or timezone.now())
        MatchPlace.objects.bulk_create([
            MatchPlace(result=result, seat=seat, user=who if isinstance(who, User) else None,
                       bot="" if isinstance(who, User) else who, total=total, place=place, won=place == 1)
            for seat, (who, total, place) in enumerate(zip(seats, totals, places, strict=True))
        ])
        if signal:
            match_recorded.send(sender=MatchResult, result=result)
    return result


def days_ago(n: float) -> datetime:
    return timezone.now() - timedelta(days=n)
