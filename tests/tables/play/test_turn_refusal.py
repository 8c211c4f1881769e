"""A move out of turn is refused with the name of the player the table is waiting for, never "seat 1" (as the
page shows it, by POST and over the socket: tests/tables/play/test_moves_both_ways.py)."""

from __future__ import annotations

import re

import pytest

from tables.play.services import play
from tables.play.services.errors import IllegalPlay
from tests.tables.helpers import PLAYERS, full_table, legal_for, seat_to_act

pytestmark = pytest.mark.django_db

NAMES = ["Alice Able", "Bob Baker", "Carol Cole", "Dan Dunn", "Eve Eden"]


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_refusal_names_the_player_to_act(make_member, game: str) -> None:
    members = [make_member(f"m{i}", display_name=name) for i, name in enumerate(NAMES[: PLAYERS[game]])]
    table = full_table(game, members)
    seat = seat_to_act(table)
    waiter = members[(seat + 1) % len(members)]
    with pytest.raises(IllegalPlay) as refused:
        play.play_move(table_id=table.pk, user=waiter, move_text=legal_for(table, seat)[0],
                       expected_version=table.version)
    message = str(refused.value)
    assert NAMES[seat] in message
    assert not re.search(r"\bseat \d", message, re.IGNORECASE)
