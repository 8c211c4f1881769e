"""What a tournament's page shows, read once for the page and for every push to its sockets.

The page's live part (rounds, tables, standings, the banner of a paused or cancelled tournament) is one template
block rendered from `live_context`, for the page's first load and for the socket (tables.tournaments.consumers),
so both show the same thing. It is public: who sits where, results, standings; never the seed before the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max
from django.template.loader import render_to_string
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Entry, LedgerEntry, Tournament, TournamentRound, TournamentTable
from tables.play.services.errors import TableError
from tables.tournaments import money, selectors

LIVE_TEMPLATE = "tables/tournaments/tournament.html#live"


@dataclass
class TableRow:
    table: TournamentTable
    seats: list[str]  # shown names in seat order ("" for a bye's empty seat)
    no_shows: list[str]
    winner: str
    points: list[tuple[str, int]]  # sessions: (member, points) in seat order
    replacements: list[str]


@dataclass
class RoundRow:
    round: TournamentRound
    tables: list[TableRow] = field(default_factory=list)


@dataclass
class StandingRow:
    place: int
    user: User
    score: int
    buchholz: int | None
    per_round: list[int | None]  # sessions: the member's points in each session (None: not yet or void)


@dataclass
class Prize:
    place: int
    share: int
    cents: int


@dataclass
class PrizeWon:
    place: int
    user: User
    cents: int
    tied: bool


@dataclass
class Booked:
    """The fees and prizes as the ledger has them, for the published page: when they were booked, each prize won,
    and what the prizes left to the club."""

    at: Any
    prizes: list[PrizeWon]
    house: int


def booked(tournament: Tournament, standings: list[selectors.Standing], users: dict[int, User]) -> Booked | None:
    """The booking of a published tournament's fees and prizes (None: nothing was booked); the breakdown is
    recomputed from the final standings by the sums that booked it (tables.tournaments.money)."""
    at = LedgerEntry.objects.filter(tournament=tournament, kind=LedgerEntry.Kind.RESULT).aggregate(
        at=Max("created_at"))["at"]
    if at is None:
        return None
    try:
        plan = money.fees_and_prizes(tournament, standings)
    except TableError:
        plan = None
    if plan is None:
        return Booked(at=at, prizes=[], house=0)
    won = [PrizeWon(place=line.place, user=users[line.user_id], cents=line.prize, tied=line.tied)
           for line in plan.lines if line.prize and line.user_id in users]
    return Booked(at=at, prizes=won, house=plan.house)


def entrants(tournament: Tournament) -> list[User]:
    entries = (Entry.objects.filter(tournament=tournament, status=Entry.Status.ENTERED)
               .select_related("user").order_by("created_at", "pk"))
    return [entry.user for entry in entries]


def prizes(tournament: Tournament, count: int) -> list[Prize]:
    """Each place's share of the pot (fee times entrants), rounded down to the cent; nothing without a fee."""
    pot = tournament.entry_fee_cents * count
    return [Prize(place=place, share=share, cents=pot * share // 100)
            for place, share in enumerate(tournament.prize_shares or [], start=1)] if pot else []


def _names(ids: set[int]) -> dict[int, User]:
    return {user.pk: user for user in User.objects.filter(pk__in=ids)}


def _replacement_text(item: Any, users: dict[int, User]) -> str:
    """A replacement as recorded: a dict naming who came in ("in") for whom ("out"), shown as "Ann for Ben";
    anything else shown as it is."""
    if isinstance(item, dict) and "in" in item and "out" in item:
        def name(value: Any) -> str:
            user = users.get(value) if isinstance(value, int) else None
            return user.shown_name if user else str(value)
        return gettext("%(came)s for %(went)s") % {"came": name(item["in"]), "went": name(item["out"])}
    return str(item)


def live_context(tournament: Tournament) -> dict[str, Any]:
    tables = list(TournamentTable.objects.filter(round__tournament=tournament).select_related("round", "table")
                  .order_by("round__number", "number"))
    ids: set[int] = set()
    for table in tables:
        ids.update(table.players)
        ids.update(int(member) for member in table.no_shows or [] if isinstance(member, int | str)
                   and str(member).isdigit())
        for item in table.replacements or []:
            if isinstance(item, dict):
                ids.update(value for value in item.values() if isinstance(value, int))
    standings = selectors.standings(tournament_id=tournament.pk)
    ids.update(one.user_id for one in standings)
    users = _names(ids)

    def shown(member: int | str | None) -> str:
        if member is None:
            return ""
        user = users.get(int(member))
        return user.shown_name if user else str(member)

    rounds: dict[int, RoundRow] = {}
    per_round: dict[int, dict[int, int]] = {}
    for table in tables:
        row = rounds.setdefault(table.round.number, RoundRow(round=table.round))
        points = [(shown(seat), (table.points or {}).get(str(seat), 0)) for seat in table.players] \
            if table.points is not None else []
        row.tables.append(TableRow(
            table=table, seats=[shown(seat) for seat in table.seats],
            no_shows=[shown(member) for member in table.no_shows or []],
            winner=shown(table.winner_id), points=points,
            replacements=[_replacement_text(item, users) for item in table.replacements or []],
        ))
        if table.points is not None and not table.void:
            for member, value in table.points.items():
                per_round.setdefault(int(member), {})[table.round.number] = value
    numbers = sorted(rounds)
    is_sessions = tournament.format == Tournament.Format.SESSIONS
    standing_rows = [
        StandingRow(place=one.place, user=users[one.user_id], score=one.score, buchholz=one.buchholz,
                    per_round=[per_round.get(one.user_id, {}).get(number) for number in numbers] if is_sessions
                    else [])
        for one in standings if one.user_id in users
    ]
    finished = tournament.status == Tournament.Status.FINISHED
    published = finished and tournament.published_at is not None
    return {
        "tournament": tournament, "rounds": [rounds[number] for number in numbers], "round_numbers": numbers,
        "standings": standing_rows, "is_sessions": is_sessions, "finished": finished,
        "published": published,
        "booked": booked(tournament, standings, users) if published and tournament.entry_fee_cents else None,
    }


def live_html(tournament_id: int, user: Any = None) -> str:
    """The page's live part as an out-of-band fragment (for the socket; `user`: whose row is marked theirs)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    return render_to_string(LIVE_TEMPLATE, {**live_context(tournament), "oob": True, "user": user})
