"""Every path that ends a running table's match tells the features once, inside the transaction that ends it:
the natural end of the last round, the last member leaving, the clock closing a table nobody is at, and the
admin's closing. A table that never started (open) ends no match and sends nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from tables.models import Match, Round, Table
from tables.play import pace
from tables.play.services import clock
from tables.play.services.admin_actions import close_table
from tables.play.services.tables import create_table, leave_table
from tables.play.signals import match_ended
from tests.tables.helpers import current_round, full_table, watching
from tests.tables.ledger_support import play_until_round_over
from tests.tables.play.table_life import a_member_moves, close_page, due, fake_time, seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended() -> Iterator[list[dict[str, Any]]]:
    """Every `match_ended` sent during the test, with what the receiver could see of the table then."""
    sent: list[dict[str, Any]] = []

    def receive(sender: Any, **kwargs: Any) -> None:
        sent.append({**kwargs, "sender": sender, "status": kwargs["table"].status,
                     "positions": [s.position for s in kwargs["seats"]]})

    match_ended.connect(receive, dispatch_uid="test-match-ended")
    try:
        yield sent
    finally:
        match_ended.disconnect(dispatch_uid="test-match-ended")


def test_the_last_round_of_a_match_sends_it_once_as_played(make_member, ended) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)
    play_until_round_over(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert len(ended) == 1
    sent = ended[0]
    assert sent["ending"] == "played" and sent["table"].pk == table.pk and sent["sender"] is Match
    assert sent["match"].over and sent["match"].state["number"] == 1  # the engine's match after the last round
    assert sent["positions"] == [0, 1, 2, 3] and sent["now"] == current_round(table).finished_at


def test_a_round_that_does_not_end_the_match_sends_nothing(make_member, ended) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=2)
    play_until_round_over(table)
    assert ended == []


def test_the_last_member_leaving_closes_the_match_once(make_member, ended) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2, rounds=3)
    play_until_round_over(table)  # one round finished; the second is dealt when both are ready (or not at all)
    leave_table(table_id=table.pk, user=bob)
    assert ended == []  # alice is still there
    leave_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert [e["ending"] for e in ended] == ["closed"]
    assert ended[0]["now"] == table.finished_at


def test_leaving_when_the_bots_then_finish_the_last_round_sends_played_once_not_closed_too(make_member,
                                                                                          ended) -> None:
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)
    a_member_moves(table, {0: alice}, random.Random(3))  # a match a member played in (else it counts for nothing)
    leave_table(table_id=table.pk, user=alice)  # the bots finish the only round: the match is played out
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert [e["ending"] for e in ended] == ["played"]


def test_the_clock_closing_a_table_everyone_left_sends_it_once(make_member, settings, monkeypatch, ended) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    settings.TABLE_OFFLINE_CLOSE_MINUTES = 0.3
    time = fake_time(monkeypatch)
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=2)
    watching(table, alice)
    close_page(table, alice)
    closing_time = seat_of(table, alice).gone_at + pace.close_after()
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        clock.advance(table_id=table.pk, now=time.to(due(table)))
    assert table.status == Table.Status.ABANDONED and time.now == closing_time
    assert [e["ending"] for e in ended] == ["closed"]
    assert not clock.advance(table_id=table.pk, now=time.to(time.now + timedelta(hours=1)))
    assert len(ended) == 1


def test_the_admin_closing_a_running_table_sends_it_once_and_an_open_table_sends_nothing(make_member,
                                                                                        ended) -> None:
    boss, alice, bob = make_member("boss", is_staff=True), make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice], bots=3, rounds=2)
    close_table(table_id=table.pk, admin=boss, reason="testing")
    assert [(e["ending"], e["table"].pk, e["status"]) for e in ended] == [("closed", table.pk, "abandoned")]
    waiting = create_table(creator=bob, game="hawk", players=4)
    close_table(table_id=waiting.pk, admin=boss, reason="nobody came")
    assert len(ended) == 1


def test_a_receiver_that_fails_rolls_the_end_of_the_match_back(make_member) -> None:
    """Sent with `send` inside the transaction: the round, its match and its table stay as they were."""
    alice = make_member("alice")
    table = full_table("hawk", [alice], bots=3, rounds=1)

    def refuse(sender: Any, **kwargs: Any) -> None:
        raise RuntimeError("the result could not be recorded")

    match_ended.connect(refuse, dispatch_uid="test-refuse")
    try:
        with pytest.raises(RuntimeError, match="could not be recorded"):
            play_until_round_over(table)
    finally:
        match_ended.disconnect(dispatch_uid="test-refuse")
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    rnd = Round.objects.get(match__table=table)
    assert not rnd.over and rnd.result is None
    assert not Match.objects.get(table=table).over
