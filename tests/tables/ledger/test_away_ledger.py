"""The ledger, results and ratings when a member is away (issue 41; README, "When a member is away"): the round a
member went away in is theirs (the bot finished it in their name); the rounds dealt while they were away are the
house's in their seat: no entry of theirs, the house's entry instead, and the books balance. A member who played
no more than half of a match's rounds themselves has no place in its result and no rating change from it."""

from __future__ import annotations

import random

import pytest

from tables.ledger.selectors import member_history, standings
from tables.models import LedgerEntry, MatchPlace, MatchResult, Rating, RatingChange, Round, Table
from tables.play.services import play
from tables.play.services.tables import join_table, leave_table
from tables.treasury.services.books import check_books
from tests.tables.away_support import pair_at_sheepshead, play_out, until_moved
from tests.tables.helpers import current_round
from tests.tables.play.table_life import fake_time

pytestmark = pytest.mark.django_db


def ready(table: Table, *members) -> None:
    for member in members:
        table.refresh_from_db()
        if current_round(table).over and table.status == Table.Status.RUNNING:
            play.ready_for_next_round(table_id=table.pk, user=member, expected_version=table.version)


def test_house_rounds_are_the_houses_in_the_ledger_and_a_member_away_most_of_the_match_is_not_ranked_nor_rated(
        make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member, rounds=4)
    rng = random.Random(11)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    leave_table(table_id=table.pk, user=bob)  # in round 1: the bot finishes it in his name
    play_out(table, {0: alice}, rng, time)
    for _ in (2, 3):  # two rounds dealt while he is away: the house's in his seat
        ready(table, alice)
        play_out(table, {0: alice}, rng, time)
    join_table(table_id=table.pk, user=bob)  # back between rounds: round 4 is his
    ready(table, alice, bob)
    play_out(table, {0: alice, 1: bob}, rng, time)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED

    rounds = {r.number: r for r in Round.objects.filter(match__table=table)}
    assert {n: r.house_seats for n, r in rounds.items()} == {1: [], 2: [1], 3: [1], 4: []}
    bobs = LedgerEntry.objects.filter(member=bob)
    assert sorted(bobs.values_list("round__number", flat=True)) == [1, 4]  # none for the house's rounds
    assert sorted(row.entry.round.number for row in member_history(user=bob).rows) == [1, 4]
    house = LedgerEntry.objects.filter(seat=1, round__number__in=[2, 3]).order_by("round__number")
    assert [(e.member_id, e.is_bot, e.label) for e in house] == [(None, True, "House (Bob's seat)")] * 2
    assert [e.amount for e in house] == [rounds[2].result["deltas"][1], rounds[3].result["deltas"][1]]
    for rnd in rounds.values():  # every round still balances, the house paying or paid in Bob's seat
        assert sum(LedgerEntry.objects.filter(round=rnd).values_list("amount", flat=True)) == 0
    books = check_books()
    assert books.ok, books.differences

    lines = {line.member_id: line for line in standings(game="sheepshead")}
    assert lines[bob.pk].hands == 2 and lines[bob.pk].total == sum(bobs.values_list("amount", flat=True))

    # Two of four rounds his own is no majority: the seat's place is the house's, and Bob is not rated for it.
    result = MatchResult.objects.get(match__table=table)
    assert [(p.seat, p.user_id, p.bot) for p in result.places.order_by("seat")] == [
        (0, alice.pk, ""), (1, None, "easy"), (2, None, "easy"), (3, None, "easy"), (4, None, "easy")]
    assert not MatchPlace.objects.filter(user=bob).exists()
    assert not Rating.objects.filter(user=bob).exists()
    assert RatingChange.objects.filter(result=result, rating__user=alice).count() == 1
