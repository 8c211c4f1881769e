"""A rematch at a finished table, and "Play again" at a practice table (issue 41). Each function is one transaction.

What the club decided:
- A rematch is a new table: the finished one keeps its match, rounds, ledger entries and results untouched. The new
  table has the old one's game, house rules, name, privacy, clock and bots, every seat where it was.
- Any member seated at the finished table may ask; asking is accepting. Every other member there is asked (one who
  left the table during the match too: their seat is theirs to take back). Each accepts or declines, and may change
  their answer while the others are still asked. Bots need no asking.
- Everyone accepted: the new table starts at once and every page of the old table goes there. When every member has
  answered with someone declining, or `ANSWER_TIME` after the asking (the table clock comes then), the new table opens
  with the accepters seated and the other members' seats free (it waits for players as any open table, in the lobby
  unless it is private, whose members may still take their seats); nobody accepted: the rematch is cancelled.
- A member playing at another table or waiting in quick play when it is made is not seated: their seat is free.
- "Play again" is the same at a table of one member with bots: asking is everyone accepting, so the new table
  starts at once.
- The new table counts against the one who asked (its creator; else the first accepter, if the asker changed their
  mind), as a table they opened would: their starts in the window (`TABLE_STARTS_PER_MEMBER`, checked when they ask
  and when it is made) and, when it opens with seats free, their open tables (`TABLES_OPEN_PER_MEMBER`). A limit
  reached when it is made cancels it, saying why; a member who plays again and again with bots is held to the
  club's limit on tables started as by the lobby's form.
- One rematch a table: the `Rematch` row is unique per finished table and per new table, and everything here runs
  under the finished table's row lock, so two members asking at once make one offer (the second asking accepts it),
  a double click changes nothing more, and an answer to an offer that is no longer the table's is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Rematch, Seat, Table
from tables.play import push, wakeups
from tables.play.services import open_tables, table_limits
from tables.play.services.errors import NotSeated, StaleVersion, TableError
from tables.play.services.play import begin_match, locked_table, seated, seats_at
from tables.play.services.tables import _lock_members, club_table_name, commitments, ensure_free_to_sit
from tables.play.table_names import is_club_name

ANSWER_TIME = timedelta(seconds=60)  # how long the members who have not answered are waited for


@dataclass(frozen=True)
class Answered:
    """The finished table's version after the answer, and the code of the rematch's table when the member who
    answered is seated there (their page goes there)."""

    version: int
    go_to: str | None = None


def answer_rematch(*, table_code: str, user: User, accept: bool, offer: int | None,
                   now: datetime | None = None) -> Answered:
    """The member's answer at the finished table of `table_code`: `accept` (the first asks for the rematch) or
    decline. `offer`: the rematch the member's board showed (None: the board showed none yet; a member asking at
    the same moment as another then accepts theirs)."""
    with transaction.atomic():
        table = locked_table(code=table_code)
        seats, mine = seated(table, user)
        if mine is None:
            raise NotSeated(gettext("Only the players of this match can ask for a rematch or answer one."))
        if table.status != Table.Status.FINISHED:
            raise TableError(gettext("A rematch can be asked for once the match is over."))
        now = now or timezone.now()
        # Every member's row lock, in one order, before anyone's commitments are read (the start checks them all).
        _lock_members([s.user_id for s in seats if s.user_id is not None])
        found = Rematch.objects.filter(table=table).select_related("new_table").first()
        if offer is not None and (found is None or found.pk != offer):
            raise StaleVersion(gettext("That rematch is no longer the one at this table; nothing was changed."))
        if found is not None and found.state != Rematch.State.ASKED:
            return _already(found, user, accept, table)
        if found is None:
            if not accept:
                raise TableError(gettext("Nobody has asked for a rematch here."))
            ensure_free_to_sit(user, table=table)
            table_limits.ensure_may_start(user, now=now)
            found = Rematch(table=table, asked_by=user, accepted=[user.pk], created_at=now,
                            expires_at=now + ANSWER_TIME)
        elif not _answer(found, user, accept, table):
            return Answered(version=table.version)  # the same answer again (a double click): nothing changes
        members = [s.user_id for s in seats if s.user_id is not None]
        if set(members) <= {*found.accepted, *found.declined}:
            _make(found, table, seats, now)
            due_at = None
        else:
            found.save()
            due_at = found.expires_at
            wakeups.after_commit(due_at)
        _changed(table, due_at=due_at)
        seated_there = found.new_table is not None and user.pk in found.accepted
        return Answered(version=table.version, go_to=found.new_table.code if seated_there else None)


def _answer(found: Rematch, user: User, accept: bool, table: Table) -> bool:
    """The member's answer to the offer still asked; whether it changed anything."""
    if accept:
        if user.pk in found.accepted:
            return False
        ensure_free_to_sit(user, table=table)  # not while playing elsewhere or waiting in quick play
        found.accepted = [*found.accepted, user.pk]
        found.declined = [member for member in found.declined if member != user.pk]
    else:
        if user.pk in found.declined:
            return False
        found.declined = [*found.declined, user.pk]
        found.accepted = [member for member in found.accepted if member != user.pk]
    return True


def _already(found: Rematch, user: User, accept: bool, table: Table) -> Answered:
    """An answer to a rematch already made or cancelled: a member seated at its table who accepts again (a double
    click, a second tab) is sent there; anything else is refused in words, and nothing changes."""
    if found.state == Rematch.State.CANCELLED:
        raise TableError(gettext("This rematch was cancelled; nothing was changed. Open a new table from the lobby."))
    if accept and user.pk in found.accepted and found.new_table is not None:
        return Answered(version=table.version, go_to=found.new_table.code)
    if found.state == Rematch.State.OPENED and user.pk not in found.accepted:
        raise TableError(gettext("The rematch has begun without waiting for you: your seat there is free, take it "
                                 "from its page."))
    raise TableError(gettext("The rematch has begun already; nothing was changed."))


def expire_due(table: Table, *, now: datetime) -> tuple[bool, datetime | None]:
    """The table clock's step at a finished table (locked by the caller): the rematch whose wait has run out is made
    with the members who accepted (`answer_rematch` says how). (whether anything changed, when the table is next
    due)."""
    found = Rematch.objects.filter(table=table, state=Rematch.State.ASKED).first()
    if found is None or found.expires_at > now:
        due_at = found.expires_at if found is not None else None
        Table.objects.filter(pk=table.pk).update(due_at=due_at)
        return False, due_at
    seats = seats_at(table)
    _lock_members([s.user_id for s in seats if s.user_id is not None])
    _make(found, table, seats, now)
    _changed(table, due_at=None)
    return True, None


def _rematch_name(table: Table, creator: User) -> str:
    """A name a member gave their table carries on to the rematch (their choice); a name the club gave is the new
    creator's next one (`club_table_name`): the rematch is another table, so it never repeats an earlier name."""
    if table.name and not is_club_name(table.name):
        return table.name
    return club_table_name(creator=creator, game=table.game)


def _make(found: Rematch, table: Table, seats: list[Seat], now: datetime) -> None:
    """The rematch's table, now that every member has answered or the wait is over; or its cancellation. The
    members' row locks are held (so what `commitments` says stays true until the commit)."""
    found.resolved_at = now
    members = [s.user for s in seats if s.user is not None]
    busy = {member for member, held in commitments([m.pk for m in members]).items()
            if held.playing is not None or held.waiting is not None}
    joining = [member for member in members if member.pk in found.accepted and member.pk not in busy]
    if not joining:
        found.state, found.reason = Rematch.State.CANCELLED, Rematch.Reason.NOBODY
        found.save()
        return
    everyone = len(joining) == len(members)
    order = {member: place for place, member in enumerate(found.accepted)}
    joining_ids = {member.pk for member in joining}
    creator = (next(m for m in joining if m.pk == found.asked_by_id) if found.asked_by_id in joining_ids
               else min(joining, key=lambda member: order[member.pk]))
    try:
        table_limits.ensure_may_start(creator, now=now)
        if not everyone:
            table_limits.ensure_may_open(creator)
    except table_limits.TooManyTables:
        found.state, found.reason = Rematch.State.CANCELLED, Rematch.Reason.LIMIT
        found.save()
        return
    new = Table.objects.create(
        game=table.game, name=_rematch_name(table, creator),
        seat_count=table.seat_count, options=dict(table.options), private=table.private,
        turn_seconds=table.turn_seconds, grace_seconds=table.grace_seconds, bot_speed=table.bot_speed,
        bot_level=table.bot_level, created_by=creator, due_at=None if everyone else open_tables.first_due(now),
    )
    new_seats = Seat.objects.bulk_create([
        Seat(table=new, position=s.position, user=s.user if s.user_id in joining_ids else None, is_bot=s.is_bot,
             bot_level=s.bot_level, joined_at=now if s.is_bot or s.user_id in joining_ids else None)
        for s in seats
    ])
    found.new_table = new
    found.accepted = sorted(joining_ids, key=lambda member: order[member])  # exactly those seated there
    found.state = Rematch.State.STARTED if everyone else Rematch.State.OPENED
    found.save()
    if everyone:
        begin_match(new, new_seats)
    elif new.due_at is not None:
        wakeups.after_commit(new.due_at)
    push.lobby_changed()


def _changed(table: Table, *, due_at: datetime | None) -> None:
    """A new version of the finished table, so every page of it shows the rematch as it now stands (and goes to its
    table once there is one)."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1, due_at=due_at)
    table.refresh_from_db(fields=["version", "due_at"])
    push.table_changed(table)
