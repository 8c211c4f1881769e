"""Reads for quick play: how many wait for each game, and where one member stands.

Kept apart from the services (which write) so the lobby page, the lobby socket and the views all
count the same way: a request past its expiry no longer counts, even before a sweep marks it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from rules.engine import registry
from tables.models import QueueRequest, Seat, Table
from tables.quickplay.services.matchmaking import band_label, bands, fits, kinds_for, next_due, same_options

# A member whose table formed this recently is moved there when their lobby socket (re)connects:
# covers a table that formed between the page being rendered and its socket connecting.
READY_REPLAY = timedelta(seconds=15)
# A panel looks at this many other waiting requests for one that fits (a club's queue is short; a bench's is not).
PARTNERS_LOOKED_AT = 200


@dataclass(frozen=True)
class GameQueue:
    key: str
    title: str
    waiting: int


@dataclass
class QuickStatus:
    """Everything the quick-play panel shows one member."""

    counts: list[GameQueue]
    mine: QueueRequest | None = None
    place: int = 0  # 1 = first in line for that game
    of: int = 0
    waited_seconds: int = 0
    description: str = ""
    due: datetime | None = None  # when bots join or the request expires by itself
    ready: Table | None = None  # a table quick play seated them at just now
    ready_at: datetime | None = None
    alone: bool = False  # nobody else waiting could sit at a table with them
    bots_in: int | None = None  # seconds until bots take the empty seats (None: members only)
    elsewhere: list[GameQueue] = field(default_factory=list)  # other games members wait for now

    @property
    def waited_text(self) -> str:
        return duration_text(self.waited_seconds)

    @property
    def bots_in_text(self) -> str:
        return duration_text(self.bots_in or 0)

    @property
    def duration_words(self) -> dict[str, str]:
        """How a duration is written, for the page's script that counts on (static/js/quick_wait.js)."""
        return {"seconds": gettext("%(seconds)s s"), "minutes": gettext("%(minutes)s min %(seconds)s s")}


def duration_text(seconds: int) -> str:
    minutes, secs = divmod(max(seconds, 0), 60)
    if not minutes:
        return gettext("%(seconds)s s") % {"seconds": secs}
    return gettext("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": f"{secs:02d}"}


def waiting_counts(*, now: datetime | None = None) -> list[GameQueue]:
    now = now or timezone.now()
    rows = dict(
        QueueRequest.objects.filter(state=QueueRequest.State.WAITING, expires_at__gt=now)
        .values_list("game").annotate(n=Count("id")).values_list("game", "n")
    )
    return [GameQueue(key=s.key, title=s.title, waiting=rows.get(s.key, 0)) for s in registry.all_specs()]


# The counts are the same for every lobby socket: after a queue event, the first socket of this
# process to refresh reads them and the others reuse that read. (monotonic start of the read, counts)
_shared_counts: tuple[float, list[GameQueue]] | None = None


def cached_waiting_counts(*, fresh_after: float) -> list[GameQueue] | None:
    """Counts some socket of this process read after `fresh_after` (time.monotonic()), if any."""
    shared = _shared_counts
    return shared[1] if shared is not None and shared[0] >= fresh_after else None


def shared_waiting_counts(*, fresh_after: float) -> list[GameQueue]:
    global _shared_counts
    cached = cached_waiting_counts(fresh_after=fresh_after)
    if cached is not None:
        return cached
    started = time.monotonic()
    counts = waiting_counts()
    _shared_counts = (started, counts)
    return counts


def waiting_request(user: User) -> QueueRequest | None:
    if not user.is_authenticated:
        return None
    return QueueRequest.objects.filter(user=user, state=QueueRequest.State.WAITING).first()


def describe(request: QueueRequest) -> str:
    spec = registry.spec(request.game)
    parts = [spec.title]
    if spec.min_players != spec.max_players:
        parts.append(ngettext("%(count)s player", "%(count)s players", request.players) % {"count": request.players}
                     if request.players else gettext("any number of players"))
    if bands(request.game):
        parts.append(band_label(request.game, request.band))
    if request.bots_after_seconds is not None:
        parts.append(gettext("bots after %(wait)s") % {"wait": duration_text(request.bots_after_seconds)})
    return " · ".join(parts)


def any_partner(mine: QueueRequest, *, now: datetime) -> bool:
    """Whether someone else waiting could sit at a table with `mine`: same game and house rules, and a table
    size and band both accept."""
    spec = registry.spec(mine.game)
    kinds = kinds_for(spec, mine)
    others = QueueRequest.objects.filter(game=mine.game, state=QueueRequest.State.WAITING,
                                         expires_at__gt=now).exclude(pk=mine.pk).only(
        "game", "players", "band", "options")[:PARTNERS_LOOKED_AT]
    return any(same_options(other, mine) and any(fits(other, kind) for kind in kinds) for other in others)


def quick_status(user: User, *, now: datetime | None = None, counts: list[GameQueue] | None = None) -> QuickStatus:
    now = now or timezone.now()
    status = QuickStatus(counts=counts if counts is not None else waiting_counts(now=now))
    mine = waiting_request(user)
    if mine is not None and mine.expires_at > now:
        ahead = QueueRequest.objects.filter(
            Q(created_at__lt=mine.created_at) | Q(created_at=mine.created_at, id__lt=mine.pk),
            game=mine.game, state=QueueRequest.State.WAITING, expires_at__gt=now,
        ).count()
        status.mine = mine
        status.place = ahead + 1
        status.of = next(q.waiting for q in status.counts if q.key == mine.game)
        status.waited_seconds = int((now - mine.created_at).total_seconds())
        status.description = describe(mine)
        status.alone = not any_partner(mine, now=now)
        status.elsewhere = [q for q in status.counts if q.key != mine.game and q.waiting]
        if mine.bots_after_seconds is not None:
            status.bots_in = max(0, mine.bots_after_seconds - status.waited_seconds)
    if mine is not None:
        status.due = next_due(mine)
    elif user.is_authenticated:
        recent = (
            QueueRequest.objects.filter(user=user, state=QueueRequest.State.MATCHED, ended_at__gte=now - READY_REPLAY)
            .select_related("table").order_by("-ended_at").first()
        )
        if recent is not None and recent.table is not None and Seat.objects.filter(
            table=recent.table, user=user, away=False
        ).exists():
            status.ready, status.ready_at = recent.table, recent.ended_at
    return status
