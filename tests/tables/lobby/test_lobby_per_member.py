"""The lobby never lets one member's tables hide everyone else's (issue 39: 110 open tables by one member pushed every
real table out of the lobby's hundred): it lists at most LOBBY_TABLES_PER_MEMBER tables of one creator."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.lobby.selectors import LOBBY_SIZE, lobby_tables
from tables.models import Seat, Table
from tables.play.services.tables import create_table
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


def spam(creator, count: int) -> list[Table]:
    """`count` open public tables of `creator`, written directly (as many as an attacker made before the limits)."""
    tables = Table.objects.bulk_create(
        [Table(game="hawk", name=f"spam {n}", seat_count=4, created_by=creator) for n in range(count)])
    Seat.objects.bulk_create([Seat(table=t, position=p, user=creator if p == 0 else None)
                              for t in tables for p in range(4)])
    return tables


def test_a_hundred_and_ten_tables_of_one_member_do_not_push_out_another_members_table(make_member, settings) -> None:
    settings.LOBBY_TABLES_PER_MEMBER = 5
    bob = make_member("bob")
    real = create_table(creator=bob, game="hawsker", players=2)  # the oldest: last in the lobby's order
    spam(make_member("mallory"), LOBBY_SIZE + 10)
    listed = list(lobby_tables())
    assert real in listed
    assert sum(1 for t in listed if t.created_by.username == "mallory") == 5
    page = client_for(make_member("carol")).get(reverse("lobby")).content.decode()
    assert f'data-table="{real.code}"' in page
    fragment = client_for(bob).get(reverse("lobby_tables")).content.decode()
    assert f'data-table="{real.code}"' in fragment


def test_the_newest_of_a_members_tables_are_the_ones_listed(make_member, settings) -> None:
    settings.LOBBY_TABLES_PER_MEMBER = 2
    tables = spam(make_member("mallory"), 4)
    start = timezone.now()
    for minutes, table in zip([3, 0, 2, 1], tables, strict=True):
        Table.objects.filter(pk=table.pk).update(created_at=start - timedelta(minutes=minutes))
    assert {t.pk for t in lobby_tables()} == {tables[1].pk, tables[3].pk}


def test_many_members_each_under_the_cap_fill_the_lobby_as_before(make_member, settings) -> None:
    settings.LOBBY_TABLES_PER_MEMBER = 5
    for n in range(3):
        spam(make_member(f"m{n}"), 4)
    assert len(list(lobby_tables())) == 12


def test_zero_lists_every_table(make_member, settings) -> None:
    settings.LOBBY_TABLES_PER_MEMBER = 0
    spam(make_member("mallory"), 12)
    assert len(list(lobby_tables())) == 12
