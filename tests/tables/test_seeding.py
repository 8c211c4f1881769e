"""`manage.py seed`: demo members and a practice table per game, idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import User
from rules.engine.registry import GAME_KEYS
from tables.models import Table
from tables.play.services.tables import create_table, join_table
from tables.seeding import DEMO_TABLE_NAME, seed_members, seed_open_tables
from tests.tables.helpers import seat_to_act

pytestmark = pytest.mark.django_db


def test_seed_twice_loads_everything_once() -> None:
    call_command("seed")
    call_command("seed")
    assert User.objects.filter(is_staff=True).count() == 1
    assert User.objects.count() == 7
    assert User.objects.get(username="alice").check_password("cardclub-demo")
    practice = Table.objects.filter(name=DEMO_TABLE_NAME, status=Table.Status.OPEN)
    assert sorted(practice.values_list("game", flat=True)) == sorted(GAME_KEYS)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_newcomer_sits_at_a_practice_table_and_plays_against_bots_at_once(make_member, game) -> None:
    seed_members()
    seed_open_tables()
    table = Table.objects.get(name=DEMO_TABLE_NAME, game=game)
    join_table(table_id=table.pk, user=make_member("newcomer"))
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    assert seat_to_act(table) == 0  # the bots have played up to the newcomer's turn
    seed_open_tables()
    assert Table.objects.filter(name=DEMO_TABLE_NAME, game=game, status=Table.Status.OPEN).count() == 1


def test_the_practice_tables_are_the_clubs_and_leave_staff_their_own_open_tables() -> None:
    """The demo's four open tables once counted as the first staff member's, whose open-table share (three) they
    more than used up: the treasurer could not open a table on a fresh `make run`."""
    call_command("seed")
    treasurer = User.objects.get(username="treasurer")
    Table.objects.filter(name=DEMO_TABLE_NAME).update(created_by=treasurer)  # a demo database seeded before
    call_command("seed")
    assert not Table.objects.filter(name=DEMO_TABLE_NAME, created_by__isnull=False).exists()
    table = create_table(creator=treasurer, game="hawk", players=4)
    assert table.status == Table.Status.OPEN and table.created_by == treasurer
