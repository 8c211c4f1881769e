"""What must hold for quick play after any storm of joins and cancels, checked from the database.

Shared by the SQLite thread test (default tier) and the PostgreSQL + Redis tests (services tier).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count

from rules.engine import registry
from tables.models import QueueRequest, Seat, Table
from tables.quickplay.services import matchmaking
from tables.quickplay.services.matchmaking import Kind, bands, fits

W = QueueRequest.State


@dataclass
class Outcomes:
    """What the members were told: request ids they got, and how their cancels went."""

    requested: set[int] = field(default_factory=set)  # request ids that enqueue returned
    refused: list[str] = field(default_factory=list)
    cancelled: set[int] = field(default_factory=set)  # user ids whose cancel succeeded
    too_late: set[int] = field(default_factory=set)  # user ids told "too late to cancel"
    errors: list[BaseException] = field(default_factory=list)


def random_request(rng: random.Random) -> dict:
    """A request from a small set of kinds, so tables form often and some requests stay unmatched."""
    game = rng.choice(["hawsker", "hawsker", "puskiyon", "hawk"])
    spec = registry.spec(game)
    players = rng.choice([None, 2, 3]) if spec.max_players > 2 else None
    band_keys = [b.key for b in bands(game)][:2]
    band = rng.choice(["", *band_keys]) if band_keys else ""
    return {"game": game, "players": players, "band": band}


def table_band(table: Table) -> str:
    option = registry.spec(table.game).band_option
    if not option:
        return ""
    return next(b.key for b in bands(table.game) if b.value == table.options[option])


def check_invariants(outcomes: Outcomes) -> dict[str, int]:
    """Nobody seated twice, no cancelled member seated, every table full and of one kind, no request lost."""
    assert outcomes.errors == [], outcomes.errors
    requests = list(QueueRequest.objects.select_related("table").order_by("created_at", "id"))
    # No request lost: every request a member was given is here, and each is settled in one state.
    assert {r.pk for r in requests} == outcomes.requested
    assert all(r.state in W.values for r in requests)
    # Nobody seated twice.
    twice = Seat.objects.filter(user__isnull=False).values("user").annotate(n=Count("id")).filter(n__gt=1)
    assert list(twice) == []
    # Every seat a member holds is the seat of one matched request of theirs, and the other way
    # round: so nobody who cancelled (or is still waiting, or expired) was seated by that request.
    seats = set(Seat.objects.filter(user__isnull=False).values_list("user_id", "table_id"))
    matched = {(r.user_id, r.table_id) for r in requests if r.state == W.MATCHED}
    assert seats == matched
    for request in requests:
        if request.state != W.MATCHED:
            assert request.table_id is None, f"request {request.pk} ({request.state}) has a table"
    waiting_members = [r.user_id for r in requests if r.state == W.WAITING]
    assert len(waiting_members) == len(set(waiting_members))
    assert not set(waiting_members) & {user for user, _ in seats}
    assert outcomes.cancelled == {r.user_id for r in requests if r.state == W.CANCELLED}
    assert outcomes.too_late <= {r.user_id for r in requests if r.state == W.MATCHED}
    # Every table formed is full, of one kind, and seated in the order its members asked.
    by_table: dict[int, list[QueueRequest]] = defaultdict(list)
    for request in requests:
        if request.table_id is not None:
            by_table[request.table_id].append(request)
    tables = list(Table.objects.all())
    assert {t.pk for t in tables} == set(by_table)
    for table in tables:
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        assert len(seats) == table.seat_count
        assert all(s.user_id is not None or s.is_bot for s in seats), f"{table} has an empty seat"
        assert table.status == Table.Status.RUNNING
        members = by_table[table.pk]
        humans = [s.user_id for s in seats if s.user_id is not None]
        assert humans == [r.user_id for r in members], f"{table} is not seated first come, first seated"
        kind = Kind(players=table.seat_count, band=table_band(table))
        for request in members:
            assert request.game == table.game
            assert fits(request, kind), f"request {request.pk} does not fit {table}"
            assert all(table.options[k] == v for k, v in request.options.items())
    # Settled: nothing still waiting could have formed a table.
    waiting = [r for r in requests if r.state == W.WAITING]
    for game in registry.game_keys():
        groups: dict[str, list[QueueRequest]] = defaultdict(list)
        for request in waiting:
            if request.game == game:
                groups[matchmaking._options_key(request.options)].append(request)
        for group in groups.values():
            assert matchmaking.find_group(registry.spec(game), group) is None, f"{game} queue left a table unformed"
    states = Counter(r.state for r in requests)
    return {"tables": len(tables), **states}
