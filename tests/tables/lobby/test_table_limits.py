"""One member's tables are limited (issue 39, lobby spam and table churn): at most TABLES_OPEN_PER_MEMBER waiting for
players, and at most TABLE_STARTS_PER_MEMBER started in any TABLE_STARTS_WINDOW_MINUTES, counted from the
database. A refusal says why (and, for the rate, when the member may start again) and writes nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from html import escape

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import QueueRequest, Seat, Table
from tables.play.services.table_limits import TooManyTables
from tables.play.services.tables import create_table, leave_table
from tables.quickplay.services.matchmaking import enqueue
from tests.tables.helpers import client_for, new_table_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.TABLES_OPEN_PER_MEMBER = 3
    settings.TABLE_STARTS_PER_MEMBER = 4
    settings.TABLE_STARTS_WINDOW_MINUTES = 10
    return settings


def bot_table_and_leave(member) -> Table:
    """The churn's one step: a table full of bots, started at once, and left before a move."""
    table = create_table(creator=member, game="hawk", players=4, fill_with_bots=True)
    leave_table(table_id=table.pk, user=member)
    return table


def test_a_fourth_open_table_is_refused_and_nothing_is_written(limits, make_member) -> None:
    alice = make_member("alice")
    for _ in range(3):
        create_table(creator=alice, game="hawk", players=4)
    tables, seats = Table.objects.count(), Seat.objects.count()
    with pytest.raises(TooManyTables, match="You already have 3 tables waiting for players"):
        create_table(creator=alice, game="hawsker", players=2, private=True)  # private tables count too
    assert (Table.objects.count(), Seat.objects.count()) == (tables, seats)
    create_table(creator=make_member("bob"), game="hawk", players=4)  # another member is not held back


def test_an_open_table_left_and_closed_no_longer_counts(limits, make_member) -> None:
    limits.TABLE_STARTS_PER_MEMBER = 0  # the open tables alone
    alice = make_member("alice")
    tables = [create_table(creator=alice, game="hawk", players=4) for _ in range(3)]
    leave_table(table_id=tables[0].pk, user=alice)  # nobody is left at it: it closes, and holds no place
    create_table(creator=alice, game="hawk", players=4)
    with pytest.raises(TooManyTables):
        create_table(creator=alice, game="hawk", players=4)


def test_starting_tables_full_of_bots_is_limited_by_a_sliding_window(limits, make_member, monkeypatch) -> None:
    alice = make_member("alice")
    start = timezone.now()
    clock = [start]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    for minute in range(4):
        clock[0] = start + timedelta(minutes=minute)
        bot_table_and_leave(alice)
    clock[0] = start + timedelta(minutes=5)
    tables = Table.objects.count()
    with pytest.raises(TooManyTables) as refused:
        create_table(creator=alice, game="hawk", players=4, fill_with_bots=True)
    message = str(refused.value)
    assert "You have started 4 tables in the last 10 minutes" in message
    # The oldest of the four leaves the window at start + 10 min: 5 minutes from "now".
    frees_at = timezone.localtime(start + timedelta(minutes=10)).strftime("%H:%M")
    assert f"at {frees_at} (in about 5 minutes)" in message
    assert Table.objects.count() == tables
    clock[0] = start + timedelta(minutes=10, seconds=1)  # the first has left the window
    bot_table_and_leave(alice)
    with pytest.raises(TooManyTables):
        bot_table_and_leave(alice)


def test_staff_are_held_to_the_same_limits(limits, make_member) -> None:
    boss = make_member("boss", is_staff=True, is_superuser=True)
    for _ in range(4):
        bot_table_and_leave(boss)
    with pytest.raises(TooManyTables):
        bot_table_and_leave(boss)


def test_zero_turns_a_limit_off(limits, make_member) -> None:
    limits.TABLES_OPEN_PER_MEMBER = 0
    limits.TABLE_STARTS_PER_MEMBER = 0
    alice = make_member("alice")
    for _ in range(6):
        create_table(creator=alice, game="hawk", players=4)
    assert Table.objects.filter(created_by=alice).count() == 6


def test_quick_play_with_bots_counts_as_starting_a_table(limits, make_member) -> None:
    alice = make_member("alice")
    for _ in range(4):
        bot_table_and_leave(alice)
    with pytest.raises(TooManyTables, match="as many as the club allows"):
        enqueue(user=alice, game="hawk", players=4, bots_after_seconds=30)
    assert not QueueRequest.objects.filter(user=alice).exists()
    enqueue(user=alice, game="hawk", players=4)  # waiting for members only starts nothing on its own


def test_the_lobby_form_shows_the_refusal_and_writes_nothing(limits, make_member) -> None:
    alice = make_member("alice")
    client = client_for(alice)
    waiting = {k: v for k, v in new_table_data("hawk").items() if k != "fill_with_bots"}  # unticked: tables wait
    for _ in range(3):
        assert client.post(reverse("create_table"), waiting).status_code == 302
    tables = Table.objects.count()
    answer = client.post(reverse("create_table"), waiting)
    assert answer.status_code == 400
    form = re.search(r'<form id="new-table".*?</form>', answer.content.decode(), re.S).group(0)
    assert 'role="alert"' in form
    assert escape("You already have 3 tables waiting for players") in form
    assert Table.objects.count() == tables


def test_the_lobby_form_says_when_the_member_may_start_again(limits, make_member) -> None:
    alice = make_member("alice")
    for _ in range(4):
        bot_table_and_leave(alice)
    data = {**new_table_data("hawk"), "fill_with_bots": "on"}
    answer = client_for(alice).post(reverse("create_table"), data)
    assert answer.status_code == 400
    assert "you may start another at" in answer.content.decode()
    assert Table.objects.filter(created_by=alice).count() == 4
