"""A member who goes away from a running table, for the tests of the club's rule (README, "When a member is away"):
a Sheepshead table of two members and three bots, played through the services with the table clock moved by hand."""

from __future__ import annotations

import random

from accounts.models import User
from tables.models import Move, Round, Table
from tables.play.services import clock
from tests.tables.helpers import current_round, full_table, play_one, watching
from tests.tables.play.table_life import FakeTime, due


def pair_at_sheepshead(make_member, rounds: int = 5) -> tuple[User, User, Table]:
    """Alice (seat 0) and Bob (seat 1), both with the page open, and three bots, at a match of `rounds` rounds."""
    alice = make_member("alice", display_name="Alice")
    bob = make_member("bob", display_name="Bob")
    table = full_table("sheepshead", [alice, bob], bots=3, rounds=rounds)
    watching(table, alice, bob)
    return alice, bob, table


def step(table: Table, members: dict[int, User], rng: random.Random, time: FakeTime) -> None:
    """One member move if one of `members` (by seat) is to act, else the clock's next step when it is due."""
    if not play_one(table, members, rng):
        when = due(table)
        assert when is not None, "nothing is due at this table"
        clock.advance(table_id=table.pk, now=time.to(max(when, time.now)))


def until_moved(table: Table, member: User, members: dict[int, User], rng: random.Random, time: FakeTime) -> None:
    """Play until `member` has made a move of their own in the current round (the match counts from then)."""
    for _ in range(500):
        if Move.objects.filter(round=current_round(table), user=member).exists():
            return
        step(table, members, rng, time)
    raise AssertionError("the member never moved")


def play_out(table: Table, members: dict[int, User], rng: random.Random, time: FakeTime) -> Round:
    """The members in `members` play their turns and the clock every other seat's, until the round is over."""
    for _ in range(3000):
        current = current_round(table)
        if current.over:
            return current
        step(table, members, rng, time)
    raise AssertionError("the round did not end")
