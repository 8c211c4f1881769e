"""Playing rounds to the end through the services, for the ledger, history and fairness tests."""

from __future__ import annotations

from accounts.models import User
from rules.engine import registry
from tables.models import Round, Seat, Table
from tables.play.services import play
from tests.tables.helpers import current_round, full_table


def play_until_round_over(table: Table, limit: int = 500) -> Round:
    """Members' moves chosen by the game's bot from their own view, until the current round ends."""
    game = registry.game(table.game)
    choose = registry.bot(table.game).choose
    for _ in range(limit):
        table.refresh_from_db()
        rnd = current_round(table)
        if rnd.over:
            return rnd
        state = game.from_json(rnd.state)
        seat = game.to_act(state)
        user = Seat.objects.get(table=table, position=seat).user
        move = choose(game.view(state, seat), game.legal_moves(state, seat))
        play.play_move(table_id=table.pk, user=user, move_text=str(move), expected_version=table.version)
    raise AssertionError("the round did not end")


def next_round(table: Table, members: list[User]) -> None:
    for member in members:
        table.refresh_from_db()
        if current_round(table).over and table.status == Table.Status.RUNNING:
            play.ready_for_next_round(table_id=table.pk, user=member, expected_version=table.version)


def finished_table(game: str, members: list[User], *, bots: int, rounds: int = 1, **options: object) -> Table:
    """A table whose first `rounds` rounds are over (members in the first seats, bots after them)."""
    table = full_table(game, members, bots=bots, **options)
    for number in range(rounds):
        if number:
            next_round(table, members)
        play_until_round_over(table)
    table.refresh_from_db()
    return table


def staff_playing_an_unfinished_round(make_member) -> tuple[User, User, Table, Round]:
    """A staff member (superuser) seated beside `ann` at a Sheepshead table whose first round is over and whose
    second has had three moves: what a curious admin who also plays could probe in the admin."""
    import random

    from tests.tables.helpers import play_one

    boss = make_member("boss", is_staff=True, is_superuser=True)
    ann = make_member("ann")
    table = finished_table("sheepshead", [ann, boss], bots=3)
    next_round(table, [ann, boss])
    live = current_round(table)
    rng = random.Random(4)
    while live.moves.count() < 3:
        assert play_one(table, {0: ann, 1: boss}, rng)
        live.refresh_from_db()
    assert not live.over
    return boss, ann, table, live
