"""Match results: who won each match, and each seat's total and place, written in the transaction that ends it.

Play sends `match_ended` from every path that ends a match (tables.play.signals); the ledger's receiver calls
`record_match`, so a result commits or rolls back with the match's last round (or its closing). The totals are
the engine's, as the match stood when it ended: rounds voided or cut short by a closing count for nothing.
Matches that ended before results were recorded are taken in by `record_past_matches` (`manage.py
record_past_matches`, run by `manage.py seed`), from the same rows. A tournament table's match is counted in points
as its ledger entries are (tables.tournaments.scoring): a money game's totals divided by the stake.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rules.engine import registry
from rules.engine.api import Config
from rules.engine.api import Match as EngineMatch
from tables.ledger.signals import match_recorded
from tables.models import Match, MatchPlace, MatchResult, Seat, Table, TournamentTable
from tables.play.services.errors import TableError
from tables.play.services.play import locked_table, seats_at
from tables.tournaments.scoring import tournament_points

ENDINGS = (MatchResult.Ending.PLAYED, MatchResult.Ending.CLOSED)


class ResultError(TableError):
    """A match result that cannot be written as asked; nothing was written."""


def places_of(totals: Sequence[int], *, lower_is_better: bool) -> list[int]:
    """Each seat's place by total, 1 for the best: equal totals share a place and the next place skips as many
    (standard competition ranking: 1, 1, 3)."""
    better = (lambda a, b: a < b) if lower_is_better else (lambda a, b: a > b)
    return [1 + sum(1 for other in totals if better(other, mine)) for mine in totals]


def record_match(
    *, match: Match, table: Table, seats: Sequence[Seat], ending: str, now: datetime
) -> MatchResult | None:
    """The match's result with one place per seat, and `match_recorded` sent, in the caller's transaction.

    No result (None) when no round of the match finished with a result (closed during its first round, or
    every finished round voided): with no totals there is nobody to rank. `won` is the rules' winners (the
    engine's `match_winners`) for a match played out; for one cut short by a closing, the seats in first place
    on the totals so far. A seat played by the bot for a member who left is still the member's if they played
    most of the match's rounds themselves (`own_majority`); else its place is the house's, as a bot's. A bot's seat
    records the level the bot played it at (`bot`: "easy", "normal", "strong"; bot seats keep their level once the
    match has started), which is also the player the ratings rate it as (tables.play.bot_names)."""
    if ending not in ENDINGS:
        raise ResultError(f"A match ends played out or closed, not {ending!r}.")
    if MatchResult.objects.filter(match=match).exists():
        raise ResultError(f"The result of {match} is recorded already.")
    engine_match = EngineMatch.from_json(match.state)
    if engine_match.number == 0:
        return None
    spec = registry.spec(table.game)
    totals = list(engine_match.totals)
    unit = spec.unit
    if TournamentTable.objects.filter(table_id=table.pk).exists():
        unit = "points"
        options = {**(table.options or {}), **((match.config or {}).get("options") or {})}
        totals = tournament_points(match, table.game, options, seats=len(totals))
    by_position = {seat.position: seat for seat in seats}
    if sorted(by_position) != list(range(len(totals))):
        raise ResultError(f"{table} has {len(by_position)} seats for a match of {len(totals)} players.")
    places = places_of(totals, lower_is_better=spec.lower_is_better)
    house_rounds = _house_rounds(match, len(totals))
    if ending == MatchResult.Ending.PLAYED:
        game = registry.game(table.game)
        winners = set(game.match_winners(Config.from_json(match.config), engine_match))
    else:
        winners = {position for position, place in enumerate(places) if place == 1}
    with transaction.atomic():
        result = MatchResult.objects.create(
            match=match, table=table, game=table.game, unit=unit, ending=ending, rounds=engine_match.number,
            finished_at=now,
        )
        rows = []
        for position, total in enumerate(totals):
            seat = by_position[position]
            if seat.user_id is None and not seat.is_bot:
                raise ResultError(f"Seat {position + 1} of {table} is empty: a match needs a player in every seat.")
            # A member who played no more than half the match's rounds themselves (the house played the others, while
            # they were away) has no place in it: the seat's place is the house's, at the table's bot level.
            counted = seat.user_id is not None and own_majority(engine_match.number, house_rounds[position])
            rows.append(MatchPlace(
                result=result, seat=position, user_id=seat.user_id if counted else None,
                bot="" if counted else seat.level_at(table), total=total, place=places[position],
                won=position in winners,
            ))
        MatchPlace.objects.bulk_create(rows)
        match_recorded.send(sender=MatchResult, result=result)
    return result


def own_majority(rounds: int, house: int) -> bool:
    """A member's seat counts as theirs in a match's result (and rating) when they played more than half of its
    `rounds` themselves: the rounds dealt while they were away (`house` of them) were the house's."""
    return 2 * (rounds - house) > rounds


def _house_rounds(match: Match, seats: int) -> list[int]:
    """How many of the match's finished rounds the house played in each seat (the score sheet's `house` seats,
    written as each round ended: tables.play.services.play.Live._sheet_row)."""
    counts = [0] * seats
    for row in match.sheet or []:
        for position in row.get("house", []):
            if 0 <= int(position) < seats:
                counts[int(position)] += 1
    return counts


def record_past_matches() -> tuple[int, int]:
    """Results for matches that ended (table finished or closed) before results were recorded, oldest first
    (the order the ratings take them in). Idempotent: a match with a result is left alone, so running it again
    records nothing. Returns (results recorded, matches with no finished round, hence no result)."""
    ended = (
        Table.objects.filter(status__in=[Table.Status.FINISHED, Table.Status.ABANDONED], match__isnull=False,
                             match__result__isnull=True)
        .order_by("finished_at", "pk").values_list("pk", flat=True)
    )
    recorded = empty = 0
    for table_id in list(ended):
        with transaction.atomic():
            table = locked_table(table_id)
            match = Match.objects.get(table=table)
            if MatchResult.objects.filter(match=match).exists():
                continue  # another run took it in meanwhile
            played = table.status == Table.Status.FINISHED and match.over
            result = record_match(
                match=match, table=table, seats=seats_at(table),
                ending=MatchResult.Ending.PLAYED if played else MatchResult.Ending.CLOSED,
                now=match.finished_at or table.finished_at or timezone.now(),
            )
        if result is None:
            empty += 1
        else:
            recorded += 1
    return recorded, empty
