"""Hawsker's and Puskiyon's top card lies on the felt on the side of the seat that laid it, as a trick's cards do,
for every viewer (each sees the ring from their own seat); the card turned up to start the pile lies in the middle."""

from __future__ import annotations

import random
import re

import pytest

from rules.engine import registry
from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import seat_spots
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching

pytestmark = pytest.mark.django_db

PILE = re.compile(r'<div class="at at-(\w+)"><figure class="top-card"(?: data-by="([^"]*)")?>')


@pytest.mark.parametrize(("game", "players"), [("puskiyon", 4), ("puskiyon", 3), ("hawsker", 2)])
def test_the_top_card_lies_before_the_seat_that_laid_it(make_member, game: str, players: int) -> None:
    from tables.play.services import play

    members = [make_member(f"p{n}") for n in range(players)]
    table = full_table(game, members)
    watching(table, *members)
    engine = registry.game(game)
    rng = random.Random(5)
    laid_by: int | None = None
    checked = {"laid": 0, "starter": 0}
    for _ in range(60):
        table.refresh_from_db()
        rnd = current_round(table)
        if rnd.over:
            break
        state = engine.from_json(rnd.state)
        top = engine.view(state, 0).get("top")
        for viewer, member in enumerate(members):
            forget_boards()
            found = PILE.search(render_board(table, member))
            if not top:
                assert found is None  # Hawsker's first play of a round: nothing on the pile yet
                continue
            assert found, "the top card is not on the felt"
            spot, by = found.groups()
            if laid_by is None:
                assert (spot, by) == ("c", None)
                checked["starter"] += 1
            else:
                assert spot == seat_spots(players, viewer)[laid_by] and by == members[laid_by].username
                checked["laid"] += 1
        seat = seat_to_act(table)
        move = rng.choice(legal_for(table, seat))
        play.play_move(table_id=table.pk, user=members[seat], move_text=move, expected_version=table.version)
        if move.startswith("play"):
            laid_by = seat
    assert checked["laid"] >= players  # every viewer saw a laid card (a random Hawsker round can end early)
    if game == "puskiyon":
        assert checked["starter"] >= players
