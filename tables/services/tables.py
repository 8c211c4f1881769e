"""Forming tables: create, join, leave, bots. Each function is one transaction.

Every write first takes the table's row lock (PostgreSQL) and re-checks what it relies on, and
seat changes are conditional updates with a row-count check, so on SQLite (which ignores row
locks but runs IMMEDIATE transactions one writer at a time) two members can never get one seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from rules.engine.errors import ConfigError
from tables import push
from tables.models import Seat, Table
from tables.services.errors import NotAllowed, NotSeated, TableError, TableFull
from tables.services.play import begin_match, bots_play_on, locked_table, seat_of

TURN_SECONDS_RANGE = (10, 600)


def create_table(
    *,
    creator: User,
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    private: bool = False,
    turn_seconds: int = 60,
    fill_with_bots: bool = False,
) -> Table:
    """A new table with the creator in seat 0; with `fill_with_bots` the match starts at once."""
    if game not in registry.GAME_KEYS:
        raise TableError(f"The club plays no game called {game!r}.")
    try:
        config = registry.spec(game).make_config(players, options)
    except ConfigError as error:
        raise TableError(str(error)) from None
    low, high = TURN_SECONDS_RANGE
    if not low <= turn_seconds <= high:
        raise TableError(f"Time per turn must be between {low} and {high} seconds.")
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            seat_count=config.players,
            options=dict(config.options),
            private=private,
            turn_seconds=turn_seconds,
            created_by=creator,
        )
        now = timezone.now()
        Seat.objects.bulk_create(
            [
                Seat(
                    table=table,
                    position=position,
                    user=creator if position == 0 else None,
                    is_bot=fill_with_bots and position > 0,
                    joined_at=now if position == 0 or fill_with_bots else None,
                )
                for position in range(config.players)
            ]
        )
        if fill_with_bots:
            begin_match(table)
        push.lobby_changed()
    return table


def join_table(*, table_id: int, user: User, position: int | None = None) -> Seat:
    """Take an empty seat (the first one, or `position`), or take back one's own seat at a running table."""
    with transaction.atomic():
        table = locked_table(table_id)
        mine = seat_of(table, user)
        if mine is not None:
            if not mine.away:
                raise TableError("You already have a seat at this table.")
            Seat.objects.filter(pk=mine.pk).update(away=False)
            _bump(table)
            push.table_changed(table)
            mine.away = False
            return mine
        if table.status != Table.Status.OPEN:
            raise TableFull("This table is already playing; you can watch it.")
        candidates = Seat.objects.filter(table=table, user__isnull=True, is_bot=False)
        if position is not None:
            candidates = candidates.filter(position=position)
        for seat in candidates.order_by("position"):
            taken = Seat.objects.filter(pk=seat.pk, user__isnull=True, is_bot=False).update(
                user=user, joined_at=timezone.now()
            )
            if taken == 1:
                break
        else:
            raise TableFull("That seat is taken." if position is not None else "This table is full.")
        _seat_filled(table)
        return Seat.objects.get(pk=seat.pk)


def leave_table(*, table_id: int, user: User) -> None:
    """Leave a seat. At a running table the bot plays it on and the member may come back; when the
    last member present leaves, the table is abandoned (bots do not play on for nobody)."""
    with transaction.atomic():
        table = locked_table(table_id)
        mine = seat_of(table, user)
        if mine is None:
            raise NotSeated("You have no seat at this table.")
        if table.status == Table.Status.OPEN:
            Seat.objects.filter(pk=mine.pk).update(user=None, joined_at=None, ready=False)
            if not Seat.objects.filter(table=table, user__isnull=False).exists():
                Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED, finished_at=timezone.now())
            _bump(table)
            push.table_changed(table)
            push.lobby_changed()
            return
        if table.status != Table.Status.RUNNING:
            raise TableError("This table has finished.")
        if mine.away:
            raise TableError("You have already left; the bot is playing your seat.")
        Seat.objects.filter(pk=mine.pk).update(away=True)
        if not Seat.objects.filter(table=table, user__isnull=False, away=False).exists():
            Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED, finished_at=timezone.now())
            _bump(table)
            push.table_changed(table)
            push.lobby_changed()
            return
        bots_play_on(table)


def add_bot(*, table_id: int, user: User) -> Seat:
    """Seat a bot in the first empty seat; only members at the table may do that."""
    with transaction.atomic():
        table = locked_table(table_id)
        if seat_of(table, user) is None:
            raise NotSeated("Only players at this table can add a bot.")
        if table.status != Table.Status.OPEN:
            raise TableError("Bots can only be added before the match starts.")
        for seat in Seat.objects.filter(table=table, user__isnull=True, is_bot=False).order_by("position"):
            if Seat.objects.filter(pk=seat.pk, user__isnull=True, is_bot=False).update(
                is_bot=True, joined_at=timezone.now()
            ):
                break
        else:
            raise TableFull("This table is full.")
        _seat_filled(table)
        return Seat.objects.get(pk=seat.pk)


def remove_bot(*, table_id: int, user: User, position: int) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        if seat_of(table, user) is None:
            raise NotSeated("Only players at this table can remove a bot.")
        if table.status != Table.Status.OPEN:
            raise NotAllowed("Bots stay once the match has started.")
        if not Seat.objects.filter(table=table, position=position, is_bot=True).update(is_bot=False, joined_at=None):
            raise TableError("There is no bot in that seat.")
        _bump(table)
        push.table_changed(table)
        push.lobby_changed()


def _seat_filled(table: Table) -> None:
    full = not Seat.objects.filter(table=table, user__isnull=True, is_bot=False).exists()
    if full:
        begin_match(table)
    else:
        _bump(table)
        push.table_changed(table)
    push.lobby_changed()


def _bump(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version", "status"])
