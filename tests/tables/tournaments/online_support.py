"""Online tournament tables in tests: a field entered and drawn, and a play table played out by its members (moves
chosen by the game's bot from their own view) and by the table clock (for a member who never came), at the times
a FakeTime says."""

from __future__ import annotations

from accounts.models import User
from rules.engine import registry
from tables.models import Seat, Table, Tournament, TournamentRound
from tables.play.services import clock, play
from tables.tournaments import services
from tests.tables.helpers import current_round, seat_to_act
from tests.tables.play.table_life import FakeTime, due


def entered(make_member, staff: User, *, game: str, format: str, count: int, prefix: str = "p",
            **extra: object) -> tuple[Tournament, list[User]]:
    tournament = services.create_tournament(organiser=staff, name="Online cup", game=game, format=format, **extra)
    members = [make_member(f"{prefix}{index:02d}") for index in range(count)]
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    return tournament, members


def drawn(tournament: Tournament, staff: User) -> TournamentRound:
    return services.draw_next_round(tournament_id=tournament.pk, staff=staff)


def play_out(table: Table, *, present: set[int], time: FakeTime, limit: int = 5000) -> None:
    """Until the match ends: each member in `present` moves on their turn and is ready for the next round; every
    other seat (a member who never came) waits for the table clock, which plays it after the grace."""
    game = registry.game(table.game)
    choose = registry.bot(table.game).choose
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            return
        rnd = current_round(table)
        if rnd.over:
            for seat in Seat.objects.filter(table=table, user_id__in=present).select_related("user"):
                table.refresh_from_db()
                if table.status == Table.Status.RUNNING and current_round(table).over:
                    play.ready_for_next_round(table_id=table.pk, user=seat.user, expected_version=table.version)
        else:
            position = seat_to_act(table)
            holder = Seat.objects.get(table=table, position=position).user
            if holder is not None and holder.pk in present:
                state = game.from_json(rnd.state)
                move = choose(game.view(state, position), game.legal_moves(state, position))
                play.play_move(table_id=table.pk, user=holder, move_text=str(move), expected_version=table.version)
                continue
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING or (rnd.over and not current_round(table).over):
            continue
        when = due(table)
        assert when is not None, "nothing is due at the table"
        clock.advance(table_id=table.pk, now=time.to(max(when, time.now)))
    raise AssertionError("the match did not end")
