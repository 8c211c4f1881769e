"""Forming tables: create, join, leave, bots. Each function is one transaction.

Every write first takes the table's row lock (PostgreSQL) and re-checks what it relies on, and
seat changes are conditional updates with a row-count check, so on SQLite (which ignores row
locks but runs IMMEDIATE transactions one writer at a time) two members can never get one seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from rules.engine import registry
from rules.engine.api import Config
from rules.engine.errors import ConfigError
from tables.models import QueueRequest, Seat, Table
from tables.play import push, wakeups
from tables.play.pace import GRACE_RANGE, MOVE_HOURS_CHOICES
from tables.play.privacy import ensure_may_sit
from tables.play.services import open_tables, table_limits
from tables.play.services.errors import NotAllowed, NotSeated, PlayingElsewhere, TableError, TableFull
from tables.play.services.play import Live, begin_match, locked_table, seat_of, seats_at
from tables.play.signals import table_stopped_waiting
from tables.play.table_names import english_name, shown_name

TURN_SECONDS_RANGE = (10, 600)
EVERYONE_LEFT = gettext_noop("Every player left: the bots finished the round and the table closed.")
NAME_LENGTH = 60  # Table.name's max_length


def table_name(*, owner: str, game: str, quick: bool = False, number: int = 1) -> str:
    """What people call a table: "Alice's Sheepshead table" ("Alice's quick Hawk table" for quick play's,
    "Alice's Hawk table 2" for their second: see club_table_name). Codes are for URLs; people remember names. A
    long display name is shortened so the whole name fits."""
    title = registry.spec(game).title if registry.known(game) else game.capitalize()
    room = NAME_LENGTH - len(english_name(owner="", game_title=title, quick=quick, number=number))
    if len(owner) > room:
        owner = owner[: room - 1].rstrip() + "…"
    return english_name(owner=owner, game_title=title, quick=quick, number=number)


def called(table: Table) -> str:
    """The table as a message names it, in the active language: its name (every table made since names came has
    one)."""
    if table.name:
        return shown_name(table.name)
    return gettext("a %(game)s table") % {"game": table.get_game_display()}


def club_table_name(*, creator: User, game: str, quick: bool = False) -> str:
    """The club's name for a new table of `creator`'s: "Alice's Hawk table", then "Alice's Hawk table 2", 3, ...,
    numbered over every table they ever made (open, running, finished or closed), so a name the club gave never
    names two of one member's tables: history, replays and statements each name one table. The first number no
    table of theirs carries is taken (a member renamed starts again at 1 under the new name, which is new too).
    Call it holding the creator's row lock (their table services do), so two tables made at once differ."""
    taken = set(Table.objects.filter(created_by=creator).values_list("name", flat=True))
    number = 1
    while (name := table_name(owner=creator.shown_name, game=game, quick=quick, number=number)) in taken:
        number += 1
    return name


def _name_for(creator: User, game: str, given: str, *, quick: bool = False) -> str:
    """The name asked for (spaces tidied: a member's own choice, which is theirs to repeat), else the club's
    (`club_table_name`)."""
    name = " ".join(given.split())
    if len(name) > NAME_LENGTH:
        raise TableError(gettext("A table's name can be at most %(count)s characters.") % {"count": NAME_LENGTH})
    return name or club_table_name(creator=creator, game=game, quick=quick)


def _config(game: str, players: int, options: Mapping[str, Any] | None) -> Config:
    """The game's house rules for a new table, or the engine's refusal as the club's."""
    if not registry.known(game):
        raise TableError(gettext("The club plays no game called %(game)s.") % {"game": repr(game)})
    try:
        return registry.spec(game).make_config(players, options)
    except ConfigError as error:
        raise TableError(str(error)) from None


def bot_level_of(level: str) -> str:
    """`level` if bots play at it (tables.models.Table.BotLevel, the engine's rules.engine.search.LEVELS), else
    the club's refusal naming the levels there are."""
    if level not in Table.BotLevel.values:
        raise TableError(gettext("Bots play at one of these levels: %(levels)s.") % {
            "levels": ", ".join(str(label) for label in Table.BotLevel.labels)})
    return level


def create_table(
    *,
    creator: User,
    game: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    private: bool = False,
    turn_seconds: int = 60,
    fill_with_bots: bool = False,
    bot_speed: str | None = None,
    grace_seconds: int = 15,
    name: str = "",
    bot_level: str = Table.BotLevel.EASY,
    move_hours: int = 0,
    missed_move: str = Table.MissedMove.BOT_MOVES,
) -> Table:
    """A new table with the creator in seat 0; with `fill_with_bots` the match starts at once. `bot_speed`
    None: the club's default (TABLE_BOT_SPEED). No `name`: the creator's ("Alice's Hawk table"). `bot_level`:
    how well its bots play; code that does not say gets the quick heuristics (the lobby's form says).
    `move_hours` (one of `MOVE_HOURS_CHOICES`) makes a correspondence table: a move a day, not a sitting. Its bots
    move at once (nobody sits waiting to watch them), and its seats do not count as playing (`_ensure_all_free`)."""
    config = _config(game, players, options)
    bot_level_of(bot_level)
    low, high = TURN_SECONDS_RANGE
    if not low <= turn_seconds <= high:
        raise TableError(gettext("Time per turn must be between %(low)s and %(high)s seconds.") % {
            "low": low, "high": high})
    if bot_speed is not None and bot_speed not in Table.BotSpeed.values:
        raise TableError(gettext("Bot speed must be one of %(speeds)s.") % {"speeds": ", ".join(Table.BotSpeed.values)})
    if not GRACE_RANGE[0] <= grace_seconds <= GRACE_RANGE[1]:
        raise TableError(gettext("The wait before a bot plays for an offline player must be between %(low)s and "
                                 "%(high)s seconds.") % {"low": GRACE_RANGE[0], "high": GRACE_RANGE[1]})
    if move_hours and move_hours not in MOVE_HOURS_CHOICES:
        raise TableError(gettext("A correspondence table gives %(hours)s hours for a move.") % {
            "hours": ", ".join(str(hours) for hours in MOVE_HOURS_CHOICES)})
    if missed_move not in Table.MissedMove.values:
        raise TableError(gettext("A missed move either is the bot's or makes the player leave the seat."))
    if move_hours:
        bot_speed = Table.BotSpeed.INSTANT
    with transaction.atomic():
        # also takes the member's row lock, so the limits below count one request at a time
        ensure_free_to_sit(creator, correspondence=bool(move_hours))
        table_limits.ensure_may_open(creator)
        table_limits.ensure_may_start(creator)
        now = timezone.now()
        table = Table.objects.create(
            game=game,
            name=_name_for(creator, game, name),
            seat_count=config.players,
            options=dict(config.options),
            private=private,
            turn_seconds=turn_seconds,
            move_hours=move_hours,
            missed_move=missed_move,
            grace_seconds=grace_seconds,
            bot_level=bot_level,
            **({"bot_speed": bot_speed} if bot_speed is not None else {}),
            created_by=creator,
            # its creator may never open its page: it closes unattended
            due_at=open_tables.first_due(now, correspondence=bool(move_hours)),
        )
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
                raise TableError(gettext("You already have a seat at this table."))
            ensure_free_to_sit(user, table=table)
            Seat.objects.filter(pk=mine.pk).update(away=False)
            # A new version, and the clock no longer plays this seat (from the next round if the house plays it in
            # this one: Live.house_plays).
            live = Live.load(table)
            back = next(s for s in live.seats if s.pk == mine.pk)
            live.came_back(back)
            live.save()
            mine.away, mine.away_from = False, back.away_from
            return mine
        ensure_may_sit(table, user)  # a private table's seats are for its creator and the invited (privacy.py)
        if table.status != Table.Status.OPEN:
            raise TableFull(gettext("This table is already playing; you can watch it."))
        _lock_members_if_filling(table, user)
        ensure_free_to_sit(user, table=table)
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
            raise TableFull(gettext("That seat is taken.") if position is not None else gettext("This table is full."))
        _seat_filled(table)
        return Seat.objects.get(pk=seat.pk)


def leave_table(*, table_id: int, user: User) -> None:
    """Leave a seat. At a running table the bot finishes the round for the member (its result is theirs); each
    round dealt while they are away is the house's in their seat (tables.play.services.play._house_seats) until
    they take it back between rounds; when the last member present leaves, the bots finish the round (settled as
    any other) and the table closes."""
    with transaction.atomic():
        table = locked_table(table_id)
        mine = seat_of(table, user)
        if mine is None:
            raise NotSeated(gettext("You have no seat at this table."))
        if table.status == Table.Status.OPEN:
            # The seat is empty again: nothing of this member's presence stays with it for the next one.
            Seat.objects.filter(pk=mine.pk).update(user=None, joined_at=None, ready=False, offline_since=None,
                                                   gone_at=None)
            if not Seat.objects.filter(table=table, user__isnull=False).exists():
                Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED, finished_at=timezone.now(),
                                                         due_at=None)
                table_stopped_waiting.send(sender=Table, table=table, ending="closed")
            else:  # the one who leaves may have been the only member there, the others long away: due sooner
                _due_again(table)
            _bump(table)
            push.table_changed(table)
            push.lobby_changed()
            return
        if table.status != Table.Status.RUNNING:
            raise TableError(gettext("This table has finished."))
        if mine.away:
            raise TableError(gettext("You have already left; the bot is playing your seat."))
        live = Live.load(table)
        # What is played for them from this round on is told when they are back ("while you were away").
        Seat.objects.filter(pk=mine.pk).update(away=True, away_from=mine.away_from or live.round.number)
        for seat in live.seats:
            if seat.pk == mine.pk:
                seat.away, seat.away_from = True, mine.away_from or live.round.number
        if not any(s.user_id is not None and not s.away for s in live.seats):
            live.close_for_nobody(EVERYONE_LEFT)  # bots do not play on for nobody: they finish this round
        else:
            live.play_bots()  # their turn, if it was: at an instant table the bot plays it now (else when due)
        live.save()


def add_bot(*, table_id: int, user: User, bot_level: str | None = None) -> Seat:
    """Seat a bot in the first empty seat; only members at the table may do that. With `bot_level` the bot keeps
    that level; without, it plays at the table's (the seat's level stays blank)."""
    if bot_level is not None:
        bot_level_of(bot_level)
    with transaction.atomic():
        table = locked_table(table_id)
        if seat_of(table, user) is None:
            raise NotSeated(gettext("Only players at this table can add a bot."))
        if table.status != Table.Status.OPEN:
            raise TableError(gettext("Bots can only be added before the match starts."))
        _lock_members_if_filling(table, user)
        ensure_free_to_sit(user, table=table)  # as for joining: no filling a table while playing elsewhere
        for seat in Seat.objects.filter(table=table, user__isnull=True, is_bot=False).order_by("position"):
            if Seat.objects.filter(pk=seat.pk, user__isnull=True, is_bot=False).update(
                is_bot=True, joined_at=timezone.now(), bot_level=bot_level or ""
            ):
                break
        else:
            raise TableFull(gettext("This table is full."))
        _seat_filled(table)
        return Seat.objects.get(pk=seat.pk)


def remove_bot(*, table_id: int, user: User, position: int) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        if seat_of(table, user) is None:
            raise NotSeated(gettext("Only players at this table can remove a bot."))
        if table.status != Table.Status.OPEN:
            raise NotAllowed(gettext("Bots stay once the match has started."))
        if not Seat.objects.filter(table=table, position=position, is_bot=True).update(
                is_bot=False, joined_at=None, bot_level=""):
            raise TableError(gettext("There is no bot in that seat."))
        _bump(table)
        push.table_changed(table)
        push.lobby_changed()


def ensure_free_to_sit(user: User, *, table: Table | None = None, refuse_open_seat: bool = False,
                       correspondence: bool = False) -> None:
    """Refuse a member who is already playing at another running table (in a seat they have not
    left) or who is waiting in quick play (and, with `refuse_open_seat`, one with a seat at an open
    table). Locks the member's row, so two requests of one member (a join here, a quick-play request
    there) are taken one after the other. At a correspondence table (`table`'s, or a new one's:
    `correspondence`) only the club's cap on those counts (`_ensure_correspondence_cap`)."""
    _ensure_all_free([user], table=table, refuse_open_seat=refuse_open_seat, correspondence=correspondence)


class Commitments(NamedTuple):
    """Where a member already is: `playing` at a running table (in a seat they have not left; the
    table's id), `waiting` in quick play (the game waited for), holding a seat at an `open` table (its
    id). Each is None when not; all three come from one statement, so a message built from them never
    names something another transaction ended between two reads."""

    playing: int | None
    waiting: str | None
    open_seat: int | None


def commitments(user_ids: Iterable[int], *, besides: Table | None = None) -> dict[int, Commitments]:
    """The members' commitments (a seat at `besides`, or at a correspondence table, does not count as playing: the
    one-running-table rule is for tables played at one sitting), by member id in id order, in one statement:
    plain SQL, because it runs for every join and every quick-play request
    and the ORM would cost more than it. Callers that act on it hold the locks that keep it true."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    seat, tbl, queue, user = (Seat._meta.db_table, Table._meta.db_table, QueueRequest._meta.db_table,
                              User._meta.db_table)
    placeholders = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT u.id,"
        f" (SELECT MIN(t.id) FROM {seat} s JOIN {tbl} t ON t.id = s.table_id WHERE s.user_id = u.id"
        f"  AND s.away = %s AND t.status = %s AND t.move_hours = 0 AND t.id <> %s),"
        f" (SELECT MIN(q.game) FROM {queue} q WHERE q.user_id = u.id AND q.state = %s),"
        f" (SELECT MIN(t.id) FROM {seat} s JOIN {tbl} t ON t.id = s.table_id WHERE s.user_id = u.id AND t.status = %s)"
        f" FROM {user} u WHERE u.id IN ({placeholders}) ORDER BY u.id"
    )
    params = [False, Table.Status.RUNNING, besides.pk if besides is not None else 0, QueueRequest.State.WAITING,
              Table.Status.OPEN, *ids]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {user_id: Commitments(playing, waiting, open_seat) for user_id, playing, waiting, open_seat in rows}


def _ensure_all_free(users: list[User], *, table: Table | None = None, waiting_ok: bool = False,
                     refuse_open_seat: bool = False, correspondence: bool = False) -> None:
    """The members' row locks first (PostgreSQL; in one order), then one statement (`commitments`) that,
    in the usual case that everyone is free, is all; the reason is looked up only when someone is not.
    The check is a statement of its own so that, under READ COMMITTED, it sees whatever the lock waited for.
    A correspondence table asks nothing of where its members sit now (a live table, quick play): a move a day
    fits beside them; only how many such tables each holds (`_ensure_correspondence_cap`)."""
    ids = sorted({user.pk for user in users})
    _lock_members(ids)
    names = {user.pk: user.shown_name for user in users}
    if correspondence or (table is not None and table.correspondence):
        _ensure_correspondence_cap(ids, names=names, besides=table)
        return

    for user_id, (playing, waiting, open_seat) in commitments(ids, besides=table).items():
        if playing is not None:
            running = Table.objects.get(pk=playing)
            at = called(running)
            if len(ids) == 1:
                raise PlayingElsewhere(gettext("You are already playing at %(table)s; finish there or leave that "
                                               "table first.") % {"table": at}, table_code=running.code)
            raise NotAllowed(gettext("%(member)s is already playing at %(table)s; this table can start once they "
                                     "have finished or left there.") % {"member": names[user_id], "table": at})
        if waiting is not None and not waiting_ok:
            game = registry.spec(waiting).title if registry.known(waiting) else waiting
            if len(ids) == 1:
                raise NotAllowed(gettext("You are waiting in quick play for %(game)s; cancel that request first.")
                                 % {"game": game})
            raise NotAllowed(gettext("%(member)s is waiting in quick play for %(game)s; cancel that request first.")
                             % {"member": names[user_id], "game": game})
        if open_seat is not None and refuse_open_seat:
            raise NotAllowed(gettext("You have a seat at %(table)s, which is still open; leave it before you ask "
                                     "for quick play.") % {"table": called(Table.objects.get(pk=open_seat))})


def _ensure_correspondence_cap(ids: list[int], *, names: dict[int, str], besides: Table | None) -> None:
    """Refuse a member who already holds `CORRESPONDENCE_TABLES_PER_MEMBER` seats at correspondence tables open or
    running (seats left do not count; 0: no cap): a member may hold several, not an unbounded number, each of which
    the clock and the notices look after for days."""
    cap = settings.CORRESPONDENCE_TABLES_PER_MEMBER
    if cap <= 0:
        return
    held = (Seat.objects.filter(user_id__in=ids, away=False, table__move_hours__gt=0,
                                table__status__in=[Table.Status.OPEN, Table.Status.RUNNING])
            .exclude(table_id=besides.pk if besides is not None else None)
            .values("user_id").annotate(count=Count("id")))
    for row in held:
        if row["count"] >= cap:
            if len(ids) == 1:
                raise NotAllowed(gettext("You already play at %(count)s correspondence tables, as many as a member "
                                         "may; finish or leave one first.") % {"count": row["count"]})
            raise NotAllowed(gettext("%(member)s already plays at %(count)s correspondence tables, as many as a "
                                     "member may.") % {"member": names[row["user_id"]], "count": row["count"]})


def create_full_table(
    *,
    game: str,
    players: int,
    members: list[User],
    options: Mapping[str, Any] | None = None,
    bots: int = 0,
    turn_seconds: int = 60,
    name: str = "",
    from_queue: bool = False,
    bot_level: str = Table.BotLevel.EASY,
    quick: bool = False,
) -> Table:
    """A table with every seat taken at once: `members` in seats 0, 1, ... in the order given, then
    `bots` bots; the match starts at once. Quick play forms its tables here (`from_queue`: the
    members' waiting requests are the ones being matched, so waiting does not count against them).
    No `name`: the first member's, as if they had made it (`quick`: quick play's, "Alice's quick Hawk table"), named
    inside the members' locks. `bot_level` as for `create_table`."""
    config = _config(game, players, options)
    bot_level_of(bot_level)
    if not members or len(members) + bots != config.players:
        raise TableError(gettext("A %(count)s-player table needs %(count)s players, members and bots.")
                         % {"count": config.players})
    if len({member.pk for member in members}) != len(members):
        raise TableError(gettext("A member can have only one seat at a table."))
    with transaction.atomic():
        _ensure_all_free(members, waiting_ok=from_queue)
        table = Table.objects.create(
            game=game, name=_name_for(members[0], game, name, quick=quick), seat_count=config.players,
            options=dict(config.options),
            turn_seconds=turn_seconds, created_by=members[0], bot_level=bot_level,
        )
        now = timezone.now()
        seated: list[User | None] = [*members, *([None] * bots)]
        seats = Seat.objects.bulk_create(
            [Seat(table=table, position=position, user=user, is_bot=user is None, joined_at=now)
             for position, user in enumerate(seated)]
        )
        begin_match(table, seats)
        push.lobby_changed()
    return table


def _lock_members(ids: list[int]) -> None:
    """The members' row locks (PostgreSQL), always taken in id order so that two transactions never wait
    on each other; SQLite's one writer needs none."""
    if connection.features.has_select_for_update:
        list(User.objects.select_for_update().filter(pk__in=sorted(ids)).order_by("pk").values_list("pk", flat=True))


def _lock_members_if_filling(table: Table, user: User) -> None:
    """When `user` is about to take the last empty seat, the start checks every member: lock them all now,
    in one order, rather than `user` first and the others at the start (two such fills would deadlock)."""
    if not connection.features.has_select_for_update:
        return
    seats = list(Seat.objects.filter(table=table).values_list("user_id", "is_bot"))
    if sum(member is None and not bot for member, bot in seats) == 1:
        _lock_members([user.pk, *(member for member, _ in seats if member is not None)])


def _seat_filled(table: Table) -> None:
    """A seat was taken. A full table starts, unless one of its members is meanwhile playing at another
    running table (a member may hold seats at several open tables): then the start is refused with the
    member's name, the transaction rolls back, and the table stays open with that seat empty."""
    full = not Seat.objects.filter(table=table, user__isnull=True, is_bot=False).exists()
    if full:
        seats = seats_at(table)
        members = [s.user for s in seats if s.user is not None]
        if members:
            _ensure_all_free(members, table=table, waiting_ok=True)  # the club's one rule, for every member
        begin_match(table, seats)
    else:
        _bump(table)
        push.table_changed(table)
    push.lobby_changed()


def _due_again(table: Table) -> None:
    """When the open table's clock looks again, as its seats now stand (tables.play.services.open_tables)."""
    due_at = open_tables.next_due(table, now=timezone.now())
    Table.objects.filter(pk=table.pk).update(due_at=due_at)
    if due_at is not None:
        wakeups.after_commit(due_at)


def _bump(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db(fields=["version", "status"])
