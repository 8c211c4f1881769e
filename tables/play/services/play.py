"""Playing at a table: dealing, moves against an expected version, bots, time-outs, next rounds.

Every public function here is one transaction that starts by locking the table row. A move is
applied by the engine (which refuses anything illegal without changing anything), recorded as a
`Move` with the table version it produced, and announced after commit. Bots (and seats whose
member left or ran out of time) move here too, until a member is to act.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from rules.engine.api import Config, GameModule
from rules.engine.api import Match as EngineMatch
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move as EngineMove
from rules.engine.rng import new_seed
from tables.models import Match, Move, Round, Seat, Table
from tables.play import push, snapshots
from tables.play.selectors import RECENT_MOVES, name_seats, recent_moves, seat_label
from tables.play.services.errors import IllegalPlay, NotSeated, StaleVersion, TableError
from tables.play.signals import round_finished
from tables.play.snapshots import TableSnapshot

NEXT_ROUND_PAUSE = timedelta(seconds=20)
BOT_MOVES_LIMIT = 5000


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("There is no such table.") from None


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

    @classmethod
    def load(cls, table: Table, seats: list[Seat] | None = None) -> Live:
        """The locked table's current round (and `seats`, if the caller has read them under the lock)."""
        current = Round.objects.filter(match__table=table).select_related("match").order_by("-number").first()
        if current is None:
            raise TableError("This table has not started yet.")
        match = current.match
        game = registry.game(table.game)
        last = current.moves_made
        return cls(
            table=table,
            match=match,
            round=current,
            game=game,
            config=Config.from_json(match.config),
            state=game.from_json(current.state),
            seats=seats if seats is not None else seats_at(table),
            next_seq=last + 1,
            moves=[],
            loaded_version=table.version,
            paused=current.over,
        )

    def seat_to_act(self) -> int | None:
        return None if self.round.over else self.game.to_act(self.state)

    def record(self, seat: int, move: EngineMove, actor: str, user: User | None = None) -> None:
        self.state = self.game.apply(self.state, seat, move)
        self.table.version += 1
        self.moves.append(
            Move(round=self.round, seq=self.next_seq, seat=seat, text=str(move), actor=actor, user=user,
                 table_version=self.table.version)
        )
        self.next_seq += 1
        self.made.append((actor, seat))
        if self.game.to_act(self.state) is None:
            self._finish_round()

    def play_bots(self) -> None:
        """Bots (and seats played for absent members) move until a member is to act or the round ends."""
        choose = registry.bot(self.table.game).choose
        for _ in range(BOT_MOVES_LIMIT):
            seat = self.seat_to_act()
            if seat is None or not self.seats[seat].played_by_bot:
                return
            move = choose(self.game.view(self.state, seat), self.game.legal_moves(self.state, seat))
            self.record(seat, move, Move.Actor.BOT)
        raise RuntimeError("bots did not finish the round")

    def _finish_round(self) -> None:
        result = self.game.result(self.state)
        now = timezone.now()
        self.round.over = True
        self.round.finished_at = now
        self.round.result = {"deltas": list(result.deltas), "unit": result.unit, "summary": dict(result.summary)}
        if self.round.pk is None:  # bots played the whole round as it was dealt: its entries need its row
            self.round.save(force_insert=True)
        round_finished.send(sender=Round, round=self.round, table=self.table, seats=self.seats)  # the ledger's entries
        before = EngineMatch.from_json(self.match.state)
        after = self.game.next_match(self.config, before, self.state)
        self.match.state = after.to_json()
        self.match_changed = True
        if self.game.match_over(self.config, after):
            self.match.over = True
            self.match.winners = list(self.game.match_winners(self.config, after))
            self.match.finished_at = now
            self.table.status = Table.Status.FINISHED
            self.table.finished_at = now
        Seat.objects.filter(table=self.table).update(ready=False)
        for seat in self.seats:
            seat.ready = False

    def save(self) -> None:
        """Write everything back, guarded by the version this transaction started from. The match row
        is written only when a round ended here (nothing else changes it)."""
        started_from = self.loaded_version
        self.table.version = max(self.table.version, started_from + 1)  # every save is a new version
        self.round.state = self.game.to_json(self.state)
        self.round.deadline = self._deadline()
        self.round.moves_made = self.next_seq - 1
        if self.round.pk is None:  # dealt in this transaction
            self.round.save(force_insert=True)
        else:
            self.round.save(update_fields=["state", "deadline", "over", "finished_at", "result", "moves_made"])
        if self.moves:
            Move.objects.bulk_create(self.moves)
            self.moves = []
        if self.match_changed:
            self.match.save()
            self.match_changed = False
        updated = Table.objects.filter(pk=self.table.pk, version=started_from).update(
            version=self.table.version,
            status=self.table.status,
            started_at=self.table.started_at,
            finished_at=self.table.finished_at,
        )
        if updated != 1:
            raise StaleVersion("The table changed while you moved; nothing was changed. Try again.")
        snapshot = self._snapshot()

        def remember_snapshot() -> None:  # named: Django's log of a failed robust callback reads its __qualname__
            snapshots.remember(snapshot)

        # Before the push announces it; robust: a cache that fails is logged and the push still goes out.
        transaction.on_commit(remember_snapshot, robust=True)
        push.table_changed(self.table)
        if self.table.status == Table.Status.FINISHED:
            push.lobby_changed()

    def _snapshot(self) -> TableSnapshot:
        """The table as this transaction leaves it (for every board of this version, see tables.play.snapshots)."""
        if self.next_seq - 1 == len(self.made) or any(actor == Move.Actor.MEMBER for actor, _ in self.made):
            recent = [*reversed(self.made)][:RECENT_MOVES]  # every move since the last member's is in hand
        else:
            recent = recent_moves(self.round)
        return snapshots.make(table=self.table, seats=self.seats, match=self.match, round=self.round,
                              state=self.state, recent=recent)

    def _deadline(self):
        now = timezone.now()
        if self.match.over:
            return None
        if self.round.over:
            if self.paused and self.round.deadline is not None:
                return self.round.deadline  # the pause runs from the round's end: nobody's click stretches it
            return now + NEXT_ROUND_PAUSE
        return now + timedelta(seconds=self.table.turn_seconds)


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
    _deal(table=table, match=match, game=game, config=config, engine_match=engine_match, seats=seats, number=1)


def commitment_of(seed: str, salt: str) -> str:
    """What a table shows before a deal: the hash of the seed it will deal from, salted so that the
    seed cannot be guessed from it. The deal here commits with it, the ledger's fair-deal check verifies with it."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def _deal(*, table: Table, match: Match, game: GameModule, config: Config, engine_match: EngineMatch,
          seats: list[Seat], number: int) -> None:
    """Deal round `number` and let bots open it. Everything it needs is passed in, as the caller has
    just read or written it: dealing re-reads nothing (quick play deals hundreds of tables a second)."""
    seed, salt = new_seed(), secrets.token_hex(8)
    state = game.new_round(config, seed, engine_match)
    current = Round(  # inserted by Live.save, once the bots have opened the round
        match=match, number=number, seed=seed, salt=salt, commitment=commitment_of(seed, salt),
        match_before=engine_match.to_json(), state=game.to_json(state),
    )
    live = Live(table=table, match=match, round=current, game=game, config=config, state=state, seats=seats,
                next_seq=1, moves=[], loaded_version=table.version)
    live.table.version += 1
    live.play_bots()
    live.save()


def bots_play_on(table: Table) -> None:
    """After a seat changed hands (a member left or came back): let bots move if it is their turn."""
    live = Live.load(table)
    live.table.version += 1
    live.play_bots()
    live.save()


def play_move(*, table_id: int, user: User, move_text: str, expected_version: int) -> int:
    """A member's move; returns the table's new version. Refuses stale versions and illegal moves."""
    try:
        move = EngineMove.parse(move_text)
    except ValueError as error:
        raise IllegalPlay(f"That is not a move: {error}.") from None
    with transaction.atomic():
        table = locked_table(table_id)
        seats, seat = seated(table, user)
        if seat is None:
            raise NotSeated("You are not seated at this table, so you cannot move here.")
        if table.version != expected_version:
            raise StaleVersion("The table has moved on since you looked; nothing was changed.")
        if table.status != Table.Status.RUNNING:
            raise TableError("This table is not playing.")
        live = Live.load(table, seats)
        if live.round.over:
            raise IllegalPlay("The round is over; get ready for the next one.")
        if seat.away:
            raise IllegalPlay("You left this seat; take it back before you play.")
        try:
            live.record(seat.position, move, Move.Actor.MEMBER, user)
        except IllegalMove as error:
            # The engine speaks of seat numbers; the member is told who the table is waiting for.
            raise IllegalPlay(name_seats(error.reason, [seat_label(s) for s in seats])) from None
        live.play_bots()
        live.save()
        return live.table.version


def expire_turn(*, table_id: int, expected_version: int) -> bool:
    """Called when a deadline may have passed: the bot plays for the late seat, or the next round is dealt.

    Returns whether anything changed. Safe to call from several sockets at once: only a call made
    against the current version after the deadline does anything.
    """
    with transaction.atomic():
        table = locked_table(table_id)
        if table.version != expected_version or table.status != Table.Status.RUNNING:
            return False
        live = Live.load(table)
        deadline = live.round.deadline
        if deadline is None or deadline > timezone.now():
            return False
        if live.round.over:
            _next_round(live)
            return True
        seat = live.seat_to_act()
        if seat is None:
            return False
        choose = registry.bot(table.game).choose
        move = choose(live.game.view(live.state, seat), live.game.legal_moves(live.state, seat))
        live.record(seat, move, Move.Actor.TIMEOUT)
        live.play_bots()
        live.save()
        return True


def ready_for_next_round(*, table_id: int, user: User, expected_version: int) -> int:
    """A member is ready; when every member present is, the next round is dealt at once."""
    with transaction.atomic():
        table = locked_table(table_id)
        seats, seat = seated(table, user)
        if seat is None:
            raise NotSeated("You are not seated at this table.")
        if table.version != expected_version:
            raise StaleVersion("The table has moved on since you looked; nothing was changed.")
        live = Live.load(table, seats)
        if not live.round.over or live.match.over:
            raise TableError("There is no next round to get ready for.")
        Seat.objects.filter(pk=seat.pk).update(ready=True)
        seat.ready = True  # one of live.seats, read under the table's lock: the seats as they stand
        waiting = any(s.user_id is not None and not s.away and not s.ready for s in live.seats)
        if waiting:
            live.save()  # a new version: the others see this member ready
        else:
            _next_round(live)  # deals with the same table object, so its version is the new one
        return live.table.version


def deal_in_place_of_voided(live: Live) -> None:
    """Deal the next round in place of `live`'s current one, which an admin has just voided (and saved).
    The match stands as it did before that round: a voided round moves no totals and no dealer."""
    _next_round(live)


def _next_round(live: Live) -> None:
    Seat.objects.filter(table=live.table).update(ready=False)
    for seat in live.seats:
        seat.ready = False
    engine_match = EngineMatch.from_json(live.match.state)
    _deal(table=live.table, match=live.match, game=live.game, config=live.config, engine_match=engine_match,
          seats=live.seats, number=live.round.number + 1)
