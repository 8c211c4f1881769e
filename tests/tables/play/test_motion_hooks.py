"""What the table page's motion and sounds (static/js/motion.js, sounds.js) need from the server (issue 41, item 7):
a taken trick's pause long enough to read at each paced speed, each member's own pause and card sounds handed to
their page, and a board whose cards say who played them, with the trick just taken kept inert once the next is led
(so a page that receives both in one board can show each). The browser's side is tests/e2e/test_motion.py."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine import registry
from tables.play import pace
from tables.play.services.tables import create_table
from tests.tables.helpers import PLAYERS, current_round, full_table, play_one
from tests.tables.play.test_board_table_life import board_html, until

pytestmark = pytest.mark.django_db


def test_a_finished_trick_stays_long_enough_to_read_at_every_paced_speed() -> None:
    assert pace.delay("brisk", closed_trick=True) == timedelta(seconds=1.8)
    assert pace.delay("normal", closed_trick=True) == timedelta(seconds=2.5)
    assert pace.delay("slow", closed_trick=True) == timedelta(seconds=3.5)
    for speed in ("brisk", "normal", "slow"):  # longer than a bot's move, and never below the shortest choice
        assert pace.pace(speed).trick > pace.pace(speed).move
        assert pace.pace(speed).trick >= pace.TRICK_PAUSES["short"]


def test_a_members_pause_in_milliseconds_and_a_replayed_move_within_the_briskest_pace() -> None:
    assert [pace.trick_pause_ms(choice) for choice in ("short", "normal", "long")] == [1200, 2500, 4000]
    assert pace.trick_pause_ms("no such choice") == 2500
    # a page that shows each card for this long keeps up with the briskest paced table
    assert 0 < pace.REPLAYED_MOVE <= min(p.move for speed, p in pace.PACES.items() if speed != "instant")


def page_attributes(client: Client, code: str) -> dict[str, str]:
    html = client.get(reverse("table", args=[code])).content.decode()
    tag = re.search(r'<div class="table-page"[^>]*>', html).group(0)
    return dict(re.findall(r'(data-(?:trick-pause-ms|replay-step-ms|card-sounds))="([^"]*)"', tag))


def test_the_table_page_hands_the_member_their_pause_and_card_sounds(make_member) -> None:
    alice = make_member("alice", trick_pause="long", card_sounds=True)
    bob = make_member("bob")  # the defaults
    table = create_table(creator=alice, game="hawk", players=4)
    for member, expected in ((alice, {"data-trick-pause-ms": "4000", "data-card-sounds": "on"}),
                             (bob, {"data-trick-pause-ms": "2500", "data-card-sounds": "off"})):
        client = Client()
        client.force_login(member)
        assert page_attributes(client, table.code) == {**expected, "data-replay-step-ms": "350"}


@pytest.mark.parametrize("game", ["sheepshead", "hawk"])
def test_each_card_says_who_played_it_and_the_trick_taken_stays_inert_after_the_next_lead(make_member,
                                                                                          game) -> None:
    members = [make_member(f"m{i}", display_name=f"M{i}") for i in range(PLAYERS[game])]
    table = full_table(game, members)
    engine = registry.game(game)
    rng = random.Random(8)

    def view():
        return engine.view(engine.from_json(current_round(table).state), None)

    def trick_just_taken() -> bool:
        state = engine.from_json(current_round(table).state)
        return bool(state.tricks) and not view()["trick"] and not current_round(table).over

    until(table, dict(enumerate(members)), rng, trick_just_taken)
    last = view()["last_trick"] if game == "sheepshead" else view()["history"][-1]
    html = board_html(table, members[0])
    shown = html[html.index('class="trick last-trick"'):]
    taken = [(str(play["seat"]), play["card"]) for play in last["cards"]]
    assert re.findall(r'class="at [^"]*" data-seat="(\d+)" data-card="(\w+)"', shown)[:len(taken)] == taken
    assert f'data-taker="{last["winner"]}"' in shown
    assert "taken-before" not in html  # on the felt itself: no second copy

    play_one(table, dict(enumerate(members)), rng)  # the next lead
    html = board_html(table, members[0])
    assert 'class="trick last-trick"' not in html  # not shown as it is
    inert = re.search(r'<template class="taken-before"([^>]*)>(.*?)</template>', html, flags=re.S)
    assert inert is not None
    assert f'data-taker="{last["winner"]}"' in inert.group(1)
    assert re.findall(r'data-seat="(\d+)" data-card="(\w+)"', inert.group(2)) == taken
    led = view()["trick"][0]
    playing = html[html.index('class="trick"'):html.index('<template class="taken-before"')]
    assert re.findall(r'data-seat="(\d+)" data-card="(\w+)"', playing) == [(str(led["seat"]), led["card"])]
