"""Filling a database with finished play in bulk: tables, members, matches and thousands of finished rounds.

Why: the lobby, a table page and a move must cost the same number of queries whatever the club's past
holds. The bench setup uses this to put 10,000 finished rounds behind a run, and the query-count tests
use it (with a few hundred rows) to show the counts do not grow. Rounds are real: one round is played to
the end by the engine's bots and copied, so anything that reads a finished round finds a true one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from rules.engine import registry
from rules.engine.rng import new_seed
from tables.models import Match, Move, Round, Seat, Table
from tables.play.services.play import commitment_of


@dataclass(frozen=True)
class PlayedRound:
    match_before: dict[str, Any]
    state: dict[str, Any]
    result: dict[str, Any]
    moves: list[tuple[int, str]]
    match_after: dict[str, Any]
    config: dict[str, Any]


def play_one_round(game_key: str, players: int) -> PlayedRound:
    """One round of `game_key` played to the end by the game's bots, straight through the engine."""
    spec = registry.spec(game_key)
    game = registry.game(game_key)
    choose = registry.bot(game_key).choose
    config = spec.make_config(players, None)
    match = game.start_match(config, new_seed())
    state = game.new_round(config, new_seed(), match)
    moves: list[tuple[int, str]] = []
    while (seat := game.to_act(state)) is not None:
        move = choose(game.view(state, seat), game.legal_moves(state, seat))
        state = game.apply(state, seat, move)
        moves.append((seat, str(move)))
    result = game.result(state)
    after = game.next_match(config, match, state)
    return PlayedRound(
        match_before=match.to_json(), state=game.to_json(state),
        result={"deltas": list(result.deltas), "unit": result.unit, "summary": dict(result.summary)},
        moves=moves, match_after=after.to_json(), config=config.to_json(),
    )


def bulk_members(prefix: str, count: int) -> list[User]:
    """Members created in one statement (unusable passwords: they log in through sessions made for them)."""
    users = [User(username=f"{prefix}{i:05d}", email=f"{prefix}{i:05d}@bench.invalid", password="!bench")
             for i in range(count)]
    User.objects.bulk_create(users, batch_size=1000)
    return list(User.objects.filter(username__startswith=prefix).order_by("username"))


def bulk_finished_history(*, members: list[User], tables: int, rounds_per_table: int, game: str = "puskiyon",
                          players: int = 4, moves_per_round: int | None = None) -> int:
    """`tables` finished tables, each with a finished match of `rounds_per_table` finished rounds and their
    moves and members in the first seats (bots in the rest). Returns the number of rounds written."""
    played = play_one_round(game, players)
    moves = played.moves if moves_per_round is None else played.moves[:moves_per_round]
    now = timezone.now()
    table_rows = Table.objects.bulk_create(
        [Table(game=game, seat_count=players, status=Table.Status.FINISHED, version=len(moves) * rounds_per_table,
               created_by=members[i % len(members)], started_at=now - timedelta(hours=1), finished_at=now)
         for i in range(tables)], batch_size=1000)
    seats = []
    for i, table in enumerate(table_rows):
        for position in range(players):
            # Two members (distinct whenever there are two or more), bots in the other seats.
            user = members[(2 * i + position) % len(members)] if position < min(2, len(members)) else None
            seats.append(Seat(table=table, position=position, user=user, is_bot=user is None, joined_at=now))
    Seat.objects.bulk_create(seats, batch_size=2000)
    matches = Match.objects.bulk_create(
        [Match(table=table, config=played.config, seed=new_seed(), state=played.match_after, over=True,
               winners=[0], finished_at=now) for table in table_rows], batch_size=1000)
    seed = new_seed()
    salt = "bench"
    rounds = Round.objects.bulk_create(
        [Round(match=match, number=number + 1, seed=seed, salt=salt, commitment=commitment_of(seed, salt),
               match_before=played.match_before, state=played.state, over=True, result=played.result,
               finished_at=now, moves_made=len(moves))
         for match in matches for number in range(rounds_per_table)], batch_size=1000)
    Move.objects.bulk_create(
        [Move(round=rnd, seq=seq + 1, seat=seat, text=text, actor=Move.Actor.BOT, table_version=seq + 1)
         for rnd in rounds for seq, (seat, text) in enumerate(moves)], batch_size=5000)
    return len(rounds)
