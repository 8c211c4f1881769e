"""The club's rule for a member who is away (issue 41; README, "When a member is away"): the bot finishes the
round in which they went away, in their name; every round dealt while they are away (left, or shown offline) is the
house's in their seat, whether or not they come back during it; back between rounds, they play from the next round
and are told what was played for them. The other members may wait a while for them, or go on with the bot; nobody
choosing is going on."""

from __future__ import annotations

import html
import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from tables.models import LedgerEntry, Move, Seat, Table
from tables.play import member_actions
from tables.play.rendering import render_board
from tables.play.services import clock, play
from tables.play.services.errors import IllegalPlay, TableError
from tables.play.services.play import NEXT_ROUND_PAUSE, WAIT_FOR_AWAY
from tables.play.services.tables import join_table, leave_table
from tests.tables.away_support import pair_at_sheepshead, play_out, until_moved
from tests.tables.helpers import client_for, current_round
from tests.tables.play.table_life import close_page, fake_time, open_page

pytestmark = pytest.mark.django_db


def board_text(table: Table, user: User) -> str:
    table.refresh_from_db()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", render_board(table, user))).split())


def away_from(table: Table, user: User) -> int | None:
    return Seat.objects.get(table=table, user=user).away_from


def ready(table: Table, user: User) -> None:
    table.refresh_from_db()
    play.ready_for_next_round(table_id=table.pk, user=user, expected_version=table.version)


def choose(table: Table, user: User, kind: str) -> None:
    table.refresh_from_db()
    member_actions.act(kind=kind, table_id=table.pk, user=user, fields={"version": str(table.version)})


def test_a_member_who_leaves_has_their_round_finished_then_the_house_plays_their_seat_until_they_are_back(
        make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(3)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    first = current_round(table)
    leave_table(table_id=table.pk, user=bob)
    assert away_from(table, bob) == 1
    play_out(table, {0: alice}, rng, time)
    assert LedgerEntry.objects.get(round=first, seat=1).member == bob  # the round he left is his, as before

    ready(table, alice)  # Bob is away: nobody else to wait for, the next round is dealt at once
    second = current_round(table)
    assert (second.number, second.house_seats) == (2, [1])

    join_table(table_id=table.pk, user=bob)  # back during round 2: the house keeps the seat until it ends
    table.refresh_from_db()
    with pytest.raises(IllegalPlay, match="the house plays your seat"):
        play.play_move(table_id=table.pk, user=bob, move_text="pass", expected_version=table.version)
    text = board_text(table, bob)
    assert "While you were away" in text
    assert "The house plays your seat in this round, dealt while you were away" in text
    assert "Round 1: the bot played for you; its result" in text
    second = play_out(table, {0: alice}, rng, time)

    house = LedgerEntry.objects.get(round=second, seat=1)
    assert (house.member, house.is_bot, house.label) == (None, True, "House (Bob's seat)")
    assert house.amount == second.result["deltas"][1]
    assert not LedgerEntry.objects.filter(round=second, member=bob).exists()
    house_moves = Move.objects.filter(round=second, seat=1)
    assert house_moves.exists() and {m.actor for m in house_moves} == {Move.Actor.HOUSE}
    assert "(played by the house in Bob's seat)" in board_text(table, alice)
    assert sum(LedgerEntry.objects.filter(round=second).values_list("amount", flat=True)) == 0

    ready(table, alice)
    ready(table, bob)
    third = current_round(table)
    assert (third.number, third.house_seats) == (3, [])  # his again from the round after he came back
    text = board_text(table, bob)
    assert "Round 2: the house played your seat; its result" in text and "is the house's, not yours" in text
    assert "While you were away" not in board_text(table, alice)

    table.refresh_from_db()
    play.away_report_seen(table_id=table.pk, user=bob)
    assert away_from(table, bob) is None
    assert "While you were away" not in board_text(table, bob)


def test_a_member_who_closed_the_page_is_waited_for_when_the_others_choose_and_plays_on_when_back(
        make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(5)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    close_page(table, bob)
    first = play_out(table, {0: alice}, rng, time)  # the bot plays Bob's turns once his grace is over
    assert Seat.objects.get(table=table, user=bob).offline_since is not None and away_from(table, bob) == 1
    text = board_text(table, alice)
    assert "Wait for Bob" in text and "Go on with the bot" in text

    choose(table, alice, member_actions.WAIT)
    first.refresh_from_db()
    assert first.wait_until == first.deadline == first.finished_at + WAIT_FOR_AWAY
    assert "Waiting for Bob" in board_text(table, alice)
    ready(table, alice)
    assert current_round(table).number == 1  # everyone here is ready, but the table waits for Bob
    Table.objects.filter(pk=table.pk).update(due_at=first.finished_at + NEXT_ROUND_PAUSE)  # the usual pause's end
    clock.advance(table_id=table.pk, now=time.to(first.finished_at + NEXT_ROUND_PAUSE + timedelta(seconds=1)))
    assert current_round(table).number == 1

    time.to(first.finished_at + timedelta(minutes=1))
    open_page(table, bob)  # back between rounds
    assert current_round(table).number == 1  # he has not said he is ready yet
    assert "While you were away" in board_text(table, bob)
    ready(table, bob)
    second = current_round(table)
    assert (second.number, second.house_seats) == (2, [])
    assert "Round 1: the bot played for you; its result" in board_text(table, bob)


@pytest.mark.parametrize("choice", ["nobody", "wait, then nothing", "wait, then go on"])
def test_without_the_member_back_the_next_round_is_the_houses_in_their_seat(make_member, monkeypatch,
                                                                           choice) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(8)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    close_page(table, bob)
    first = play_out(table, {0: alice}, rng, time)
    if choice.startswith("wait"):
        choose(table, alice, member_actions.WAIT)
    if choice == "wait, then go on":
        choose(table, alice, member_actions.GO_ON)  # Alice is ready by it, and nobody else is here: dealt at once
        assert current_round(table).number == 2
    else:
        table.refresh_from_db()
        deal_at = first.finished_at + (WAIT_FOR_AWAY if choice.startswith("wait") else NEXT_ROUND_PAUSE)
        assert table.due_at == deal_at
        clock.advance(table_id=table.pk, now=time.to(deal_at))
    second = current_round(table)
    assert (second.number, second.house_seats) == (2, [1])
    assert Seat.objects.get(table=table, user=bob).away_from == 1


def test_waiting_is_refused_when_nobody_is_away_or_the_round_is_on(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(2)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    with pytest.raises(TableError, match="no next round to wait for"):
        choose(table, alice, member_actions.WAIT)
    play_out(table, {0: alice, 1: bob}, rng, time)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(TableError, match="Nobody is away"):
        choose(table, alice, member_actions.WAIT)
    assert Table.objects.get(pk=table.pk).version == version and current_round(table).wait_until is None


def test_a_member_back_in_the_round_they_went_away_in_is_told_nothing(make_member, monkeypatch) -> None:
    """A page closed and opened again before the bot played for them: nothing was played in their name."""
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(4)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    close_page(table, bob)
    Table.objects.filter(pk=table.pk).update(due_at=time.now + timedelta(seconds=3))
    clock.advance(table_id=table.pk, now=time.to(time.now + timedelta(seconds=3)))  # shown offline
    assert away_from(table, bob) == 1
    open_page(table, bob)
    assert away_from(table, bob) is None


def test_the_choice_and_closing_the_report_go_by_post_too(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, table = pair_at_sheepshead(make_member)
    rng = random.Random(6)
    until_moved(table, bob, {0: alice, 1: bob}, rng, time)
    leave_table(table_id=table.pk, user=bob)
    first = play_out(table, {0: alice}, rng, time)
    table.refresh_from_db()
    url = reverse("away_choice", args=[table.code])
    refused = client_for(alice).post(url, {"kind": "dance", "version": table.version}, HTTP_HX_REQUEST="true")
    assert refused.status_code >= 400 and "not something a member does" in refused.content.decode()
    answer = client_for(alice).post(url, {"kind": "wait", "version": table.version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Waiting for Bob" in html.unescape(answer.content.decode())
    first.refresh_from_db()
    assert first.wait_until is not None
    join_table(table_id=table.pk, user=bob)
    assert "While you were away" in board_text(table, bob)
    seen = client_for(bob).post(reverse("away_seen", args=[table.code]), HTTP_HX_REQUEST="true")
    assert seen.status_code == 200 and "While you were away" not in seen.content.decode()
    assert away_from(table, bob) is None
