"""The move buttons' words (issue 41, item 8): Hawsker lists a combination once for each card that may finish it,
so "Play 3♥ 3♣" and "Play 3♣ 3♥" stand side by side; the button says which card lands on top, since only the top
card decides what may follow. In each reader's language."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.utils import translation

from tables.play.rendering import forget_boards, render_board
from tables.play.selectors import move_label
from tests.tables.helpers import full_table, legal_for, play_one, seat_to_act

pytestmark = pytest.mark.django_db


def test_a_combination_says_its_top_card() -> None:
    with translation.override("en"):
        assert move_label("play 3H 3C") == "Play 3♥ 3♣ (3♣ on top)"
        assert move_label("play 3C 3H") == "Play 3♣ 3♥ (3♥ on top)"
        assert move_label("play 2S 4D 7H") == "Play 2♠ 4♦ 7♥ (7♥ on top)"
        # one card needs no word about the top; nor does a move without cards
        assert move_label("play 10D") == "Play 10♦"
        assert move_label("discard 7S") == "Discard 7♠"
        assert move_label("pass") == "Pass"
    with translation.override("de"):
        assert move_label("play 3H 3C") == "Spielen 3♥ 3♣ (3♣ liegt oben)"


def test_the_hawsker_boards_combination_buttons_say_the_top_card(make_member, monkeypatch) -> None:
    # A fixed deal: with a fresh random one, one CI run in many played a whole round without a combination.
    seeds = iter(f"combination-buttons-{n}" for n in range(1000))
    monkeypatch.setattr("tables.play.services.play.new_seed", lambda: next(seeds))
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    members = {0: alice, 1: bob}
    rng = random.Random(4)
    for _ in range(600):
        seat = seat_to_act(table)
        assert seat is not None, "no combination came up in the round"
        combinations = [move for move in legal_for(table, seat) if move.startswith("play ") and move.count(" ") > 1]
        if combinations:
            break
        assert play_one(table, members, rng)
    else:
        raise AssertionError("no combination came up")
    table.refresh_from_db()
    for language, on_top in (("en", "on top"), ("de", "liegt oben")):
        forget_boards()
        with translation.override(language):
            html = unescape(render_board(table, members[seat]))
        for move in combinations:
            button = re.search(rf'<button[^>]*data-move="{move}"[^>]*>([^<]*)</button>', html)
            assert button is not None, move
            top = move.split()[-1]
            shown_top = top[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[top[-1]]
            assert button.group(1).endswith(f"({shown_top} {on_top})"), button.group(1)
