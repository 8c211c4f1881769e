"""Playing at a table: dealing, moves against an expected version, bots, next rounds.

Every public function here is one transaction that starts by locking the table row. A move is
applied by the engine (which refuses anything illegal without changing anything), recorded as a
`Move` with the table version it produced, and announced after commit. A member's move commits
alone: bots (and seats played for members who left or are offline) move afterwards, one at a time,
when the table clock finds them due (tables.play.services.clock; `Live.due` says when), except at
an `instant` table, where easy bots move at once in the same transaction. A bot at a search level
(normal, strong: up to a fifth of a second a decision) never decides under a table's lock nor in a
member's request: the clock decides its move off the lock, from the table as its locked step read it, then
records it if the table has not moved meanwhile (tables.play.services.clock.advance).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from rules.engine import registry
from rules.engine.api import Config, GameModule
from rules.engine.api import Match as EngineMatch
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move as EngineMove
from rules.engine.rng import new_seed
from rules.engine.text import to_data
from tables.i18n import say
from tables.models import Match, Move, Round, Seat, Table, TableSocket
from tables.play import autoplay, move_log, pace, push, snapshots, wakeups
from tables.play.selectors import name_seats, seat_label
from tables.play.services.errors import IllegalPlay, NoSuchTable, NotSeated, StaleVersion, TableError
from tables.play.signals import match_ended, round_finished, table_stopped_waiting
from tables.play.snapshots import TableSnapshot

log = logging.getLogger(__name__)

NEXT_ROUND_PAUSE = timedelta(seconds=20)
ALL_MISSED = gettext_noop("Every player let their time run out and so left: the bots finished the round and the table "
                          "closed.")
# How long the other members may choose to wait, from a round's end, for a member who is away before the next round
# is dealt with the house in that seat (the club's rule: README, "When a member is away").
WAIT_FOR_AWAY = timedelta(minutes=2)
# The bot's moves made in a member's own seat (they had left, or were offline): what "while you were away" reports.
BOT_FOR_MEMBER = (Move.Actor.BOT, Move.Actor.ABSENT)
BOT_MOVES_LIMIT = 5000
# Kept on a round that counted for nothing because no member had moved (English, translated where it is shown).
UNPLAYED = gettext_noop("No member had made a move in this match yet: the bots played this round alone, so it "
                        "counts for nothing.")


def locked_table(table_id: int | None = None, *, code: str | None = None) -> Table:
    """The table's row, locked until the transaction ends: by its id, or by its `code`, as a page's address names
    it (a POST locks it by the code at once: looking the code up first, then locking by id, read the row twice)."""
    rows = Table.objects.select_for_update()
    try:
        return rows.get(code=code) if code is not None else rows.get(pk=table_id)
    except Table.DoesNotExist:
        raise NoSuchTable(gettext("There is no such table.")) from None


def _round_from_snapshot(table: Table) -> tuple[Round, Any] | None:
    """(the current round, with its match, and its engine state) as this process's snapshot of the locked table's
    version holds them, as copies of their own (the snapshot's rows are shared with boards being built from it, in
    other threads; a Live changes its rows' fields), or None when this process holds no such snapshot."""
    snapshot = snapshots.recall_here(table.code, table.version)
    if snapshot is None or snapshot.round is None or snapshot.match is None or snapshot.state is None:
        return None
    current, match = copy(snapshot.round), copy(snapshot.match)
    current.match = match  # as select_related gives it: the round's match is this copy, not read again
    return current, snapshot.state


def seats_at(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("position"))


def seated(table: Table, user: User) -> tuple[list[Seat], Seat | None]:
    """The table's seats (read under its lock, for Live.load) and the member's own among them."""
    seats = seats_at(table)
    return seats, next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)


def seat_of(table: Table, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).first()


@dataclass
class Live:
    """The table's current round, loaded once per transaction and written back once."""

    table: Table
    match: Match
    round: Round
    game: GameModule
    config: Config
    state: Any
    seats: list[Seat]
    next_seq: int
    moves: list[Move]
    loaded_version: int
    paused: bool = False  # the round was already over when loaded: its pause before the next has a deadline
    match_changed: bool = False
    made: list[tuple[str, int]] = field(default_factory=list)  # (actor, seat) of the moves made here, in order
    members_have_moved: bool = False  # known to be true (see `members_moved`): asked of the database until then
    premoves_changed: set[int] = field(default_factory=set)  # seats whose premove this transaction changed
    now: datetime = field(default_factory=lambda: timezone.now())  # the transaction's time: presence and pace read it

    @classmethod
    def load(cls, table: Table, seats: list[Seat] | None = None, now: datetime | None = None) -> Live:
        """The locked table's current round (and `seats`, if the caller has read them under the lock).

        When a transaction of this process left the snapshot of the very version just locked (it does at every
        commit, tables.play.snapshots), the round, its match and the engine state are taken from it, copied,
        instead of being read and parsed again: a version names one state of the round and the match (every
        change to them makes a new version), the snapshot was made from what that transaction wrote, and engine
        states are immutable (a move makes a new one; tests/tables/play/test_live_from_snapshot.py checks every
        game). The seats are read all the same: presence writes them without a new version."""
        game = registry.game(table.game)
        found = _round_from_snapshot(table)
        if found is not None:
            current, state = found
        else:
            current = Round.objects.filter(match__table=table).select_related("match").order_by("-number").first()
            if current is None:
                raise TableError(gettext("This table has not started yet."))
            state = game.from_json(current.state)
        match = current.match
        return cls(
            table=table,
            match=match,
            round=current,
            game=game,
            config=Config.from_json(match.config),
            state=state,
            seats=seats if seats is not None else seats_at(table),
            next_seq=current.moves_made + 1,
            moves=[],
            loaded_version=table.version,
            paused=current.over,
            now=now or timezone.now(),
        )

    def seat_to_act(self) -> int | None:
        return None if self.round.over else self.game.to_act(self.state)

    def record(self, seat: int, move: EngineMove, actor: str, user: User | None = None) -> None:
        tricks_before = registry.tricks_done(self.table.game, self.state)
        self._forget_premove(seat)  # their turn came and went: a card chosen ahead is played here or no more
        self.state = self.game.apply(self.state, seat, move)
        self.table.version += 1
        self.moves.append(
            Move(round=self.round, seq=self.next_seq, seat=seat, text=str(move), actor=actor, user=user,
                 table_version=self.table.version)
        )
        self.next_seq += 1
        self.made.append((actor, seat))
        self.round.moved_at = self.now
        closed_trick = registry.tricks_done(self.table.game, self.state) > tricks_before
        self._log(seat=seat, actor=actor, closed_trick=closed_trick)
        if self.game.to_act(self.state) is None:
            self._finish_round()

    def _log(self, *, seat: int | None, actor: str, closed_trick: bool = False) -> None:
        line = move_log.entry(game=self.table.game, state=self.state, players=len(self.seats), seat=seat,
                              actor=actor, closed_trick=closed_trick)
        if line is not None:
            self.round.log = [*(self.round.log or []), line]  # a new list: a snapshot may hold the old one

    def waiting_for_ready(self) -> bool:
        """Between rounds: some member who is here (not left, not offline) has not said they are ready."""
        return any(s.user_id is not None and not s.away and not s.ready and not self.offline(s) for s in self.seats)

    def away_now(self, seat: Seat) -> bool:
        """The seat's member is away: left it, or offline (`offline`). Dealt now, the round would be the house's
        there."""
        return seat.user_id is not None and (seat.away or self.offline(seat))

    def waiting_for_away(self) -> bool:
        """Between rounds, the members chose to wait for one who is away, that wait has not run out, and someone is
        still away: the next round is not dealt on everyone's "ready" (the pause runs to `wait_until`)."""
        until = self.round.wait_until
        return (self.round.over and until is not None and until > self.now
                and any(self.away_now(s) for s in self.seats))

    def house_plays(self, seat: Seat) -> bool:
        """The house plays this seat in the current round: its member was away when the round was dealt. It stays
        the house's until the round ends, whether or not they come back meanwhile."""
        return seat.position in (self.round.house_seats or [])

    def came_back(self, seat: Seat) -> None:
        """The seat's member is back (a page open again, or the seat taken back). If nothing was played for them
        while away (they are back in the round they went away in, the bot made no move in their name, and no round
        is the house's in their seat), there is nothing to tell them: their "while you were away" is forgotten."""
        if seat.away_from is None or self.house_plays(seat):
            return
        rows = [row for row in (self.match.sheet or []) if int(row["round"]) >= seat.away_from
                and seat.position in (*row.get("house", []), *row.get("bot", []))]
        if not rows:
            Seat.objects.filter(pk=seat.pk).update(away_from=None)
            seat.away_from = None

    def offline(self, seat: Seat) -> bool:
        """The seat's member is offline as the table's rules count it: no page of the table open
        (tables.play.services.presence), at a live table. Never at a correspondence table, where no page open is how
        members wait for their turn: there, the bot takes no turn for it (no grace), nobody is waited for and no round
        is the house's for it, and the table does not close because everyone is away; only a turn's deadline counts.
        (They are shown offline all the same: the board reads `Seat.offline_since`, tables.play.selectors.)"""
        return seat.user_id is not None and seat.offline_since is not None and not self.table.correspondence

    def presence_due(self) -> bool:
        """Members whose last page closed a moment ago and did not come back are offline from now on; whether
        anyone's presence changed."""
        gone = [s for s in self.seats if s.gone_at is not None and s.gone_at <= self.now]
        for seat in gone:
            seat.offline_since, seat.gone_at = seat.gone_at, None
            if seat.away_from is None:  # from this round on, what is played for them is told when they are back
                seat.away_from = self.round.number
            Seat.objects.filter(pk=seat.pk).update(offline_since=seat.offline_since, gone_at=None,
                                                   away_from=seat.away_from)
        return bool(gone)

    def stands_in(self, seat: Seat) -> bool:
        """The bot plays this seat now: a bot's seat, one its member left, one the house plays this round (its
        member was away at the deal), or one whose member has been offline longer than the table's grace period."""
        if seat.is_bot or seat.away or self.house_plays(seat):
            return True
        return self.offline(seat) and self.now >= seat.offline_since + timedelta(seconds=self.table.grace_seconds)

    def stand_in_actor(self, seat: int) -> str:
        """Who a bot's move in `seat` is recorded as: the house's (a member's seat in a round dealt while they were
        away), the bot's own (a bot seat, a seat left), or one made while its member was offline."""
        found = self.seats[seat]
        if self.house_plays(found) and not found.is_bot:
            return Move.Actor.HOUSE
        return Move.Actor.BOT if found.played_by_bot else Move.Actor.ABSENT

    def level_of(self, seat: int) -> str:
        """How well the bot plays `seat`: the seat's own level, else the table's (tables.models.Seat.level_at)."""
        return self.seats[seat].level_at(self.table)

    def searches(self, seat: int) -> bool:
        """The bot's move for `seat` is a search (normal, strong), too slow for a table's lock or a member's
        request. A game whose bot has only the heuristics (one a test registered) never searches."""
        return self.level_of(seat) != Table.BotLevel.EASY and searching_bot(self.table.game)

    def decide(self, seat: int, level: str | None = None) -> EngineMove:
        """The bot's move for `seat` from that seat's view alone, at `level` (default: the seat's), seeded by
        the table, the round and the seat (`bot_seed`): the same view at the same seat gets the same move."""
        level = level or self.level_of(seat)
        seed = bot_seed(table=self.table, round_number=self.round.number, seat=seat)
        view, legal = self.game.view(self.state, seat), self.game.legal_moves(self.state, seat)
        try:
            return bot_chooser(self.table.game, level, seed)(view, legal)
        except Exception:
            if level == Table.BotLevel.EASY:
                raise
            # A search is deterministic for its seed and view: retrying would fail the same way and leave the
            # table waiting for this bot for ever. The easy bot plays this one move instead, and the log says so.
            log.exception("table %s: the %s bot's search failed at seat %s; the easy bot plays this move",
                          self.table.code, level, seat)
            return bot_chooser(self.table.game, Table.BotLevel.EASY, seed)(view, legal)

    def play_bots(self) -> None:
        """At an `instant` table, easy bots (and seats played for absent members at the easy level) move now,
        until a member is to act, a search-level bot is (the clock plays it at once, off this transaction's lock
        and this request: the table is due from now, `due`), or the round ends; elsewhere bots move one at a
        time when the clock finds them due."""
        if self.table.bot_speed != Table.BotSpeed.INSTANT:
            return
        for _ in range(BOT_MOVES_LIMIT):
            if not self.play_one_bot():
                return
        raise RuntimeError("bots did not finish the round")

    def play_one_bot(self) -> bool:
        """One easy move by the bot, if the seat to act is one it plays now at the easy level; whether it moved.
        A search-level move is the clock's to decide, off the lock (tables.play.services.clock)."""
        seat = self.seat_to_act()
        if seat is None or not self.stands_in(self.seats[seat]) or self.searches(seat):
            return False
        self.bot_move(seat, self.stand_in_actor(seat))
        return True

    def bot_move(self, seat: int, actor: str, level: str | None = None) -> None:
        self.record(seat, self.decide(seat, level), actor)

    def finish_with_bots(self) -> None:
        """Bots play out the round, whoever is to act (nobody is left to play it), at the easy level: this
        plays a whole round inside the table's lock (the last member's leave request, or the clock's step that
        closes the table), where a search's fifth of a second a move would hold the lock for many seconds,
        and nobody is left at the table to play against."""
        for _ in range(BOT_MOVES_LIMIT):
            seat = self.seat_to_act()
            if seat is None:
                return
            self.bot_move(seat, self.stand_in_actor(seat), level=Table.BotLevel.EASY)
        raise RuntimeError("bots did not finish the round")

    def bot_due(self) -> datetime:
        """When the bot may make the next move: the table's pace after the last move (longer after a trick)."""
        log = self.round.log or []
        closed_trick = bool(log and log[-1].get("trick"))
        # A round from before moves were timed has no `moved_at`: pace from its start, not from "now" (which
        # would put the bot's move off again at every look, for ever).
        since = self.round.moved_at or self.round.started_at or self.now
        return since + pace.delay(self.table.bot_speed, closed_trick=closed_trick)

    def due(self) -> datetime | None:
        """When the table clock next has something to do here: a bot's move, the end of a turn or of the pause
        between rounds, an offline member's grace running out, a member's absence starting to show, or the
        moment every member has been away long enough for the table to close."""
        if self.table.status != Table.Status.RUNNING or self.match.over:
            return None
        times = [s.gone_at for s in self.seats if s.gone_at is not None]
        if self.round.over:
            times.append(self.round.deadline)
        else:
            seat = self.seats[self.seat_to_act()]
            if self.stands_in(seat):
                times.append(self.bot_due())
            else:
                times.append(self.round.deadline)
                if (auto := self.pending_auto()) is not None:
                    times.append(self.auto_due(auto.kind))
                if self.offline(seat):
                    times.append(seat.offline_since + timedelta(seconds=self.table.grace_seconds))
        members = [s for s in self.seats if s.user_id is not None and not s.away]
        if members and all(self.offline(s) for s in members):
            times.append(max(s.offline_since for s in members) + pace.close_after())
        present = [t for t in times if t is not None]
        return min(present) if present else None

    def pending_auto(self) -> autoplay.Pending | None:
        """The move the clock plays for the member to act, a moment after the move before (tables.play.autoplay):
        their premove if it is legal, else their only card if they asked for it; None when they have a choice."""
        to_act = self.seat_to_act()
        if to_act is None:
            return None
        seat = self.seats[to_act]
        return autoplay.pending(game=self.table.game, state=self.state, seat=seat, to_act=to_act,
                                stands_in=self.stands_in(seat))

    def auto_due(self, kind: str) -> datetime:
        """When the clock plays the member's pending move: a short pause after the last move (longer after a
        trick, as for a bot's card)."""
        log = self.round.log or []
        since = self.round.moved_at or self.round.started_at or self.now
        return since + autoplay.pause(kind, speed=self.table.bot_speed, closed_trick=bool(log and log[-1].get("trick")))

    def play_auto(self) -> bool:
        """The clock's step: the member's pending move, if its pause has run out; whether it was played. A premove
        is the member's own move; a forced card is recorded as played for them (it does not make the match one a
        member played in, `members_moved`)."""
        auto = self.pending_auto()
        if auto is None or self.auto_due(auto.kind) > self.now:
            return False
        seat = self.seats[self.seat_to_act()]
        actor = Move.Actor.MEMBER if auto.kind == autoplay.PREMOVE else Move.Actor.FORCED
        self.record(seat.position, auto.move, actor, seat.user)
        return True

    def _forget_premove(self, position: int, dropped: str = "") -> None:
        """The seat's premove is gone (played, its turn passed, the round over); `dropped`: the premove that could
        no longer be played, said to its member on their board until they move."""
        seat = self.seats[position]
        if seat.premove or seat.premove_dropped != dropped:
            seat.premove, seat.premove_dropped = "", dropped
            seat.premove_serial += 1
            self.premoves_changed.add(position)

    def _settle_premoves(self) -> None:
        """Before a version is saved: the member now to act whose premove is no longer legal loses it and is told
        so at once (not when the clock would have played it); at the end of a round (and at a deal, after a round an
        admin voided) every premove goes."""
        to_act = self.seat_to_act()
        for seat in self.seats:
            if self.round.over or self.round.pk is None:  # a deal: nothing chosen before it is for this round
                self._forget_premove(seat.position)
            elif seat.position == to_act and seat.premove and autoplay.legal_premove(
                    self.table.game, self.state, to_act, seat.premove) is None:
                self._forget_premove(seat.position, dropped=seat.premove)
        for position in sorted(self.premoves_changed):
            seat = self.seats[position]
            Seat.objects.filter(pk=seat.pk).update(premove=seat.premove, premove_dropped=seat.premove_dropped,
                                                   premove_serial=seat.premove_serial)
        self.premoves_changed.clear()

    def missed_deadline(self, position: int) -> None:
        """The bot just made the member's move at `position` because their time ran out. At a correspondence table
        whose creator chose so (`Table.MissedMove.LEAVES`), that is leaving the seat, as "Leave" is: the bot plays it
        from now on (the house from the next round) until they take it back; with nobody left, the table closes as
        when the last member leaves."""
        if not self.table.correspondence or self.table.missed_move != Table.MissedMove.LEAVES:
            return
        seat = self.seats[position]
        if seat.user_id is None or seat.away:
            return
        seat.away, seat.away_from = True, seat.away_from or self.round.number
        Seat.objects.filter(pk=seat.pk).update(away=True, away_from=seat.away_from)
        if not any(s.user_id is not None and not s.away for s in self.seats):
            self.close_for_nobody(ALL_MISSED)

    def everyone_gone(self) -> bool:
        """Every member still seated has been offline for the club's closing time (tables.play.pace)."""
        members = [s for s in self.seats if s.user_id is not None and not s.away]
        return bool(members) and all(
            self.offline(s) and self.now >= s.offline_since + pace.close_after() for s in members)

    def close_for_nobody(self, reason: str) -> None:
        """Nobody is left to play: the bots finish the round (settled in the ledger as any other) and the table
        closes, with `reason` shown on it and in the history. In a match where no member ever moved there is
        nothing to finish: the round counts for nothing at once (`members_moved`), and no bot moves for nobody."""
        if not self.round.over:
            if self.members_moved():
                self.finish_with_bots()
            else:
                self._count_for_nothing()
        if self.table.status == Table.Status.RUNNING:  # else the round just finished ended the match: sent there
            self.table.status = Table.Status.ABANDONED
            self.table.finished_at = self.now
            self.table.close_reason = reason
            match_ended.send(sender=Match, match=self.match, table=self.table, seats=self.seats, ending="closed",
                             now=self.now)

    def members_moved(self) -> bool:
        """Whether a member has made a move in this match, here or before. Until one has, every move was a bot's
        (or a bot's standing in for a member who left or never looked), and the club's books and ratings are no
        place for that: a member filling a table with bots and leaving, in a loop, would write rated matches and
        ledger entries by the hundred. So the rule lives here, where every round ends and every match closes:
        such a round counts for nothing (`_count_for_nothing`), and a match of only such rounds has no result."""
        if self.members_have_moved or any(actor == Move.Actor.MEMBER for actor, _ in self.made):
            self.members_have_moved = True
        else:
            self.members_have_moved = Move.objects.filter(round__match=self.match, actor=Move.Actor.MEMBER).exists()
        return self.members_have_moved

    def _count_for_nothing(self) -> None:
        """End the round as voided by the club (no admin: `voided_by` stays empty, `void_reason` says why): over,
        with no result, no ledger entries and no step of the match (its totals and dealer stand), exactly as an
        admin's void leaves it; the next round is dealt after the usual pause, if anyone is left to play it."""
        now = timezone.now()
        self.round.over, self.round.finished_at, self.round.result = True, now, None
        self.round.voided_at, self.round.voided_by, self.round.void_reason = now, None, UNPLAYED
        fields = {"over": True, "finished_at": now, "result": None, "voided_at": now, "voided_by": None,
                  "void_reason": UNPLAYED}
        if self.round.pk is None:  # bots played the whole round as it was dealt
            self.round.save(force_insert=True)
        else:  # in one statement: a voided round is over and unpaid (a check constraint), from the first write
            Round.objects.filter(pk=self.round.pk).update(**fields)
        Seat.objects.filter(table=self.table).update(ready=False)
        for seat in self.seats:
            seat.ready = False

    def _finish_round(self) -> None:
        if not self.members_moved():
            self._count_for_nothing()
            return
        result = self.game.result(self.state)
        now = timezone.now()
        self.round.over = True
        self.round.finished_at = now
        self.round.result = {"deltas": list(result.deltas), "unit": result.unit,
                             "summary": to_data(dict(result.summary))}  # sentences kept translatable
        if self.round.pk is None:  # bots played the whole round as it was dealt: its entries need its row
            self.round.save(force_insert=True)
        round_finished.send(sender=Round, round=self.round, table=self.table, seats=self.seats)  # the ledger's entries
        before = EngineMatch.from_json(self.match.state)
        after = self.game.next_match(self.config, before, self.state)
        self.match.state = after.to_json()
        # The score sheet's row, saved with the match below (a new list: a snapshot may hold the old one).
        self.match.sheet = [*(self.match.sheet or []), self._sheet_row(list(result.deltas))]
        self.match_changed = True
        if self.game.match_over(self.config, after):
            self.match.over = True
            self.match.winners = list(self.game.match_winners(self.config, after))
            self.match.finished_at = now
            self.table.status = Table.Status.FINISHED
            self.table.finished_at = now
            match_ended.send(sender=Match, match=self.match, table=self.table, seats=self.seats, ending="played",
                             now=now)
        Seat.objects.filter(table=self.table).update(ready=False)
        for seat in self.seats:
            seat.ready = False

    def _sheet_row(self, deltas: list[int]) -> dict[str, Any]:
        """The score sheet's row of the round just finished: its deltas, and, when there are any, the members' seats
        the house played (`house`: the results there are the house's) and those where the bot made a move in the
        member's own name (`bot`: they had left, or were offline). Match results count a member's own rounds from
        it (tables.ledger.services.results) and "while you were away" is told from it (tables.play.selectors)."""
        row: dict[str, Any] = {"round": self.round.number, "deltas": deltas}
        house = sorted(self.round.house_seats or [])
        members = {s.position for s in self.seats if s.user_id is not None} - set(house)
        bot = sorted({line["seat"] for line in self.round.log or []
                      if line.get("seat") in members and line.get("actor") in BOT_FOR_MEMBER})
        if house:
            row["house"] = house
        if bot:
            row["bot"] = bot
        return row

    def save(self) -> None:
        """Write everything back, guarded by the version this transaction started from. The match row
        is written only when a round ended here (nothing else changes it)."""
        started_from = self.loaded_version
        game_changed = bool(self.made) or self.round.pk is None  # a move, or a deal (its round not yet saved)
        self.table.version = max(self.table.version, started_from + 1)  # every save is a new version
        self.round.state = self.game.to_json(self.state)
        self.round.deadline = self._deadline()
        self.round.moves_made = self.next_seq - 1
        self._settle_premoves()
        if self.round.pk is None:  # dealt in this transaction
            self.round.save(force_insert=True)
        else:
            self.round.save(update_fields=["state", "deadline", "over", "finished_at", "result", "moves_made",
                                           "moved_at", "log", "wait_until"])
        if self.moves:
            Move.objects.bulk_create(self.moves)
            self.moves = []
        if self.match_changed:
            self.match.save()
            self.match_changed = False
        self.table.due_at = self.due()
        if game_changed:
            self.table.played_version = self.table.version
        updated = Table.objects.filter(pk=self.table.pk, version=started_from).update(
            version=self.table.version,
            played_version=self.table.played_version,
            status=self.table.status,
            started_at=self.table.started_at,
            finished_at=self.table.finished_at,
            close_reason=self.table.close_reason,
            due_at=self.table.due_at,
        )
        if updated != 1:
            raise StaleVersion(gettext("The table changed while you moved; nothing was changed. Try again."))
        snapshot = self._snapshot()

        def remember_snapshot() -> None:  # named: Django's log of a failed robust callback reads its __qualname__
            snapshots.remember(snapshot)

        # Before the push announces it; robust: a cache that fails is logged and the push still goes out.
        transaction.on_commit(remember_snapshot, robust=True)
        push.table_changed(self.table)
        if self.table.due_at is not None:
            wakeups.after_commit(self.table.due_at)
        if self.table.status != Table.Status.RUNNING:
            push.lobby_changed()

    def _snapshot(self) -> TableSnapshot:
        """The table as this transaction leaves it (for every board of this version, see tables.play.snapshots)."""
        return snapshots.make(table=self.table, seats=self.seats, match=self.match, round=self.round,
                              state=self.state)

    def _deadline(self) -> datetime | None:
        now = self.now
        if self.match.over or self.table.status != Table.Status.RUNNING:
            return None
        if self.round.over:
            if self.paused and self.round.deadline is not None:
                return self.round.deadline  # the pause runs from the round's end: nobody's click stretches it
            return now + NEXT_ROUND_PAUSE
        if not self.made and self.round.pk is not None and self.round.deadline is not None:
            return self.round.deadline  # no move here (presence, a seat taken back): the turn's time runs on
        if self.table.correspondence:
            return now + timedelta(hours=self.table.move_hours)
        return now + timedelta(seconds=self.table.turn_seconds)


Chooser = Callable[[Mapping[str, Any], Sequence[EngineMove]], EngineMove]


def searching_bot(game: str) -> bool:
    """The game's bot can search (it has `chooser(level, seed)`); a bot with only `choose` plays every level
    with its heuristics."""
    return callable(getattr(registry.bot(game), "chooser", None))


def bot_chooser(game: str, level: str, seed: str) -> Chooser:
    """The game's bot at `level`: `chooser(level, seed)` from the engine, or `choose` for a bot without levels."""
    bot = registry.bot(game)
    make = getattr(bot, "chooser", None)
    return make(level, seed) if callable(make) else bot.choose


def bot_seed(*, table: Table, round_number: int, seat: int) -> str:
    """The seed of a bot's search at `seat`: the table's code, the round's number and the seat, all public.
    Never the round's shuffle seed, which would tell the search the hidden cards."""
    return f"{table.code}|{round_number}|{seat}"


def begin_match(table: Table, seats: list[Seat] | None = None) -> None:
    """Deal the first round of a full table (called inside the seat-filling transaction, with the table
    as that transaction last wrote it; `seats`, if the caller has them, in position order). The callers
    (tables.play.services.tables) have checked, under the members' row locks, that no member seated here is
    playing at another running table: the club's rule lives there, in `_ensure_all_free`."""
    spec = registry.spec(table.game)
    config = spec.make_config(table.seat_count, table.options)
    game = registry.game(table.game)
    match_seed = new_seed()
    engine_match = game.start_match(config, match_seed)
    match = Match.objects.create(table=table, config=config.to_json(), seed=match_seed, state=engine_match.to_json())
    table.status, table.started_at = Table.Status.RUNNING, timezone.now()  # written by Live.save below
    if seats is None:
        seats = list(Seat.objects.filter(table=table).select_related("user").order_by("position"))
    _expect_members(table, seats)
    _deal(table=table, match=match, game=game, config=config, engine_match=engine_match, seats=seats, number=1)
    table_stopped_waiting.send(sender=Table, table=table, ending="started")


def _expect_members(table: Table, seats: list[Seat]) -> None:
    """A member seated at a new table without its page open (quick play formed it while they looked away) has
    a moment to open it; after that they count as offline and, after the table's grace, the bot plays for them.
    That goes as well for one shown offline while the table filled: their grace starts with the match, not with
    the page they closed back then (else the bot would take their first turn before they could look)."""
    watching = set(TableSocket.objects.filter(table=table).values_list("user_id", flat=True))
    expected = [s for s in seats if s.user_id is not None and s.user_id not in watching]
    if expected:
        at = timezone.now() + pace.FIRST_LOOK
        Seat.objects.filter(pk__in=[s.pk for s in expected]).update(gone_at=at, offline_since=None)
        for seat in expected:
            seat.gone_at, seat.offline_since = at, None


def commitment_of(seed: str, salt: str) -> str:
    """What a table shows before a deal: the hash of the seed it will deal from, salted so that the
    seed cannot be guessed from it. The deal here commits with it, the ledger's fair-deal check verifies with it."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def _deal(*, table: Table, match: Match, game: GameModule, config: Config, engine_match: EngineMatch,
          seats: list[Seat], number: int, now: datetime | None = None, house_seats: list[int] | None = None) -> None:
    """Deal round `number` and let bots open it (the house plays `house_seats`: `_house_seats`). Everything it
    needs is passed in, as the caller has just read or written it: dealing re-reads nothing (quick play deals
    hundreds of tables a second).
    `now` is the time of the caller's transaction (the clock's, when it deals after the pause)."""
    seed, salt = new_seed(), secrets.token_hex(8)
    state = game.new_round(config, seed, engine_match)
    current = Round(  # inserted by Live.save, once the bots have opened the round
        match=match, number=number, seed=seed, salt=salt, commitment=commitment_of(seed, salt),
        match_before=engine_match.to_json(), state=game.to_json(state), house_seats=house_seats or [],
    )
    live = Live(table=table, match=match, round=current, game=game, config=config, state=state, seats=seats,
                next_seq=1, moves=[], loaded_version=table.version, now=now or timezone.now())
    live.table.version += 1
    live.round.moved_at = live.now  # the first bot move comes a beat after the deal, as any other
    live._log(seat=None, actor="deal")
    live.play_bots()
    live.save()


def _house_seats(live: Live, number: int) -> list[int]:
    """The members' seats the house plays in round `number`, dealt now: those whose member is away (`Live.away_now`:
    left the seat, or offline: their last page closed a moment ago, `pace.OFFLINE_AFTER`, and none is open). Each
    such member's "while you were away" starts here at the latest (it started earlier if they went away mid-round)."""
    house = [s for s in live.seats if live.away_now(s)]
    new = [s for s in house if s.away_from is None]
    if new:
        Seat.objects.filter(pk__in=[s.pk for s in new]).update(away_from=number)
        for seat in new:
            seat.away_from = number
    return [s.position for s in house]


def current_game(table: Table, expected_version: int) -> bool:
    """The member saw the game as it stands: their version is the table's, or one after the game's last change
    that only showed someone arriving or leaving (a presence change must not refuse a move made meanwhile). A
    version before the last move or deal is stale: a double click or a replayed request changes nothing."""
    return table.played_version <= expected_version <= table.version


def member_acting(*, table_id: int | None, table_code: str | None, user: User, expected_version: int,
                  not_seated: str) -> tuple[Table, list[Seat], Seat]:
    """The table (locked), its seats and `user`'s seat, for a member's action made against `expected_version`;
    inside the caller's transaction. Refuses, changing nothing, one not seated (with `not_seated`) and then a stale
    version: the order every member action answers in."""
    table = locked_table(table_id, code=table_code)
    seats, seat = seated(table, user)
    if seat is None:
        raise NotSeated(not_seated)
    if not current_game(table, expected_version):
        raise StaleVersion(gettext("The table has moved on since you looked; nothing was changed."))
    return table, seats, seat


def play_move(*, table_id: int | None = None, table_code: str | None = None, user: User, move_text: str,
              expected_version: int) -> int:
    """A member's move at the table of `table_id` or of `table_code` (a POST's address); returns the table's new
    version. Refuses stale versions and illegal moves."""
    try:
        move = EngineMove.parse(move_text)
    except ValueError as error:
        raise IllegalPlay(gettext("That is not a move: %(error)s.") % {"error": say(error)}) from None
    with transaction.atomic():
        table, seats, seat = member_acting(
            table_id=table_id, table_code=table_code, user=user, expected_version=expected_version,
            not_seated=gettext("You are not seated at this table, so you cannot move here."))
        if table.status != Table.Status.RUNNING:
            raise TableError(gettext("This table is not playing."))
        live = Live.load(table, seats)
        if live.round.over:
            raise IllegalPlay(gettext("The round is over; get ready for the next one."))
        if seat.away:
            raise IllegalPlay(gettext("You left this seat; take it back before you play."))
        if live.house_plays(seat):
            raise IllegalPlay(gettext("You were away when this round was dealt, so the house plays your seat in it; "
                                      "you play again from the next round."))
        try:
            live.record(seat.position, move, Move.Actor.MEMBER, user)
        except IllegalMove as error:
            # The engine speaks of seat numbers; the member is told who the table is waiting for.
            raise IllegalPlay(name_seats(error.reason, [seat_label(s) for s in seats])) from None
        live.play_bots()
        live.save()
        return live.table.version


def ready_for_next_round(*, table_id: int | None = None, table_code: str | None = None, user: User,
                         expected_version: int) -> int:
    """A member is ready (at the table of `table_id` or of `table_code`); when every member present is, the next
    round is dealt at once."""
    with transaction.atomic():
        table, seats, seat = member_acting(
            table_id=table_id, table_code=table_code, user=user, expected_version=expected_version,
            not_seated=gettext("You are not seated at this table."))
        live = Live.load(table, seats)
        if not live.round.over or live.match.over:
            raise TableError(gettext("There is no next round to get ready for."))
        Seat.objects.filter(pk=seat.pk).update(ready=True)
        seat.ready = True  # one of live.seats, read under the table's lock: the seats as they stand
        if live.waiting_for_ready() or live.waiting_for_away():
            live.save()  # a new version: the others see this member ready
        else:
            deal_next_round(live)  # deals with the same table object, so its version is the new one
        return live.table.version


def choose_to_wait(*, table_id: int | None = None, table_code: str | None = None, user: User,
                   expected_version: int, wait: bool) -> int:
    """A member's choice after a round while another member is away (left, or offline): `wait` for them, up to
    `WAIT_FOR_AWAY` from the round's end (the next round is dealt when they are back and everyone is ready, or
    then), or go on with the house's bot in their seat (this member is ready, and any wait chosen is over: the
    next round is dealt when everyone here is ready, or when the usual pause ends). The last choice made stands.
    Nobody choosing is going on: the pause ends as usual and the house plays the away member's seat."""
    with transaction.atomic():
        table, seats, seat = member_acting(
            table_id=table_id, table_code=table_code, user=user, expected_version=expected_version,
            not_seated=gettext("You are not seated at this table."))
        if table.status != Table.Status.RUNNING:
            raise TableError(gettext("This table is not playing."))
        live = Live.load(table, seats)
        if not live.round.over or live.match.over:
            raise TableError(gettext("There is no next round to wait for."))
        if seat.away:
            raise IllegalPlay(gettext("You left this seat; take it back first."))
        if not any(live.away_now(s) for s in live.seats):
            raise TableError(gettext("Nobody is away: the next round is dealt when everyone is ready."))
        ended = live.round.finished_at or live.now
        if wait:
            until = ended + WAIT_FOR_AWAY
            if until <= live.now:
                raise TableError(gettext("The table has waited as long as it may; the next round is dealt now."))
            live.round.wait_until = live.round.deadline = until
            live.save()
            return live.table.version
        live.round.wait_until = None
        live.round.deadline = max(live.now, min(live.round.deadline or ended, ended + NEXT_ROUND_PAUSE))
        Seat.objects.filter(pk=seat.pk).update(ready=True)
        seat.ready = True
        if live.waiting_for_ready():
            live.save()
        else:
            deal_next_round(live)
        return live.table.version


def away_report_seen(*, table_id: int, user: User) -> int:
    """The member closed their "while you were away": it is forgotten (a new version, so their board drops it)."""
    with transaction.atomic():
        table = locked_table(table_id)
        seats, seat = seated(table, user)
        if seat is None:
            raise NotSeated(gettext("You are not seated at this table."))
        Seat.objects.filter(pk=seat.pk).update(away_from=None)
        seat.away_from = None
        if table.status == Table.Status.RUNNING:
            Live.load(table, seats).save()
        else:
            Table.objects.filter(pk=table.pk).update(version=table.version + 1)
            table.version += 1
            push.table_changed(table)
        return table.version


def deal_in_place_of_voided(live: Live) -> None:
    """Deal the next round in place of `live`'s current one, which an admin has just voided (and saved).
    The match stands as it did before that round: a voided round moves no totals and no dealer."""
    deal_next_round(live)


def deal_next_round(live: Live) -> None:
    """Deal the round after `live`'s current one, every seat not ready again, and save it (a new version). The
    caller holds the table's lock and has decided the next round is due: every member present is ready
    (`ready_for_next_round`), the pause ran out (the table clock's step), or an admin voided the round
    (`deal_in_place_of_voided`)."""
    Seat.objects.filter(table=live.table).update(ready=False)
    for seat in live.seats:
        seat.ready = False
    engine_match = EngineMatch.from_json(live.match.state)
    number = live.round.number + 1
    # Until a member has moved in the match nothing counts (`Live.members_moved`), so no seat is the house's yet: a
    # member who has not looked at a table quick play formed plays from the moment they do.
    house = _house_seats(live, number) if live.members_moved() else []
    _deal(table=live.table, match=live.match, game=live.game, config=live.config, engine_match=engine_match,
          seats=live.seats, number=number, now=live.now, house_seats=house)
