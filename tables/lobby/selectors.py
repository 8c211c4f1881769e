"""Reads for the lobby: the public tables to join or watch, and the member's own."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, F, Prefetch, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from accounts.models import User
from tables.models import Seat, Table

LOBBY_SIZE = 100


def lobby_tables() -> QuerySet[Table]:
    """Public tables waiting for players or playing, with their seats, in a fixed number of queries.

    At most `LOBBY_TABLES_PER_MEMBER` tables of one creator (their newest, open ones first) are listed, so one
    member's many tables can never push everyone else's out of the lobby's hundred."""
    listed = Table.objects.filter(private=False, status__in=[Table.Status.OPEN, Table.Status.RUNNING])
    per_member = settings.LOBBY_TABLES_PER_MEMBER
    if per_member > 0:
        ranked = listed.filter(created_by__isnull=False).annotate(rank=Window(
            RowNumber(), partition_by=[F("created_by")], order_by=[F("status").asc(), F("created_at").desc()]))
        kept = ranked.filter(rank__lte=per_member).values("pk")
        listed = listed.filter(Q(created_by__isnull=True) | Q(pk__in=kept))
    seats = Seat.objects.select_related("user").order_by("position")
    return (
        listed.annotate(taken=Count("seats", filter=Q(seats__user__isnull=False) | Q(seats__is_bot=True)))
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("status", "-created_at")[:LOBBY_SIZE]
    )


def my_tables(user: User) -> QuerySet[Table]:
    return (
        Table.objects.filter(seats__user=user, status__in=[Table.Status.OPEN, Table.Status.RUNNING])
        .distinct()
        .order_by("-created_at")
    )
