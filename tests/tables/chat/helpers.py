"""Tables for chat tests: a running two-member Hawsker table, and playing its round to the end."""

from __future__ import annotations

import random

from accounts.models import User
from tables.models import Table
from tests.tables.helpers import current_round, full_table, play_one


def running_table(alice: User, bob: User) -> Table:
    return full_table("hawsker", [alice, bob])


def finish_round(table: Table, alice: User, bob: User) -> int:
    """Plays the current round out with random legal moves; the number of the round that ended."""
    number = current_round(table).number
    rng = random.Random(3)
    for _ in range(500):
        if current_round(table).number != number or current_round(table).over:
            break
        assert play_one(table, {0: alice, 1: bob}, rng)
    rnd = current_round(table)
    assert rnd.number != number or rnd.over
    return number
