"""Driving a table's life in tests: the table clock moved by hand at chosen times, sockets opened and closed
as the consumer records them. Nothing here sleeps: a test says what time it is."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from tables.models import Move, Seat, Table
from tables.play.services import clock, play, presence
from tests.tables.helpers import current_round, legal_for, seat_to_act

TICK = timedelta(milliseconds=1)


class FakeTime:
    """The time every service reads (`timezone.now`), moved on by the test: members' moves and the clock's
    steps then agree on when things happened."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self) -> datetime:
        return self.now

    def to(self, when: datetime) -> datetime:
        assert when >= self.now, "time runs forward"
        self.now = when
        return when


def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    time = FakeTime()
    monkeypatch.setattr(timezone, "now", time)
    return time


def moves_at(table: Table) -> QuerySet[Move]:
    return Move.objects.filter(round__match__table=table).order_by("round__number", "seq")


def channel(table: Table, member: User, tab: int = 0) -> str:
    """The channel name `tests.tables.helpers.watching` gives the member's socket (tab 0)."""
    return f"test-{table.pk}-{member.pk}" + (f"-{tab}" if tab else "")


def open_page(table: Table, member: User, tab: int = 0) -> None:
    presence.socket_opened(table_id=table.pk, user=member, channel_name=channel(table, member, tab))


def close_page(table: Table, member: User, tab: int = 0) -> None:
    presence.socket_closed(channel_name=channel(table, member, tab))


def seat_of(table: Table, member: User) -> Seat:
    return Seat.objects.get(table=table, user=member)


def due(table: Table) -> datetime | None:
    table.refresh_from_db()
    return table.due_at


def tick(table: Table) -> bool:
    """The clock looks at the table exactly when it is due."""
    when = due(table)
    assert when is not None, "nothing is due at this table"
    return clock.advance(table_id=table.pk, now=when)


def run_clock_until(table: Table, done: Callable[[], bool], *, limit: int = 2000) -> None:
    """Advance the table at each due time until `done()` (a bounded loop: a table that stops being due, or
    never gets there, fails the test)."""
    for _ in range(limit):
        if done():
            return
        tick(table)
    raise AssertionError("the clock never got the table there")


def bot_delay(table: Table) -> timedelta:
    """The pause before the bot's next move, from what the round's last line says (a closed trick waits longer)."""
    from tables.play import pace

    log = current_round(table).log or []
    return pace.delay(table.bot_speed, closed_trick=bool(log and log[-1].get("trick")))


def member_to_act(table: Table, members: dict[int, User]) -> User | None:
    seat = seat_to_act(table)
    return members.get(seat) if seat is not None else None


def play_member(table: Table, member: User, rng: random.Random) -> int:
    table.refresh_from_db()
    seat = seat_of(table, member).position
    return play.play_move(table_id=table.pk, user=member, move_text=rng.choice(legal_for(table, seat)),
                          expected_version=table.version)


def round_over(table: Table) -> bool:
    return current_round(table).over


def tricks_in(table: Table) -> int:
    state = registry.game(table.game).from_json(current_round(table).state)
    return registry.tricks_done(table.game, state)


def a_member_moves(table: Table, members: dict[int, User], rng: random.Random, time: FakeTime | None = None) -> None:
    """The clock plays the bots until one of `members` is to act, who then moves: from here the match counts (until
    a member has moved, its rounds count for nothing: Live.members_moved)."""
    for _ in range(200):
        member = member_to_act(table, members)
        if member is not None:
            play_member(table, member, rng)
            return
        when = due(table)
        clock.advance(table_id=table.pk, now=time.to(when) if time is not None else when)
    raise AssertionError("no member came to act")
