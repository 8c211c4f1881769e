"""Reads for the lobby: the public tables to join or watch, and the member's own."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from accounts.models import User
from tables.models import Seat, Table


def lobby_tables() -> QuerySet[Table]:
    """Public tables waiting for players or playing, with their seats, in a fixed number of queries."""
    seats = Seat.objects.select_related("user").order_by("position")
    return (
        Table.objects.filter(private=False, status__in=[Table.Status.OPEN, Table.Status.RUNNING])
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False) | Q(seats__is_bot=True)))
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("status", "-created_at")[:100]
    )


def my_tables(user: User) -> QuerySet[Table]:
    return (
        Table.objects.filter(seats__user=user, status__in=[Table.Status.OPEN, Table.Status.RUNNING])
        .distinct()
        .order_by("-created_at")
    )
