"""Building tables for tests and playing them through the services."""

from __future__ import annotations

import random

from django.test import Client

from accounts.models import User
from rules.engine import registry
from tables.models import Round, Table
from tables.play.forms import NewTableForm
from tables.play.services import play, presence
from tables.play.services.tables import add_bot, create_table, join_table

PLAYERS = {"sheepshead": 5, "hawk": 4, "hawsker": 2, "puskiyon": 4}


def full_table(game: str, members: list[User], *, bots: int = 0, **options: object) -> Table:
    """A running table: members in the first seats, bots in the rest."""
    players = len(members) + bots
    table = create_table(creator=members[0], game=game, players=players, options=options or None)
    for member in members[1:]:
        join_table(table_id=table.pk, user=member)
    if bots:
        from tables.play.services.tables import add_bot

        for _ in range(bots):
            add_bot(table_id=table.pk, user=members[0])
    table.refresh_from_db()
    return table


def watching(table: Table, *members: User) -> None:
    """The members have the table's page open (a socket each, as the consumer records it): they are online,
    so their turns wait for them until their time runs out."""
    for member in members:
        presence.socket_opened(table_id=table.pk, user=member, channel_name=f"test-{table.pk}-{member.pk}")


def hawk_table(member: User, *, level: str = "strong", speed: str = "instant") -> Table:
    """The member's Hawk table with three bots at `level` and `speed`, open in the member's page, played to a bot's
    turn (the clock's and the search budget's tests start from here)."""
    # The clock's tests count the bots' moves up to the member's turn: a forced card the clock played for the member
    # (their option, on by default) would be one more, as the deal falls.
    type(member).objects.filter(pk=member.pk).update(auto_play_forced=False)
    member.auto_play_forced = False
    table = create_table(creator=member, game="hawk", players=4, bot_level=level, bot_speed=speed)
    for _ in range(3):
        add_bot(table_id=table.pk, user=member)
    watching(table, member)
    table.refresh_from_db()
    if seat_to_act(table) == 0:
        play.play_move(table_id=table.pk, user=member, move_text=legal_for(table, 0)[0],
                       expected_version=table.version)
    assert seat_to_act(table) in (1, 2, 3)
    table.refresh_from_db()
    return table


def current_round(table: Table) -> Round:
    return Round.objects.filter(match__table=table).order_by("-number").first()


def seat_to_act(table: Table) -> int | None:
    rnd = current_round(table)
    if rnd is None or rnd.over:
        return None
    game = registry.game(table.game)
    return game.to_act(game.from_json(rnd.state))


def legal_for(table: Table, seat: int) -> list[str]:
    rnd = current_round(table)
    game = registry.game(table.game)
    return [str(m) for m in game.legal_moves(game.from_json(rnd.state), seat)]


def play_one(table: Table, members_by_seat: dict[int, User], rng: random.Random) -> bool:
    """One member move chosen at random; False when no member is to act."""
    table.refresh_from_db()
    seat = seat_to_act(table)
    if seat is None or seat not in members_by_seat:
        return False
    move = rng.choice(legal_for(table, seat))
    play.play_move(table_id=table.pk, user=members_by_seat[seat], move_text=move, expected_version=table.version)
    return True


def new_table_data(game: str) -> dict[str, str]:
    """The new-table form as the lobby shows it for `game`, sent unchanged: a valid request."""
    form = NewTableForm(game=game)
    data = {"game": game}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if name == "game" or value is None or value is False or value == "":
            continue  # an unticked box is not sent
        data[name] = "on" if value is True else str(value)
    return data


def client_for(user: User) -> Client:
    """A browser session logged in as `user`."""
    client = Client()
    client.force_login(user)
    return client
