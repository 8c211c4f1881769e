"""What the notices read about correspondence tables (and nothing of live ones: every query here starts from
`move_hours > 0`): whose turn it is, moves the bot made when a member's time ran out, matches that ended."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts.models import User
from rules.engine import registry
from tables.models import Match, Move, Round, Seat, Table

ENDED = (Table.Status.FINISHED, Table.Status.ABANDONED)


@dataclass(frozen=True)
class Turn:
    """A member's turn at a correspondence table: the move they are to make is the round's `moves_made` + 1."""

    table: Table
    round: Round
    user: User
    since: datetime  # when the turn came (the last move, or the deal)
    continues: bool = False  # the member made the move before too: the same turn goes on (no new "your turn")

    @property
    def deadline(self) -> datetime | None:
        return self.round.deadline

    @property
    def number(self) -> tuple[int, int]:
        """(round number, moves made): names the turn; a move or a new round makes another."""
        return self.round.number, self.round.moves_made


class SeatToAct:
    """The seat to act in a round, from its engine state (as tables.play.services.play.Live.seat_to_act reads it),
    and whether that seat also made the move before (its turn goes on: Hawsker's draw, then the play), remembered
    by (round, moves made): a state is parsed once per turn, not on every scan."""

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self.known: dict[tuple[int, int], tuple[int | None, bool]] = {}

    def __call__(self, game: str, current: Round) -> tuple[int | None, bool]:
        key = (current.pk, current.moves_made)
        if key not in self.known:
            if len(self.known) >= self.size:
                self.known.clear()
            engine = registry.game(game)
            seat = engine.to_act(engine.from_json(current.state))
            before = Move.objects.filter(round=current, seq=current.moves_made).values_list("seat", flat=True).first()
            self.known[key] = (seat, seat is not None and before == seat)
        return self.known[key]


def turns_waiting(*, seat_to_act: SeatToAct | None = None, user_id: int | None = None) -> list[Turn]:
    """Every member whose turn it is at a running correspondence table (or `user_id`'s alone). Bots are not
    members, and a member who left the seat (`away`) or whose seat the house plays this round is not waiting."""
    to_act = seat_to_act or SeatToAct()
    rounds = list(Round.objects.filter(match__table__status=Table.Status.RUNNING, match__table__move_hours__gt=0,
                                       over=False).select_related("match__table"))
    if not rounds:
        return []
    seats = Seat.objects.filter(table_id__in={r.match.table_id for r in rounds}, user__isnull=False, is_bot=False,
                                away=False)
    if user_id is not None:
        seats = seats.filter(user_id=user_id)
    by_place = {(s.table_id, s.position): s for s in seats.select_related("user")}
    turns = []
    for current in rounds:
        table = current.match.table
        position, continues = to_act(table.game, current)
        seat = by_place.get((table.pk, position))
        if seat is None or seat.position in (current.house_seats or []):
            continue
        turns.append(Turn(table=table, round=current, user=seat.user, since=current.moved_at or current.started_at,
                          continues=continues))
    return turns


@dataclass(frozen=True)
class TimeRanOut:
    table: Table
    move: Move
    user: User


def timeouts_since(since: datetime) -> list[TimeRanOut]:
    """The moves the bot made since `since` in a member's seat at a correspondence table because their time ran
    out (Move.Actor.TIMEOUT), each with the member of that seat."""
    moves = list(Move.objects.filter(actor=Move.Actor.TIMEOUT, created_at__gte=since,
                                     round__match__table__move_hours__gt=0)
                 .select_related("round__match__table"))
    if not moves:
        return []
    seats = {(s.table_id, s.position): s for s in Seat.objects.filter(
        table_id__in={m.round.match.table_id for m in moves}, user__isnull=False).select_related("user")}
    found = []
    for move in moves:
        seat = seats.get((move.round.match.table_id, move.seat))
        if seat is not None:
            found.append(TimeRanOut(table=move.round.match.table, move=move, user=seat.user))
    return found


def ended_since(since: datetime) -> list[tuple[Table, list[User]]]:
    """Correspondence tables whose match ended since `since` (played out, or closed), with their members."""
    tables = list(Table.objects.filter(move_hours__gt=0, status__in=ENDED, finished_at__gte=since,
                                       pk__in=Match.objects.values("table_id")))
    if not tables:
        return []
    members: dict[int, list[User]] = {t.pk: [] for t in tables}
    for seat in Seat.objects.filter(table__in=tables, user__isnull=False).select_related("user").order_by("position"):
        members[seat.table_id].append(seat.user)
    return [(table, members[table.pk]) for table in tables]

