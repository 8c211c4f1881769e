"""Finding the events members are told of, and adding their notices to the outbox (tables.notices.outbox).

A scan reads the correspondence tables alone (tables.notices.selectors) and adds the notices not yet there; it is
safe to run as often as anyone likes, in any number of processes, since a notice's key names its event. Each
kind's key says what "once" means for it:

- turn: `turn:<table>:<round>:<moves made>:<member>`, once per turn (another member's move, or the next round,
  makes another turn; a member who moved and is to move again, as in Hawsker's draw and play, is not told again);
- reminder: `reminder:<table>:<round>:<moves made>:<member>`, once per turn, when the deadline is near;
- digest: `digest:<member>:<local date>`, once a day for members who chose the daily summary;
- timeout: `timeout:<table>:<round>:<move>:<member>`, once per move the bot made when time ran out;
- match over: `match_over:<table>:<member>`, once per table.

A push to a member's devices (tables.notices.pushes) has the key of the email of the same event, after `push:`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import PushSubscription, User
from accounts.time_zones import zone_named
from tables.models import Notice, Table
from tables.notices import outbox, selectors
from tables.notices.preferences import wants

PUSH = "push"  # a push's key: the email's, after this
DIGEST_HOUR = 8  # the daily summary goes at this hour of the member's own day (their time zone)
# How far back a scan looks for time-outs and ended matches: the keys make a second find harmless, so this need
# only outlast a process that was down for a while.
LOOK_BACK = timedelta(days=2)


@dataclass(frozen=True)
class Found:
    key: str
    kind: str
    user: User
    table: Table | None = None
    data: dict[str, Any] = field(default_factory=dict)
    channel: str = Notice.Channel.EMAIL


def reminder_window(table: Table) -> timedelta:
    """How long before the deadline the reminder goes: NOTICE_REMINDER_HOURS, or half the table's hours per move
    when that is less (at a table of 4 hours a move, a 6-hour reminder would come with the turn itself)."""
    return min(timedelta(hours=settings.NOTICE_REMINDER_HOURS), timedelta(hours=table.move_hours) / 2)


def digest_time(user: User, now: datetime) -> datetime:
    """Today's summary time of `user` (DIGEST_HOUR on their own day, in their zone) as of `now`."""
    local = timezone.localtime(now, zone_named(user.time_zone))
    return local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)


def found_at(now: datetime, *, seat_to_act: selectors.SeatToAct | None = None) -> list[Found]:
    """Every notice the correspondence tables call for as of `now` (those already in the outbox too): the emails the
    members want, and the pushes to the members with a device subscribed."""
    turns = selectors.turns_waiting(seat_to_act=seat_to_act)
    ran_out = selectors.timeouts_since(now - LOOK_BACK)
    ended = selectors.ended_since(now - LOOK_BACK)
    return [*_emails(now, turns, ran_out, ended), *_pushes(now, turns, ran_out, ended)]


def _emails(now: datetime, turns: list[selectors.Turn], ran_outs: list[selectors.TimeRanOut],
            ended: list[tuple[Table, list[User]]]) -> list[Found]:
    found: list[Found] = []
    daily: dict[int, list[selectors.Turn]] = {}
    for turn in turns:
        user, table = turn.user, turn.table
        names = (table.pk, *turn.number, user.pk)
        data = {"round": turn.round.number, "moves_made": turn.round.moves_made}
        if wants(user, Notice.Kind.TURN) and not turn.continues:
            found.append(Found(outbox.notice_key(Notice.Kind.TURN, *names), Notice.Kind.TURN, user, table, data))
        elif wants(user, Notice.Kind.DIGEST):
            daily.setdefault(user.pk, []).append(turn)
        if wants(user, Notice.Kind.REMINDER) and _deadline_near(turn, now):
            found.append(Found(outbox.notice_key(Notice.Kind.REMINDER, *names), Notice.Kind.REMINDER, user, table,
                               data))
    for turns_of_one in daily.values():
        user = turns_of_one[0].user
        at = digest_time(user, now)
        # Turns that came after today's hour wait for tomorrow's summary: it comes at the member's hour, not later
        # in the day whenever a turn comes.
        waiting = [t for t in turns_of_one if t.since <= at]
        if now >= at and waiting:
            found.append(Found(outbox.notice_key(Notice.Kind.DIGEST, user.pk, at.date().isoformat()),
                               Notice.Kind.DIGEST, user, None, {"tables": sorted(t.table.pk for t in waiting)}))
    for ran in ran_outs:
        if wants(ran.user, Notice.Kind.TIMEOUT):
            found.append(_timeout(ran))
    for table, members in ended:
        for user in members:
            if wants(user, Notice.Kind.MATCH_OVER):
                found.append(Found(outbox.notice_key(Notice.Kind.MATCH_OVER, table.pk, user.pk),
                                   Notice.Kind.MATCH_OVER, user, table))
    return found


def _deadline_near(turn: selectors.Turn, now: datetime) -> bool:
    return turn.deadline is not None and now < turn.deadline <= now + reminder_window(turn.table)


def _timeout(ran: selectors.TimeRanOut) -> Found:
    move = ran.move
    return Found(outbox.notice_key(Notice.Kind.TIMEOUT, ran.table.pk, move.round.number, move.seq, ran.user.pk),
                 Notice.Kind.TIMEOUT, ran.user, ran.table, {"round": move.round.number, "seq": move.seq})


def _pushes(now: datetime, turns: list[selectors.Turn], ran_outs: list[selectors.TimeRanOut],
            ended: list[tuple[Table, list[User]]]) -> list[Found]:
    """A member who subscribed a device (accounts.webpush) is told each turn there, a deadline near, time run out
    and a match over, whatever their emails: the device is their choice for it, and turning it off there ends it.
    Each push's key is its email's, prefixed, so both channels count "once" alike."""
    members = {t.user.pk for t in turns} | {r.user.pk for r in ran_outs} | {u.pk for _, us in ended for u in us}
    if not members:
        return []
    devices = set(PushSubscription.objects.filter(user_id__in=members).values_list("user_id", flat=True))
    found: list[Found] = []
    for turn in turns:
        if turn.user.pk not in devices:
            continue
        names = (turn.table.pk, *turn.number, turn.user.pk)
        data = {"round": turn.round.number, "moves_made": turn.round.moves_made}
        if not turn.continues:
            found.append(Found(outbox.notice_key(PUSH, Notice.Kind.TURN, *names), Notice.Kind.TURN, turn.user,
                               turn.table, data, Notice.Channel.PUSH))
        if _deadline_near(turn, now):
            found.append(Found(outbox.notice_key(PUSH, Notice.Kind.REMINDER, *names), Notice.Kind.REMINDER,
                               turn.user, turn.table, data, Notice.Channel.PUSH))
    for ran in ran_outs:
        if ran.user.pk in devices:
            email = _timeout(ran)
            found.append(Found(f"{PUSH}:{email.key}", email.kind, email.user, email.table, email.data,
                               Notice.Channel.PUSH))
    for table, users in ended:
        for user in users:
            if user.pk in devices:
                found.append(Found(outbox.notice_key(PUSH, Notice.Kind.MATCH_OVER, table.pk, user.pk),
                                   Notice.Kind.MATCH_OVER, user, table, {}, Notice.Channel.PUSH))
    return found


def scan(*, now: datetime, seat_to_act: selectors.SeatToAct | None = None) -> int:
    """Add to the outbox the notices due as of `now` that are not there yet, in one transaction; returns how many
    were added. The keys already there are read in one query first, so a scan that finds nothing new writes
    nothing; one added meanwhile by another process is taken as there (tables.notices.outbox.add_notice)."""
    found = found_at(now, seat_to_act=seat_to_act)
    if not found:
        return 0
    there = set(Notice.objects.filter(key__in=[f.key for f in found]).values_list("key", flat=True))
    new = [f for f in found if f.key not in there]
    added = 0
    with transaction.atomic():
        for notice in new:
            added += outbox.add_notice(key=notice.key, kind=notice.kind, user=notice.user, table=notice.table,
                                       data=notice.data, now=now, channel=notice.channel)
    return added
