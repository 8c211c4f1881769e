"""Reading a tournament: its standings.

Swiss and round robin rank as the pairing core does (swiss.standings_after: score, Buchholz, the direct encounter,
the seed), so the ranking the next round is paired from and the one members see are the same.

Sessions rank by the points each member scored over the sessions' tables, summed. Those points are the
`TournamentTable.points` written by `services.record_session_points`: by the treasurer from the club night's sheet
(the in-person path), and, once online tables are seated, from the play table's match results when it ends (the
Sheepshead money settled per hand, in cents, or the other games' points), by the same service. The standings read
only that column, whichever path wrote it. A game whose points count against the player (Puskiyon: the lowest
total wins, `GameSpec.lower_is_better`) ranks the lowest first. Ties are broken by the seed, as in the Swiss
ranking: a fair lot nobody can steer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rules.engine import registry
from tables.models import Tournament, TournamentRound, TournamentTable
from tables.tournaments import record, swiss


@dataclass(frozen=True)
class Standing:
    place: int
    user_id: int
    score: int
    buchholz: int | None = None  # Swiss and round robin only


def standings(*, tournament_id: int) -> list[Standing]:
    """The ranking over every result recorded so far (voided tables count for nobody), best first."""
    tournament = Tournament.objects.get(pk=tournament_id)
    field = record.entrants(tournament)
    if tournament.format == Tournament.Format.SESSIONS:
        return _session_standings(tournament, field)
    so_far = record.swiss_record(tournament)
    ranked = swiss.standings_after(field, games=so_far.games, byes=so_far.byes, seed=tournament.seed)
    return [Standing(place=place, user_id=int(one.player), score=one.score, buchholz=one.buchholz)
            for place, one in enumerate(ranked, start=1)]


def _session_standings(tournament: Tournament, field: list[str]) -> list[Standing]:
    totals = dict.fromkeys(field, 0)
    for tables in record.tables_by_round(tournament):
        for table in tables:
            if table.void or table.points is None:
                continue
            for player, points in table.points.items():
                totals[player] = totals.get(player, 0) + points
    sign = 1 if registry.spec(tournament.game).lower_is_better else -1

    def lot(player: str) -> str:
        return hashlib.sha256(f"{tournament.seed}|rank|{player}".encode()).hexdigest()

    ranked = sorted(totals, key=lambda player: (sign * totals[player], lot(player)))
    return [Standing(place=place, user_id=int(player), score=totals[player])
            for place, player in enumerate(ranked, start=1)]


def tournament_table_of(*, table_id: int) -> TournamentTable | None:
    """The tournament table played at play table `table_id`, with its round and tournament (None: not a
    tournament's), for the play page's banner."""
    return (TournamentTable.objects.filter(table_id=table_id).select_related("round__tournament")
            .order_by("-pk").first())


def current_round(tournament: Tournament) -> tuple[TournamentRound | None, list[int]]:
    """The round last drawn (None: none yet) and the numbers of its tables still without a result (neither recorded
    nor void), as finishing a round counts them (services.finish_round): what the organiser's panel is decided from
    (controls.controls_available)."""
    found = tournament.round_set.filter(number=tournament.current_round).first()
    if found is None:
        return None, []
    waiting = [table.number for table in found.tables.order_by("number")
               if not table.void and table.winner_id is None and table.points is None]
    return found, waiting
