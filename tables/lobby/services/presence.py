"""Who is online: a row per open lobby socket, refreshed by a heartbeat.

A socket whose process died stops refreshing its row; rows older than `STALE_AFTER` no longer
count, so a crashed Daphne cannot inflate the number for long.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tables.lobby import push
from tables.models import Presence

STALE_AFTER = timedelta(seconds=90)
HEARTBEAT_SECONDS = 30


def online_count() -> int:
    since = timezone.now() - STALE_AFTER
    return Presence.objects.filter(last_seen__gte=since).values("user").distinct().count()


def arrive(*, user_id: int, channel_name: str) -> int:
    with transaction.atomic():
        Presence.objects.update_or_create(
            channel_name=channel_name, defaults={"user_id": user_id, "last_seen": timezone.now()}
        )
        count = online_count()
        push.online_count_changed(count=count, origin=channel_name)
    return count


def heartbeat(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def depart(*, channel_name: str) -> int:
    with transaction.atomic():
        Presence.objects.filter(channel_name=channel_name).delete()
        count = online_count()
        push.online_count_changed(count=count, origin=channel_name)
    return count
