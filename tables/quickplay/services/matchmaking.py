"""Quick play: members ask for a kind of table and are seated as soon as enough compatible requests exist.

Why it is built this way:
- A request is a database row (`QueueRequest`), so it outlives the page that made it and every
  Daphne process sees the same queue.
- Every change to a game's waiting requests happens under that game's lock, one transaction at a
  time: `pg_advisory_xact_lock` on PostgreSQL; on SQLite the IMMEDIATE transaction already holds the
  one write lock. Matching therefore never sees a request another process is cancelling, and state
  changes are still conditional updates checked by row count.
- Matching runs inside the transaction that added the request that completes a table, so the table
  exists the moment the request commits, and members are seated in the order they asked.
- A member is in at most one queue (a partial unique constraint) and at most one running table
  (`ensure_free_to_sit`, which also locks the member's row so a join elsewhere cannot slip in).
- Notices go to each member's personal group after commit (`tables.quickplay.push`), never before.

Compatibility: a table kind is a game, a player count, a band (the stake or target) and the
other house rules. A request fits a kind when it asked for that count or "any", that band or
"any", and exactly those other rules.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from rules.engine import registry
from rules.engine.api import Band, GameSpec
from rules.engine.errors import ConfigError
from tables.i18n import say
from tables.models import QueueRequest, Table
from tables.play.push import batched
from tables.play.services.errors import NotAllowed, TableError
from tables.play.services.table_limits import ensure_may_start
from tables.play.services.tables import called, commitments, create_full_table, ensure_free_to_sit
from tables.quickplay import push

EXPIRES_AFTER = timedelta(minutes=10)
BOTS_AFTER_RANGE = (10, 540)  # seconds; a bot table must come before the request expires
# What a game's bands are called (GameSpec.band_name): the form's label, and the band of a request that takes any.
BAND_NAMES = {
    "stake": (gettext_lazy("Stake"), gettext_lazy("any stake")),
    "length": (gettext_lazy("Length"), gettext_lazy("any length")),
}
TURN_SECONDS = 60
_LOCK_NAMESPACE = 0x51C7  # the first key of pg_advisory_xact_lock(int, int); the second is the game


def bands(game: str) -> tuple[Band, ...]:
    """The stakes or lengths quick play offers for `game` (its spec's; the usual one first: it wins ties)."""
    return registry.spec(game).bands if registry.known(game) else ()


def band_label(game: str, key: str) -> str:
    spec = registry.spec(game)
    band = spec.band(key)
    if band is not None:
        return say(band.label)
    names = BAND_NAMES.get(spec.band_name)
    return str(names[1]) if names is not None else f"any {spec.band_name}"


@dataclass(frozen=True)
class Kind:
    """A table quick play can form: `band` is "" for a game without bands."""

    players: int
    band: str


@dataclass(frozen=True)
class CleanRequest:
    game: str
    players: int | None
    band: str
    options: dict[str, Any]
    bots_after_seconds: int | None


@dataclass
class Settled:
    """What one pass over a game's queue did."""

    tables: list[Table] = field(default_factory=list)
    matched: dict[int, Table] = field(default_factory=dict)  # request id -> its table
    expired: list[int] = field(default_factory=list)  # request ids
    dropped: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.tables or self.expired or self.dropped)

    def add(self, other: Settled) -> None:
        self.tables += other.tables
        self.matched.update(other.matched)
        self.expired += other.expired
        self.dropped += other.dropped


def clean_request(
    *, game: str, players: int | None, band: str, options: Mapping[str, Any] | None, bots_after_seconds: int | None
) -> CleanRequest:
    """The request as it will be stored, or TableError saying what is wrong with it."""
    if not registry.known(game):
        raise TableError(gettext("The club plays no game called %(game)s.") % {"game": repr(game)})
    spec = registry.spec(game)
    if players is not None and not _whole_in(players, spec.min_players, spec.max_players):
        raise TableError(gettext("%(game)s is played by %(low)s to %(high)s players.") % {
            "game": spec.title, "low": spec.min_players, "high": spec.max_players})
    if spec.min_players == spec.max_players:
        players = spec.min_players  # nothing to choose: "any" is the one count the game has
    band = band or ""
    band_option = spec.band_option or None
    if band and band not in {b.key for b in bands(game)}:
        if not bands(game):
            raise TableError(gettext("%(game)s has no stake or target to choose.") % {"game": spec.title})
        raise TableError(gettext("%(game)s has no band %(band)s.") % {"game": spec.title, "band": repr(band)})
    given = dict(options or {})
    if band_option is not None and band_option in given:
        raise TableError(gettext("Choose “%(option)s” with the band, not as an option.") % {
            "option": say(spec.option(band_option).label)})
    try:
        config = spec.make_config(players or spec.default_players, given)
    except ConfigError as error:
        raise TableError(str(error)) from None
    clean = {name: value for name, value in config.options if name != band_option}
    if bots_after_seconds is not None:
        low, high = BOTS_AFTER_RANGE
        if not _whole_in(bots_after_seconds, low, high):
            raise TableError(gettext("Bots may join after %(low)s to %(high)s seconds, or never.")
                             % {"low": low, "high": high})
    return CleanRequest(game=game, players=players, band=band, options=clean, bots_after_seconds=bots_after_seconds)


@batched
def enqueue(
    *,
    user: User,
    game: str,
    players: int | None = None,
    band: str = "",
    options: Mapping[str, Any] | None = None,
    bots_after_seconds: int | None = None,
) -> QueueRequest:
    """Put the member in the game's queue; if that completes a table, they (and the others) are seated
    before this returns (the request comes back matched, with its table)."""
    clean = clean_request(game=game, players=players, band=band, options=options,
                          bots_after_seconds=bots_after_seconds)
    try:
        return _enqueue(user=user, clean=clean)
    except NotAllowed:
        if not _expire_members_own(user):  # an old request past its time must not keep them out
            raise
    return _enqueue(user=user, clean=clean)


def _enqueue(*, user: User, clean: CleanRequest) -> QueueRequest:
    try:
        with transaction.atomic():
            _lock_game(clean.game)
            ensure_free_to_sit(user, refuse_open_seat=True)
            if clean.bots_after_seconds is not None:  # a table of bots is one the member starts alone: it counts
                ensure_may_start(user)
            now = timezone.now()
            request = QueueRequest.objects.create(
                user=user, game=clean.game, players=clean.players, band=clean.band, options=clean.options,
                bots_after_seconds=clean.bots_after_seconds, created_at=now, expires_at=now + EXPIRES_AFTER,
            )
            settled = _settle(clean.game, now=now, only_options=clean.options)
            push.queue_changed(members=[user.pk])
    except IntegrityError as error:  # the partial unique constraint: a second waiting request
        if "queuerequest" not in str(error).lower() and "one_waiting_request" not in str(error):
            raise
        raise NotAllowed(gettext("You are already waiting in quick play; cancel that request first.")) from None
    table = settled.matched.get(request.pk)
    if table is not None:
        request.state, request.table, request.ended_at = QueueRequest.State.MATCHED, table, now
    return request


@batched
def cancel(*, user: User) -> QueueRequest:
    """Take the member's waiting request out of the queue. Too late once they have been seated."""
    request = QueueRequest.objects.filter(user=user, state=QueueRequest.State.WAITING).first()
    if request is None:
        raise _nothing_to_cancel(user)
    with transaction.atomic():
        _lock_game(request.game)
        now = timezone.now()
        changed = QueueRequest.objects.filter(pk=request.pk, state=QueueRequest.State.WAITING).update(
            state=QueueRequest.State.CANCELLED, ended_at=now
        )
        if changed != 1:
            raise _nothing_to_cancel(user)
        push.queue_changed(members=[user.pk])
    request.refresh_from_db()
    return request


@batched
def play_now(*, user: User) -> QueueRequest:
    """The member stops waiting for members: their request is seated at once, with other waiting members who
    accept bots and fit (as when its bots wait passes), and bots in the seats left. The request comes back
    matched, with its table."""
    request = QueueRequest.objects.filter(user=user, state=QueueRequest.State.WAITING).first()
    if request is None:
        raise _nothing_to_cancel(user)
    with transaction.atomic():
        _lock_game(request.game)
        ensure_may_start(user)  # a table of bots is one the member starts alone: it counts
        now = timezone.now()
        live = [r for r in _waiting(request.game) if r.expires_at > now]
        mine = next((r for r in live if r.pk == request.pk), None)
        if mine is None:  # seated, cancelled or expired since it was read
            raise _nothing_to_cancel(user)
        bucket = [r for r in live if _options_key(r.options) == _options_key(mine.options)]
        report = Settled()
        # Each pass that cannot seat `mine` drops a member found playing elsewhere: `mine`'s, or another's.
        while mine.pk not in report.matched and any(r.pk == mine.pk for r in bucket):
            _bots_for_due(registry.spec(request.game), bucket, now=now, report=report, at_once=mine.pk)
        push.queue_changed(members=[user.pk])
    request.refresh_from_db()
    if request.state != QueueRequest.State.MATCHED:  # dropped: the member sits at a running table meanwhile
        raise NotAllowed(gettext("Your quick-play request was withdrawn: you are already playing at another "
                                 "table."))
    return request


@batched
def sweep(*, game: str | None = None, now: datetime | None = None) -> Settled:
    """Expire overdue requests, form any table that can form, and seat members who opted in to bots
    and have waited long enough. Safe to call from anywhere, any number of times."""
    report = Settled()
    for key in [game] if game is not None else registry.game_keys():
        if not registry.known(key):
            raise TableError(gettext("The club plays no game called %(game)s.") % {"game": repr(key)})
        if not QueueRequest.objects.filter(game=key, state=QueueRequest.State.WAITING).exists():
            continue
        with transaction.atomic():
            _lock_game(key)
            settled = _settle(key, now=now or timezone.now())
            if settled:
                push.queue_changed()
        report.add(settled)
    return report


def sweep_member(*, user_id: int) -> Settled:
    """What a member's lobby socket calls when their own request may have come due."""
    request = QueueRequest.objects.filter(user_id=user_id, state=QueueRequest.State.WAITING).first()
    if request is None:
        return Settled()
    return sweep(game=request.game)


def next_due(request: QueueRequest) -> datetime | None:
    """When something will happen to a waiting request by itself: bots join, or it expires."""
    if request.state != QueueRequest.State.WAITING:
        return None
    due = request.expires_at
    if request.bots_after_seconds is not None:
        due = min(due, request.created_at + timedelta(seconds=request.bots_after_seconds))
    return due


def fits(request: QueueRequest, kind: Kind) -> bool:
    return request.players in (None, kind.players) and request.band in ("", kind.band)


def same_options(one: QueueRequest, other: QueueRequest) -> bool:
    """Whether two requests ask for the same house rules (besides the count and the band)."""
    return _options_key(one.options) == _options_key(other.options)


def kinds_for(spec: GameSpec, request: QueueRequest) -> list[Kind]:
    sizes = [request.players] if request.players else list(range(spec.min_players, spec.max_players + 1))
    band_keys = [request.band] if request.band else [b.key for b in bands(spec.key)] or [""]
    return [Kind(players=n, band=b) for n in sizes for b in band_keys]


def table_options(game: str, kind: Kind, options: Mapping[str, Any]) -> dict[str, Any]:
    full = dict(options)
    spec = registry.spec(game)
    band = spec.band(kind.band)
    if band is not None:
        full[spec.band_option] = band.value
    return full


def find_group(spec: GameSpec, waiting: list[QueueRequest]) -> tuple[Kind, list[QueueRequest]] | None:
    """The first table that can form from `waiting` (oldest first, all with the same other rules).

    The oldest request that can be seated at all is seated; among the kinds of table it fits, the
    one whose last needed member asked earliest wins (then the larger table, then the band listed
    first). Its members are the oldest requests that fit, in the order they asked.
    """
    band_rank = {b.key: i for i, b in enumerate(bands(spec.key))}
    for request in waiting:
        best: tuple[tuple[int, int, int], Kind, list[int]] | None = None
        for kind in kinds_for(spec, request):
            chosen: list[int] = []
            for index, other in enumerate(waiting):
                if fits(other, kind):
                    chosen.append(index)
                    if len(chosen) == kind.players:
                        break
            if len(chosen) < kind.players:
                continue
            score = (chosen[-1], -kind.players, band_rank.get(kind.band, 0))
            if best is None or score < best[0]:
                best = (score, kind, chosen)
        if best is not None:
            return best[1], [waiting[i] for i in best[2]]
    return None


def _settle(game: str, *, now: datetime, only_options: Mapping[str, Any] | None = None) -> Settled:
    """One pass over the game's queue under its lock: expire, match, then bots for those due.

    `only_options` limits matching to requests with those other rules (after an enqueue, only the
    new request's group can have become complete); expiry and bots always look at the whole game.
    """
    spec = registry.spec(game)
    report = Settled()
    waiting = _waiting(game)
    overdue = [r for r in waiting if r.expires_at <= now]
    if overdue:
        _end(overdue, state=QueueRequest.State.EXPIRED, now=now)
        for request in overdue:
            push.queue_ended(user_id=request.user_id, kind="expired", game=game)
        report.expired += [r.pk for r in overdue]
    live = [r for r in waiting if r.expires_at > now]
    buckets: dict[str, list[QueueRequest]] = defaultdict(list)
    for request in live:
        buckets[_options_key(request.options)].append(request)
    wanted = None if only_options is None else _options_key(only_options)
    for key, bucket in buckets.items():
        if wanted is None or key == wanted:
            _match_bucket(spec, bucket, now=now, report=report)
    for bucket in buckets.values():
        _bots_for_due(spec, bucket, now=now, report=report)
    return report


def _match_bucket(spec: GameSpec, bucket: list[QueueRequest], *, now: datetime, report: Settled) -> None:
    while (found := find_group(spec, bucket)) is not None:
        kind, group = found
        if _seat(spec, kind, group, bots=0, now=now, report=report):
            bucket[:] = [r for r in bucket if r.pk not in report.matched]
        else:
            _drop_busy(group, bucket, now=now, report=report)


def _bots_for_due(spec: GameSpec, bucket: list[QueueRequest], *, now: datetime, report: Settled,
                  at_once: int | None = None) -> None:
    """A request whose bots wait has passed (or `at_once`, the request whose member asked for bots now) gets a
    table: it, then other waiting members who also accept bots and fit (oldest first), then bots in the seats
    left. The table is the kind of it that seats the most of those members (see `bot_table_kind`)."""
    for request in list(bucket):
        if request not in bucket:
            continue
        if request.pk != at_once:
            if request.bots_after_seconds is None:
                continue
            if request.created_at + timedelta(seconds=request.bots_after_seconds) > now:
                continue
        others = [r for r in bucket if r is not request and r.bots_after_seconds is not None]
        kind, group = bot_table_kind(spec, request, others)
        if _seat(spec, kind, group, bots=kind.players - len(group), now=now, report=report):
            bucket[:] = [r for r in bucket if r.pk not in report.matched]
        else:
            _drop_busy(group, bucket, now=now, report=report)


def bot_table_kind(spec: GameSpec, request: QueueRequest,
                   others: list[QueueRequest]) -> tuple[Kind, list[QueueRequest]]:
    """The table bots complete for `request`, and its members (in the order they asked).

    Among the kinds `request` accepts, the one that seats the most of `others` who fit it (oldest first) wins;
    then the size nearest the game's usual one (Sheepshead's five, so two members who said "any number" play the
    usual game with three bots, not a three-handed one), the smaller on a tie; then the band listed first.
    """
    band_rank = {b.key: i for i, b in enumerate(bands(spec.key))}
    best: tuple[tuple[int, int, int, int], Kind, list[QueueRequest]] | None = None
    for kind in kinds_for(spec, request):
        fitting = [r for r in others if fits(r, kind)][: kind.players - 1]
        score = (-len(fitting), abs(kind.players - spec.default_players), kind.players,
                 band_rank.get(kind.band, 0))
        if best is None or score < best[0]:
            best = (score, kind, fitting)
    if best is None:  # cannot happen: a request accepts at least the kind it names
        raise RuntimeError("a quick-play request accepts no table")
    return best[1], sorted([request, *best[2]], key=lambda r: (r.created_at, r.pk))


def _seat(spec: GameSpec, kind: Kind, group: list[QueueRequest], *, bots: int, now: datetime,
          report: Settled) -> bool:
    """Form the table and mark the requests matched (each must still be waiting); tell each member.
    False (and nothing changed) when a member turns out to be playing elsewhere already."""
    users = User.objects.in_bulk([r.user_id for r in group])  # only now: most passes seat nobody
    members = [users[r.user_id] for r in group]
    try:
        table = create_full_table(
            game=spec.key, players=kind.players, members=members, bots=bots, from_queue=True,
            options=table_options(spec.key, kind, group[0].options), turn_seconds=TURN_SECONDS,
            quick=True,  # "Alice's quick Hawk table": for the member who asked first, numbered as all her tables
            bot_level=Table.BotLevel.NORMAL,  # the club's usual bots: the table clock plays them (never a request)
        )
    except NotAllowed:
        return False
    ids = [r.pk for r in group]
    changed = QueueRequest.objects.filter(pk__in=ids, state=QueueRequest.State.WAITING).update(
        state=QueueRequest.State.MATCHED, ended_at=now, with_bots=bots > 0, table=table
    )
    if changed != len(ids):  # cannot happen under the game lock; never seat anyone on a doubt
        raise RuntimeError("a quick-play request changed while its game was locked")
    for request in group:
        push.table_ready(user_id=request.user_id, table_code=table.code, game=table.game, name=table.name)
        report.matched[request.pk] = table
    report.tables.append(table)
    return True


def _drop_busy(group: list[QueueRequest], bucket: list[QueueRequest], *, now: datetime, report: Settled) -> None:
    """Requests whose member meanwhile sits at a running table leave the queue (they are told)."""
    busy = _busy(group)
    if not busy:
        raise RuntimeError("a quick-play table could not be formed")
    _drop(busy, now=now, report=report)
    gone = {r.pk for r in busy}
    bucket[:] = [r for r in bucket if r.pk not in gone]


def _busy(group: list[QueueRequest]) -> list[QueueRequest]:
    """Requests whose member meanwhile sits at a running table (the join rules should prevent it)."""
    found = commitments([r.user_id for r in group])
    return [r for r in group if found[r.user_id].playing]


def _drop(requests: list[QueueRequest], *, now: datetime, report: Settled) -> None:
    _end(requests, state=QueueRequest.State.CANCELLED, now=now)
    for request in requests:
        push.queue_ended(user_id=request.user_id, kind="dropped", game=request.game)
    report.dropped += [r.pk for r in requests]


def _end(requests: list[QueueRequest], *, state: str, now: datetime) -> None:
    ids = [r.pk for r in requests]
    changed = QueueRequest.objects.filter(pk__in=ids, state=QueueRequest.State.WAITING).update(
        state=state, ended_at=now
    )
    if changed != len(ids):
        raise RuntimeError("a quick-play request changed while its game was locked")


def _expire_members_own(user: User) -> bool:
    """The member's waiting request, if past its time, expires (under its own game's lock)."""
    old = QueueRequest.objects.filter(user=user, state=QueueRequest.State.WAITING).first()
    if old is None or old.expires_at > timezone.now():
        return False
    return old.pk in sweep(game=old.game).expired


def _nothing_to_cancel(user: User) -> TableError:
    last = QueueRequest.objects.filter(user=user).order_by("-created_at", "-id").first()
    if last is not None and last.state == QueueRequest.State.MATCHED and last.table is not None:
        return NotAllowed(gettext("Too late to cancel: you are seated at %(table)s.") % {"table": called(last.table)})
    return TableError(gettext("You are not waiting in quick play."))


def _waiting(game: str) -> list[QueueRequest]:
    """The game's waiting requests, oldest first. Every request and every sweep reads this under the
    game's lock, so it is written as the SQL it is: building it through the ORM cost twice the query."""
    sql = (f"SELECT * FROM {QueueRequest._meta.db_table} WHERE game = %s AND state = %s"
           " ORDER BY created_at, id")
    return list(QueueRequest.objects.raw(sql, [game, QueueRequest.State.WAITING]))


def _lock_game(game: str) -> None:
    """Serialize every change to one game's queue (PostgreSQL: an advisory lock held to commit)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, registry.game_keys().index(game)])


def _whole_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _options_key(options: Mapping[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))
