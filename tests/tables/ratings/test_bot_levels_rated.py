"""Each bot level is a player of its own (issue 19): a match records the level every bot seat played at, the
ratings rate each level apart, and the ratings page and the standings name them ("Easy bot", "Leichter Bot")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.ledger.selectors import standings
from tables.models import LedgerEntry, Match, MatchResult, Rating, RatingChange, Seat, Table
from tables.play.services.admin_actions import close_table
from tables.play.services.tables import add_bot, create_table
from tables.ratings.selectors import game_ratings
from tables.ratings.services.rebuild import rebuild_ratings
from tests.tables.ledger_support import finished_table
from tests.tables.ratings.factories import record_match

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_match_records_the_level_each_bot_seat_played_at_and_each_level_is_rated_apart(make_member) -> None:
    """A normal table with a strong bot, one at the table's level and an easy one; the admin closes it after a
    round (totals set so that nobody ties): the places name the three levels, and three bot players are rated."""
    alice, boss = make_member("alice"), make_member("boss", is_staff=True)
    table = create_table(creator=alice, game="hawk", players=4, bot_level=Table.BotLevel.NORMAL)
    add_bot(table_id=table.pk, user=alice, bot_level=Table.BotLevel.STRONG)
    add_bot(table_id=table.pk, user=alice)  # the table's level
    add_bot(table_id=table.pk, user=alice, bot_level=Table.BotLevel.EASY)  # full: the match starts
    match = Match.objects.get(table=table)
    Match.objects.filter(pk=match.pk).update(state={**match.state, "number": 1, "totals": [30, 20, 10, 0]})
    close_table(table_id=table.pk, admin=boss, reason="for the test")
    result = MatchResult.objects.get(match=match)
    assert [(p.seat, p.user_id, p.bot, p.place) for p in result.places.order_by("seat")] == [
        (0, alice.pk, "", 1), (1, None, "strong", 2), (2, None, "normal", 3), (3, None, "easy", 4)]
    bots = {r.bot: r for r in Rating.objects.filter(game="hawk", user__isnull=True)}
    assert sorted(bots) == ["easy", "normal", "strong"] and all(r.matches == 1 for r in bots.values())
    assert bots["strong"].mu > bots["normal"].mu > bots["easy"].mu  # each moved by its own place
    assert RatingChange.objects.filter(result=result).count() == 4  # one per player: no level shares a rating
    assert rebuild_ratings(write=False).differences == []


def test_levels_that_share_a_match_are_players_of_their_own(make_member) -> None:
    """Beating the strong bot lifts Ann more than beating the easy one: what a rating against bots is for."""
    ann, ben = make_member("ann"), make_member("ben")
    for _ in range(3):
        record_match("hawsker", [ann, "strong"], [7, 3])
        record_match("hawsker", [ben, "easy"], [7, 3])
    record_match("hawsker", ["strong", "easy"], [9, 1])  # the strong bot beat the easy one
    ratings = {(r.user_id, r.bot): r for r in Rating.objects.filter(game="hawsker")}
    assert ratings[(None, "strong")].matches == ratings[(None, "easy")].matches == 4
    record_match("hawsker", [ann, "strong"], [7, 3])
    record_match("hawsker", [ben, "easy"], [7, 3])
    after = {(r.user_id, r.bot): r for r in Rating.objects.filter(game="hawsker")}
    gain_ann = after[(ann.pk, "")].mu - ratings[(ann.pk, "")].mu
    gain_ben = after[(ben.pk, "")].mu - ratings[(ben.pk, "")].mu
    assert gain_ann > gain_ben > 0
    assert rebuild_ratings(write=False).differences == []


def test_the_ratings_page_names_each_level_in_the_reader_s_language(make_member) -> None:
    ann = make_member("ann", display_name="Ann")
    record_match("puskiyon", [ann, "easy", "strong", "normal"], [10, 20, 30, 40])
    assert {row.name for row in game_ratings(game="puskiyon") if row.is_bot} == {"Easy bot", "Normal bot",
                                                                                 "Strong bot"}
    client = client_for(ann)
    page = client.get(reverse("ratings"), {"game": "puskiyon"}).content.decode()
    levels = re.findall(r'<tr class="house" data-bot-level="(\w+)"[^>]*>\s*<td class="num">\d*</td>\s*'
                        r'<th scope="row">([^<]*)</th>', page)
    assert sorted(levels) == [("easy", "Easy bot"), ("normal", "Normal bot"), ("strong", "Strong bot")]
    german = client.get(reverse("ratings"), {"game": "puskiyon"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Leichter Bot" in german and "Mittlerer Bot" in german and "Starker Bot" in german
    assert "Easy bot" not in german


def test_the_standings_list_the_house_by_bot_level_and_its_lines_still_sum_to_the_bots_entries(make_member) -> None:
    """Sheepshead's standings come from the ledger: a bot's entries are put under its seat's level (its own, else
    its table's). Two tables: one of easy bots, one where a seat played strong."""
    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    easy = finished_table("sheepshead", [ann], bots=4)
    mixed = finished_table("sheepshead", [ben], bots=4)
    Seat.objects.filter(table=mixed, position__in=[1, 2]).update(bot_level=Table.BotLevel.STRONG)
    rows = standings(game="sheepshead")
    house = [(row.bot_level, row.name, row.hands, row.total) for row in rows if row.house]
    entries = LedgerEntry.objects.filter(game="sheepshead", is_bot=True)
    strong = sum(e.amount for e in entries.filter(round__match__table=mixed, seat__in=[1, 2]))
    assert house == [("easy", "Easy bot", 2, sum(e.amount for e in entries) - strong),
                     ("strong", "Strong bot", 1, strong)]
    assert sum(row.total for row in rows) == 0  # still zero-sum: the house is split, nothing is lost
    page = client_for(ann).get(reverse("standings"), {"game": "sheepshead"}).content.decode()
    assert re.findall(r'<tr class="house" data-bot-level="(\w+)">', page) == ["easy", "strong"]
    german = client_for(ann).get(reverse("standings"), {"game": "sheepshead"},
                                 HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Leichter Bot" in german and "Starker Bot" in german
    assert easy.status == Table.Status.RUNNING  # the first round is over; the match goes on
