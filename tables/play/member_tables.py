"""A member's own tables, where it is their turn first: the page a member who holds several correspondence tables
(and perhaps one live table) opens to see where they are wanted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import OuterRef, Prefetch, Subquery

from accounts.models import User
from rules.engine import registry
from tables.models import Round, Seat, Table
from tables.play.correspondence import move_hours_text
from tables.play.selectors import seat_label


@dataclass(frozen=True)
class MemberTable:
    """One of a member's tables, as their page of tables lists it."""

    table: Table
    my_turn: bool  # the member is to act (not a bot for them, not between rounds)
    to_act: str  # who is to act, by name ("" between rounds, at a table still filling, or when it is the member)
    deadline: datetime | None  # when the turn (or the pause between rounds) runs out

    @property
    def pace(self) -> str:
        return move_hours_text(self.table.move_hours) if self.table.correspondence else ""


def member_tables(user: User) -> list[MemberTable]:
    """The tables where `user` holds a seat they have not left, open or running: those where it is their turn
    first, the turn that runs out soonest first, then the others by their deadlines, then those still filling.
    Three queries: the tables with their newest round's id, the seats, the rounds; each round's seat to act
    comes from the engine."""
    newest = Round.objects.filter(match__table=OuterRef("pk")).order_by("-number").values("pk")[:1]
    tables = list(
        Table.objects.filter(seats__user=user, seats__away=False, status__in=[Table.Status.OPEN, Table.Status.RUNNING])
        .annotate(newest_round=Subquery(newest))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")))
        .distinct()
    )
    rounds = Round.objects.only("pk", "state", "deadline", "over").in_bulk(
        [t.newest_round for t in tables if t.newest_round is not None and t.status == Table.Status.RUNNING])
    rows = []
    for table in tables:
        current = rounds.get(table.newest_round)
        if current is None:
            rows.append(MemberTable(table=table, my_turn=False, to_act="", deadline=None))
            continue
        game = registry.game(table.game)
        position = None if current.over else game.to_act(game.from_json(current.state))
        seat = next((s for s in table.seats.all() if s.position == position), None)
        mine = seat is not None and seat.user_id == user.pk
        name = "" if seat is None or mine else seat_label(seat)
        rows.append(MemberTable(table=table, my_turn=mine, to_act=name, deadline=current.deadline))
    far = datetime.max.replace(tzinfo=UTC)
    return sorted(rows, key=lambda row: (not row.my_turn, row.table.status != Table.Status.RUNNING,
                                         row.deadline or far, -row.table.pk))
