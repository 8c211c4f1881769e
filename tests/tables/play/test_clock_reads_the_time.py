"""Each step of the table clock's pass reads the time when it runs (issue 40, item 2).

A pass reads the time once to find what is due; what each table's step writes (the next turn's deadline, the bot's
pace, the round's times) is from the moment that step runs. Before, every step of a pass used the time the pass
began: a pass held up 55 s (a long step or search before it, a lock wait) left the member after the bot 5 s of a
60 s turn, and the next bot's pace started in the past."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.models import Table
from tables.play import pace
from tables.play.services import clock, play
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.play.table_life import FakeTime, due, fake_time, moves_at

pytestmark = pytest.mark.django_db

LATE = timedelta(seconds=55)


@pytest.fixture(autouse=True)
def _paced(settings, monkeypatch) -> None:
    settings.TABLE_BOT_SPEED = "normal"
    monkeypatch.setattr(clock, "_stale_swept_at", None)


def bot_to_act(make_member, name: str, time: FakeTime) -> Table:
    """A Hawk table of one member and three easy bots at normal pace, the member's page open, a bot to act."""
    member = make_member(name)
    table = full_table("hawk", [member], bots=3)
    watching(table, member)
    for _ in range(10):
        if seat_to_act(table) not in (0, None):
            return table
        clock.advance(table_id=table.pk, now=time.to(max(time.now, due(table))))  # her time runs out: a bot's turn
    raise AssertionError("no bot came to act")


def test_a_step_after_a_long_one_in_the_same_pass_stamps_the_time_it_runs(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    first, second = bot_to_act(make_member, "alice", time), bot_to_act(make_member, "bob", time)
    start = time.to(max(time.now, due(first), due(second)) + timedelta(seconds=1))  # both bots' pace has come
    Table.objects.filter(pk=first.pk).update(due_at=start - timedelta(seconds=2))  # the first is first in the pass
    Table.objects.filter(pk=second.pk).update(due_at=start - timedelta(seconds=1))
    real_load = play.Live.load.__func__

    def load_then_hold_up(cls, table, seats=None, now=None):  # the first table's step takes 55 s
        live = real_load(cls, table, seats, now)
        if table.pk == first.pk:
            time.to(time.now + LATE)
        return live

    monkeypatch.setattr(play.Live, "load", classmethod(load_then_hold_up))
    before = moves_at(second).count()

    clock.sweep(now=start)

    assert moves_at(second).count() == before + 1  # the bot moved
    rnd = current_round(second)
    assert rnd.moved_at == start + LATE  # its move is stamped when it was made
    assert rnd.deadline == start + LATE + timedelta(seconds=second.turn_seconds)  # a whole turn from then
    assert due(second) >= start + LATE + pace.delay("normal", closed_trick=False)  # the next bot's pace from then


def test_a_pass_that_reads_an_old_time_still_gives_the_next_turn_its_whole_time(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    table = bot_to_act(make_member, "alice", time)
    pass_began = time.to(max(time.now, due(table)))
    time.to(pass_began + LATE)  # the pass began (and read the time) 55 s ago

    clock.sweep(now=pass_began)

    rnd = current_round(table)
    assert rnd.moved_at == pass_began + LATE
    assert rnd.deadline == pass_began + LATE + timedelta(seconds=table.turn_seconds)
