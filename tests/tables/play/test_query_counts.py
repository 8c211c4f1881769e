"""The lobby, a table page and a move cost a fixed number of queries, however much the club holds.

Each page is measured on a small database, then again after hundreds more tables, members and finished
rounds (the table's own past rounds included) were added in bulk, and both times the count must be exactly
the same number: a query per row (an N+1) anywhere on these paths fails here before it slows the club down.
The cache (sessions), the kept boards and the kept snapshots are emptied before each measurement, so the
counts are those of a board rendered from the database for a session read from it, at a table whose version
this process did not make (a kept board, a cached session or the snapshot of a version made here costs fewer:
the warm counts are pinned beside the cold ones).
The bench does the same at full size (10,000 finished rounds): see bench/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bench.history import bulk_finished_history, bulk_members
from tables.models import Round, Seat, Table
from tables.play import snapshots
from tables.play.rendering import forget_boards
from tables.play.services import clock
from tables.play.services.tables import add_bot, create_table, join_table
from tests.tables.helpers import current_round, legal_for, seat_to_act, watching

# Exact counts, the same on a small and a large database. If a change makes one of these paths cheaper,
# lower the number; if it must cost more, say why in the change, and keep it independent of the data.
# 9, one for the member's invitations (tables/invitations: read and marked in one query) and 2 the lobby chat's:
# its latest lines (one query, mutes in it) and the member's mutes; 1 more since issue 39: whether the member plays
# a round, since when (the lobby's lines written since then wait for its end)
LOBBY_QUERIES = 13
# 4 of them the table chat's: is the member seated, the round in play, the latest lines, the member's mutes
TABLE_PAGE_QUERIES = 10  # the timeout notice reads the round's move log, not its moves
MOVE_QUERIES = 10  # the table's row is read once, by its code under the lock (11 while the view looked it up first)
# At a version this process made (the usual case: the last move or the bot's was made here), the round and its
# match come from that version's snapshot (tables.play.services.play.Live.load): one query fewer.
MOVE_QUERIES_AFTER_A_VERSION_MADE_HERE = 9
# The table clock's pass that plays one easy bot's move: one query finds the due tables and the soonest after them,
# then the step under the table's lock reads the table, its seats and the round with its match, and writes the
# round, the move and the table, inside BEGIN and COMMIT. Nothing is read before the lock: only a search-level bot
# to act has its move decided off it (tables.play.services.clock).
CLOCK_BOT_PASS_QUERIES = 9
CLOCK_BOT_PASS_QUERIES_AFTER_A_VERSION_MADE_HERE = 8  # the round from the snapshot, as for a move
# A pass with nothing due: that one query, which also says when the next thing is due.
CLOCK_IDLE_PASS_QUERIES = 1


def running_table(first: User, second: User) -> Table:
    """Puskiyon for 4: two members and two bots, dealt, bots played until a member is to act."""
    table = create_table(creator=first, game="puskiyon", players=4, turn_seconds=600)
    join_table(table_id=table.pk, user=second)
    add_bot(table_id=table.pk, user=first)
    add_bot(table_id=table.pk, user=first)
    table.refresh_from_db()
    return table


def add_past_rounds(table: Table, count: int) -> None:
    """`count` finished rounds before the table's current one, with their moves, as if played long ago."""
    current = current_round(table)
    Round.objects.filter(pk=current.pk).update(number=count + 1)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)  # as every change at a table does
    template = Round.objects.get(pk=current.pk)
    Round.objects.bulk_create([
        Round(match_id=template.match_id, number=n + 1, seed=template.seed, salt=template.salt,
              commitment=template.commitment, match_before=template.match_before, state=template.state,
              over=True, result={"deltas": [1, 0, 0, -1], "unit": "points", "summary": {}})
        for n in range(count)
    ])


def grow_the_club(make_member: Callable[..., User]) -> None:
    """Hundreds more rows everywhere the three paths read: members, open and running tables in the lobby,
    finished tables with their matches, rounds and moves."""
    members = bulk_members("crowd-", 200)
    open_tables = Table.objects.bulk_create(
        [Table(game="hawk", seat_count=4, created_by=members[i]) for i in range(120)])
    Seat.objects.bulk_create(
        [Seat(table=t, position=p, user=members[i] if p == 0 else None, is_bot=p == 3)
         for i, t in enumerate(open_tables) for p in range(4)])
    bulk_finished_history(members=members[120:], tables=6, rounds_per_table=50)
    for i in range(3):
        running_table(make_member(f"late{i}a"), make_member(f"late{i}b"))


def member_client(user: User) -> Client:
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_lobby_costs_the_same_with_hundreds_of_tables(make_member, django_assert_num_queries) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    running_table(alice, bob)
    create_table(creator=make_member("carol"), game="hawk", players=4)
    client = member_client(alice)
    with django_assert_num_queries(LOBBY_QUERIES):
        small = client.get("/lobby/")
    assert small.status_code == 200

    grow_the_club(make_member)
    assert Table.objects.count() > 125 and User.objects.count() > 200 and Round.objects.count() > 300
    with django_assert_num_queries(LOBBY_QUERIES):
        large = client.get("/lobby/")
    assert large.status_code == 200
    assert large.content.count(b"free seat") > small.content.count(b"free seat")  # the crowd is really listed


@pytest.mark.django_db
def test_a_table_page_costs_the_same_whatever_its_past(make_member, django_assert_num_queries) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    client = member_client(alice)
    cache.clear()
    forget_boards()
    with django_assert_num_queries(TABLE_PAGE_QUERIES):
        small = client.get(f"/t/{table.code}/")
    assert small.status_code == 200 and b'id="board"' in small.content

    grow_the_club(make_member)
    add_past_rounds(table, 300)
    assert Round.objects.filter(match__table=table).count() == 301
    cache.clear()
    forget_boards()
    with django_assert_num_queries(TABLE_PAGE_QUERIES):
        large = client.get(f"/t/{table.code}/")
    assert large.status_code == 200
    assert b"round 301" in large.content  # the page shows the current round, after the 300 past ones


def first_member_move(table: Table, members: dict[int, User]) -> tuple[User, str]:
    seat = seat_to_act(table)
    assert seat in members, "bots play until a member is to act"
    return members[seat], random.Random(7).choice(legal_for(table, seat))


@pytest.mark.django_db(transaction=True)  # the move commits, as on the site, and leaves its snapshot
def test_a_move_costs_the_same_whatever_the_club_holds(make_member, django_assert_num_queries) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    mover, move = first_member_move(table, {0: alice, 1: bob})
    client = member_client(mover)
    cache.clear()
    forget_boards()
    snapshots.forget_here()
    with django_assert_num_queries(MOVE_QUERIES):
        small = client.post(f"/t/{table.code}/move/", {"move": move, "version": table.version})
    assert small.status_code == 200 and b'id="board"' in small.content

    grow_the_club(make_member)
    carol, dave = make_member("carol"), make_member("dave")
    later = running_table(carol, dave)
    add_past_rounds(later, 300)
    later.refresh_from_db()
    mover, move = first_member_move(later, {0: carol, 1: dave})
    client = member_client(mover)
    cache.clear()
    forget_boards()
    snapshots.forget_here()
    with django_assert_num_queries(MOVE_QUERIES):
        large = client.post(f"/t/{later.code}/move/", {"move": move, "version": later.version})
    assert large.status_code == 200
    later.refresh_from_db()
    assert Round.objects.get(match__table=later, number=301).moves.filter(user=mover).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_at_a_version_made_here_reads_no_round(make_member, django_assert_num_queries) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)  # its last version (the bots' opening moves) was committed here
    assert snapshots.recall_here(table.code, table.version) is not None
    mover, move = first_member_move(table, {0: alice, 1: bob})
    client = member_client(mover)
    cache.clear()
    forget_boards()
    with CaptureQueriesContext(connection) as captured:
        reply = client.post(f"/t/{table.code}/move/", {"move": move, "version": table.version})
    assert reply.status_code == 200 and b'id="board"' in reply.content
    assert len(captured) == MOVE_QUERIES_AFTER_A_VERSION_MADE_HERE, [q["sql"][:80] for q in captured]
    assert not [q for q in captured.captured_queries if 'FROM "tables_round"' in q["sql"]]
    assert Round.objects.get(match__table=table).moves.filter(user=mover).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_movers_own_push_reuses_the_reply_and_no_one_else_gets_it(make_member, django_assert_num_queries) -> None:
    from tables.play.rendering import board_html

    alice, bob = make_member("alice"), make_member("bob")
    table = running_table(alice, bob)
    members = {0: alice, 1: bob}
    mover, move = first_member_move(table, members)
    other = bob if mover == alice else alice
    cache.clear()
    forget_boards()
    reply = member_client(mover).post(f"/t/{table.code}/move/", {"move": move, "version": table.version})
    assert reply.status_code == 200
    table.refresh_from_db()
    with django_assert_num_queries(0):  # what the mover's socket sends: the reply's board, not rendered again
        pushed = board_html(table, mover, oob=True, version_checked=True).html
    assert pushed == reply.content.decode().replace('<section id="board" ',
                                                    '<section id="board" hx-swap-oob="true" ', 1)
    assert 'hx-swap-oob="true"' in pushed and f'data-version="{table.version}"' in pushed
    with django_assert_num_queries(0):  # built from the snapshot the move's transaction left in this process
        theirs = board_html(table, other, oob=True, version_checked=True).html
    assert theirs != pushed and "(you)" in theirs  # rendered for them, from their own seat
    snapshots.forget_here()
    cache.clear()
    forget_boards()
    assert board_html(table, other, oob=True, version_checked=True).html == theirs  # the same from the database
    # a table object that has fallen behind never picks up a cached board of its old version
    stale = Table.objects.get(pk=table.pk)
    stale.version -= 1
    with CaptureQueriesContext(connection) as captured:
        board_html(stale, mover)
    assert len(captured) > 1  # its version was checked and the board rendered from the database


def bot_to_act(first: User, second: User) -> Table:
    """A paced Hawk table of two members and two easy bots, a bot to act (the members' time runs out until one is)."""
    table = create_table(creator=first, game="hawk", players=4, turn_seconds=600, bot_speed="brisk")
    join_table(table_id=table.pk, user=second)
    add_bot(table_id=table.pk, user=first)
    add_bot(table_id=table.pk, user=first)
    watching(table, first, second)  # their pages are open: no presence changes in the passes counted
    for _ in range(10):
        table.refresh_from_db()
        if seat_to_act(table) in (2, 3):
            return table
        clock.advance(table_id=table.pk, now=table.due_at)
    raise AssertionError("no bot came to act")


@pytest.mark.django_db(transaction=True)  # the step commits, as the clock's does
def test_the_clocks_pass_for_an_easy_bots_move_reads_nothing_before_the_lock(make_member, monkeypatch,
                                                                            django_assert_num_queries) -> None:
    table = bot_to_act(make_member("alice"), make_member("bob"))
    before = table.version
    monkeypatch.setattr(clock, "_stale_swept_at", table.due_at)  # the stale sockets' sweep is not this pass's
    snapshots.forget_here()
    with CaptureQueriesContext(connection) as captured:
        clock.sweep(now=table.due_at)
    table.refresh_from_db()
    assert table.version == before + 1  # the bot moved
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    assert len(statements) == CLOCK_BOT_PASS_QUERIES, [q["sql"][:80] for q in captured.captured_queries]
    assert statements[0] == "SELECT" and statements[1] == "BEGIN"  # the due list, then straight to the lock
    assert statements[-1] == "COMMIT"

    # The next pass (the other bot's move, or a member's time running out: the bot plays for them), at the version
    # the last one made here: the round comes from that version's snapshot.
    table.refresh_from_db()
    before = table.version
    monkeypatch.setattr(clock, "_stale_swept_at", table.due_at)
    with CaptureQueriesContext(connection) as captured:
        clock.sweep(now=table.due_at)
    table.refresh_from_db()
    assert table.version == before + 1
    assert len(captured) == CLOCK_BOT_PASS_QUERIES_AFTER_A_VERSION_MADE_HERE, [q["sql"][:80] for q in captured]
    assert not [q for q in captured.captured_queries if 'FROM "tables_round"' in q["sql"]]


@pytest.mark.django_db
def test_an_idle_pass_of_the_clock_is_one_query_and_says_when_to_look_again(make_member, monkeypatch,
                                                                            django_assert_num_queries) -> None:
    table = bot_to_act(make_member("alice"), make_member("bob"))
    when = table.due_at - timedelta(milliseconds=1)
    monkeypatch.setattr(clock, "_stale_swept_at", when)
    with django_assert_num_queries(CLOCK_IDLE_PASS_QUERIES):
        next_due = clock.sweep(now=when)
    assert next_due == table.due_at
