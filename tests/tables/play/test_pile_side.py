"""Hawsker's and Puskiyon's top card lies on the felt on the side of the seat that laid it, as a trick's cards do,
for every viewer (each sees the ring from their own seat); the card turned up to start the pile lies in the middle."""

from __future__ import annotations

import random
import re

import pytest

from rules.engine import registry
from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import seat_spots
from tables.play.templatetags import card_said
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching

pytestmark = pytest.mark.django_db

PILE = re.compile(r'<div class="at at-(\w+)"[^>]*><figure class="top-card"(?: data-by="([^"]*)")?>')


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


def test_a_hawsker_board_names_the_hands_kept_from_the_last_round(make_member) -> None:
    """Both players saw them scored; the board shows them to each (as a bot's view holds them), and the first round,
    with nothing kept, shows no such line."""
    from tables.play.services import play

    members = [make_member(f"k{n}") for n in range(2)]
    table = full_table("hawsker", members)
    watching(table, *members)
    rng = random.Random(3)
    forget_boards()
    assert "kept-hands" not in render_board(table, members[0])
    while play_one_random(table, members, rng):
        pass
    ended = registry.game("hawsker").from_json(current_round(table).state)
    for member in members:
        table.refresh_from_db()
        play.ready_for_next_round(table_id=table.pk, user=member, expected_version=table.version)
    table.refresh_from_db()
    assert current_round(table).number == 2
    kept = registry.game("hawsker").from_json(current_round(table).state).kept
    assert kept == ended.hands and any(kept)
    for member in members:
        forget_boards()
        html = render_board(table, member)
        line = re.search(r'<details class="kept-hands"><summary>Kept from the last round</summary>\s*'
                         r'<p class="small kept">(.*?)</p>', html, re.S)
        assert line, "no line of kept hands on the second round's board"
        other = members[1 - members.index(member)]
        assert other.username in line.group(1)
        for card in (*kept[0], *kept[1]):
            assert str(card_said(str(card))) in line.group(1)


def play_one_random(table, members, rng: random.Random) -> bool:
    from tables.play.services import play

    table.refresh_from_db()
    rnd = current_round(table)
    if rnd.over:
        return False
    seat = seat_to_act(table)
    move = rng.choice(legal_for(table, seat))
    play.play_move(table_id=table.pk, user=members[seat], move_text=move, expected_version=table.version)
    return True
