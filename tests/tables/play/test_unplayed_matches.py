"""A match in which no member ever moved counts for nothing (issue 39, table churn: "create a table full of bots,
leave" in a loop wrote 518 rated matches and 3,621 ledger entries a minute). Until a member has moved in a match,
a round that ends is voided by the club itself: no result, no ledger entries, no step of the match; a match of only
such rounds has no result, so nobody is rated and history and standings do not count it. The books still check
clean. From a member's first move on, rounds are paid as before, bots' and stand-ins' moves included."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from rules.engine.api import Match as EngineMatch
from tables.ledger.selectors import member_history, member_matches, standings
from tables.models import LedgerEntry, Match, MatchResult, Move, Rating, RatingChange, Round, Table
from tables.play.services import clock
from tables.play.services.play import UNPLAYED
from tables.play.services.tables import create_table, leave_table
from tables.treasury.services.books import check_books
from tests.tables.helpers import client_for, current_round, watching
from tests.tables.play.table_life import a_member_moves, due, fake_time, member_to_act, moves_at, open_page, play_member

pytestmark = pytest.mark.django_db


def assert_counts_for_nothing(rnd: Round) -> None:
    rnd.refresh_from_db()
    assert rnd.over and rnd.result is None and rnd.voided_at is not None
    assert rnd.voided_by is None and rnd.void_reason == UNPLAYED  # the club's rule, not an admin
    assert not LedgerEntry.objects.filter(round=rnd).exists()


@pytest.mark.parametrize(("game", "players", "speed"), [
    ("sheepshead", 5, "instant"), ("hawk", 4, "normal"), ("hawsker", 2, "instant"), ("puskiyon", 4, "brisk")])
def test_a_table_full_of_bots_left_before_a_move_leaves_no_result_entries_or_rating(
        make_member, game, players, speed) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game=game, players=players, fill_with_bots=True, bot_speed=speed)
    watching(table, alice)
    opened = moves_at(table).count()  # at an instant table the bots open the round up to alice's turn
    leave_table(table_id=table.pk, user=alice)

    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert_counts_for_nothing(current_round(table))
    assert moves_at(table).count() == opened  # no bot plays on for nobody
    assert {m.actor for m in moves_at(table)} <= {Move.Actor.BOT}
    assert EngineMatch.from_json(Match.objects.get(table=table).state).number == 0
    assert not LedgerEntry.objects.exists()
    assert not MatchResult.objects.exists()
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not member_history(user=alice).rows and not member_matches(user=alice)
    assert not standings(game=game)
    books = check_books()
    assert books.ok, books.differences
    page = client_for(alice).get(reverse("table", args=[table.code]))
    assert page.status_code == 200 and "voided by the club" in page.content.decode()


def test_bots_standing_in_for_a_member_who_never_moved_pay_nobody_until_the_member_moves(
        make_member, settings, monkeypatch) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    time = fake_time(monkeypatch)
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, fill_with_bots=True)  # her page never opens
    first = current_round(table)
    for _ in range(500):
        if current_round(table).over:
            break
        clock.advance(table_id=table.pk, now=time.to(due(table)))
    assert Move.Actor.ABSENT in {m.actor for m in first.moves.all()}  # the bot played her seat
    assert_counts_for_nothing(first)
    match = Match.objects.get(table=table)
    assert EngineMatch.from_json(match.state).number == 0 and match.sheet == []  # no step of the match

    for _ in range(50):  # the next round comes after the usual pause
        if current_round(table).number == 2:
            break
        clock.advance(table_id=table.pk, now=time.to(due(table)))
    second = current_round(table)
    assert second.number == 2 and not second.over
    open_page(table, alice)
    rng = random.Random(7)
    a_member_moves(table, {0: alice}, rng, time)
    for _ in range(500):
        if current_round(table).over:
            break
        member = member_to_act(table, {0: alice})
        if member is not None:
            play_member(table, member, rng)
        else:
            clock.advance(table_id=table.pk, now=time.to(due(table)))
    second.refresh_from_db()
    assert second.over and second.voided_at is None and second.result is not None
    assert LedgerEntry.objects.filter(round=second).count() == 4
    assert not LedgerEntry.objects.filter(round=first).exists()
    assert EngineMatch.from_json(Match.objects.get(table=table).state).number == 1
    books = check_books()
    assert books.ok, books.differences


def test_a_member_who_moved_and_left_is_settled_as_before(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, fill_with_bots=True, bot_speed="instant")
    watching(table, alice)
    a_member_moves(table, {0: alice}, random.Random(1))
    leave_table(table_id=table.pk, user=alice)
    rnd = current_round(table)
    assert rnd.over and rnd.voided_at is None
    assert LedgerEntry.objects.filter(round=rnd).count() == 4
    assert MatchResult.objects.filter(table=table).count() == 1
    assert RatingChange.objects.filter(result__table=table).exists()
    assert check_books().ok
