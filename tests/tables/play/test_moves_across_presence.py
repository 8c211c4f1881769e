"""Someone arriving or leaving makes a new version (every board shows it) but does not change the game: a move
made against the version before it still stands. A version from before the game's last move or deal is stale,
so a double click or a replayed request still changes nothing."""

from __future__ import annotations

import random

import pytest

from tables.models import Table
from tables.play.services import clock, play
from tables.play.services.errors import StaleVersion
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching
from tests.tables.play.table_life import close_page, moves_at, open_page, seat_of

pytestmark = pytest.mark.django_db


def hawsker_for_two(make_member):
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    table.refresh_from_db()
    return table, {0: alice, 1: bob}


def test_a_move_made_while_the_other_member_dropped_and_came_back_stands(make_member) -> None:
    table, members = hawsker_for_two(make_member)
    mover_seat = seat_to_act(table)
    mover, other = members[mover_seat], members[1 - mover_seat]
    seen = table.version  # the mover's board
    close_page(table, other)
    clock.advance(table_id=table.pk, now=seat_of(table, other).gone_at)  # shown offline: a new version
    open_page(table, other)  # and back: another
    table.refresh_from_db()
    assert table.version == seen + 2
    made = moves_at(table).count()
    version = play.play_move(table_id=table.pk, user=mover, move_text=legal_for(table, mover_seat)[0],
                             expected_version=seen)
    assert version == seen + 3 and moves_at(table).count() == made + 1


def test_a_version_from_before_the_last_move_is_still_refused(make_member) -> None:
    table, members = hawsker_for_two(make_member)
    rng = random.Random(1)
    for _ in range(3):  # a few moves in, whoever is to act
        seat = seat_to_act(table)
        before = table.version
        play.play_move(table_id=table.pk, user=members[seat], move_text=rng.choice(legal_for(table, seat)),
                       expected_version=before)
        table.refresh_from_db()
        # the same click again (a double click), or any member's move against the board before that move
        for member in members.values():
            with pytest.raises(StaleVersion):
                play.play_move(table_id=table.pk, user=member, move_text=legal_for(table, seat_to_act(table))[0],
                               expected_version=before)
    with pytest.raises(StaleVersion):  # nor a version the table never had
        seat = seat_to_act(table)
        play.play_move(table_id=table.pk, user=members[seat], move_text=legal_for(table, seat)[0],
                       expected_version=table.version + 1)


def test_a_new_deal_makes_every_earlier_version_stale(make_member) -> None:
    table, members = hawsker_for_two(make_member)
    rng = random.Random(2)
    while not current_round(table).over:
        seat = seat_to_act(table)
        play.play_move(table_id=table.pk, user=members[seat], move_text=rng.choice(legal_for(table, seat)),
                       expected_version=table.version)
        table.refresh_from_db()
    end = table.version
    play.ready_for_next_round(table_id=table.pk, user=members[0], expected_version=end)
    play.ready_for_next_round(table_id=table.pk, user=members[1], expected_version=end)  # bob saw the same board
    table.refresh_from_db()
    assert current_round(table).number == 2 and table.played_version == table.version
    with pytest.raises(StaleVersion):
        play.play_move(table_id=table.pk, user=members[seat_to_act(table)],
                       move_text=legal_for(table, seat_to_act(table))[0], expected_version=end)
    assert Table.objects.get(pk=table.pk).version == table.version
