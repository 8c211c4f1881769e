"""Watching a tournament table (issue 45): the tournament page's Watch link opens the table for every member, as a
spectator sees it (no card of any hand, no seed), and nobody but its players may move or sit there. An ordinary
private table stays its creator's and invitees' alone."""

from __future__ import annotations

import pytest

from rules.engine import registry
from tables.models import Seat
from tables.play.services.errors import TableError
from tables.play.services.tables import create_table, join_table
from tests.tables.helpers import client_for, current_round, legal_for, seat_to_act
from tests.tables.play.test_hidden_information import cards_shown, secret_from
from tests.tables.tournaments.test_table_link import started_session

pytestmark = pytest.mark.django_db


def test_any_member_watches_a_tournament_table_as_a_spectator(make_member, staff) -> None:
    _tournament, tables, members = started_session(make_member, staff)
    first, second = tables
    play_table = second.table
    page = f"/t/{play_table.code}/"
    outsider = make_member("outsider")  # not in the tournament at all
    elsewhere = members[first.seats[0]]  # playing the same session at another table
    game = registry.game(play_table.game)
    state = game.from_json(current_round(play_table).state)
    secret = secret_from(play_table.game, state, None)
    assert secret  # the hands are dealt: there is something to keep from a watcher
    for viewer in (outsider, elsewhere):
        response = client_for(viewer).get(page)
        assert response.status_code == 200, viewer.username
        body = response.content.decode()
        assert play_table.code in body
        assert "ask the member who opened it" not in body
        assert not Seat.objects.filter(table=play_table, user=viewer).exists()
        assert not cards_shown(body) & secret

    # Watching is all: a move from a watcher is refused and changes nothing, and no seat can be taken.
    seat = seat_to_act(play_table)
    play_table.refresh_from_db()
    before = (play_table.version, current_round(play_table).state)
    move = legal_for(play_table, seat)[0]
    client_for(outsider).post(f"{page}move/", {"move": move, "version": play_table.version})  # told, on the page
    play_table.refresh_from_db()
    assert (play_table.version, current_round(play_table).state) == before
    with pytest.raises(TableError):
        join_table(table_id=play_table.pk, user=outsider)


def test_an_ordinary_private_table_stays_closed_to_others(make_member) -> None:
    alice, outsider = make_member("alice"), make_member("outsider")
    private = create_table(creator=alice, game="hawk", players=4, private=True)
    assert not private.anyone_may_watch
    response = client_for(outsider).get(f"/t/{private.code}/")
    assert response.status_code == 403
    assert "ask Alice" in response.content.decode() or "invitation" in response.content.decode()
