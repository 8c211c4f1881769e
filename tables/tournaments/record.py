"""The stored rounds as the pairing core's values: what the next draw (services) and the standings (selectors) both
read. Kept apart from both so the draw and the table members see rank by one reading of the record.

Players are the members' ids as text: the core orders and seeds by strings, and the ids' text is stable.

A voided table counts as played for the pairing (its players met: they are not drawn together again while the draw
can avoid it) but gives nobody anything: no win, no bye, no points, no Buchholz.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.models import Entry, Tournament, TournamentTable
from tables.tournaments import swiss


def entrants(tournament: Tournament) -> list[str]:
    """The live entries, as the core's players (sorted, so every reading of the field is the same)."""
    ids = Entry.objects.filter(tournament=tournament, status=Entry.Status.ENTERED).values_list("user_id", flat=True)
    return sorted(str(user_id) for user_id in ids)


def tables_by_round(tournament: Tournament, *, before: int | None = None) -> list[list[TournamentTable]]:
    """Every drawn round's tables in table order, rounds in order (those numbered below `before` only)."""
    rows = TournamentTable.objects.filter(round__tournament=tournament).select_related("round")
    if before is not None:
        rows = rows.filter(round__number__lt=before)
    by_round: dict[int, list[TournamentTable]] = {}
    for row in rows.order_by("round__number", "number"):
        by_round.setdefault(row.round.number, []).append(row)
    return [by_round[number] for number in sorted(by_round)]


def seated(table: TournamentTable) -> list[str]:
    return [str(seat) for seat in table.seats if seat is not None]


@dataclass(frozen=True)
class SwissRecord:
    rounds: list[swiss.Round]  # every pairing made, voided ones too: the pairing's history
    games: list[swiss.Game]  # the results that count
    byes: list[str]  # the byes that count


def swiss_record(tournament: Tournament, *, before: int | None = None) -> SwissRecord:
    rounds: list[swiss.Round] = []
    games: list[swiss.Game] = []
    byes: list[str] = []
    for tables in tables_by_round(tournament, before=before):
        pairs: list[tuple[str, str]] = []
        bye: str | None = None
        for table in tables:
            players = seated(table)
            if table.is_bye:
                bye = players[0]
                if not table.void:
                    byes.append(bye)
                continue
            first, second = players
            pairs.append((first, second))
            if table.winner_id is not None and not table.void:
                games.append(swiss.Game(first=first, second=second, winner=str(table.winner_id)))
        rounds.append(swiss.Round(pairs=tuple(pairs), bye=bye))
    return SwissRecord(rounds=rounds, games=games, byes=byes)


def session_tables(tournament: Tournament, *, before: int | None = None) -> list[list[list[str]]]:
    """Every session's tables as lists of players: what `sessions.pairs_met` counts."""
    return [[seated(table) for table in tables] for tables in tables_by_round(tournament, before=before)]
