"""Table life across two Daphne processes sharing PostgreSQL and Redis: presence, paced bots, crashes.

Every table here is made through the services in the test's database, which the servers use too; the
servers run the table clock themselves (started with Daphne's reactor, no page needed), so what happens
at a table after a member's move is theirs to do, whichever process gets to it first.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, transaction
from django.db.models import Sum
from django.utils import timezone
from websockets.asyncio.client import connect

from accounts.models import User
from tables.models import LedgerEntry, Move, Round, Seat, Table
from tables.play.services import clock, play, presence
from tables.play.services.play import locked_table
from tables.play.services.tables import add_bot, create_table
from tests.servers import Daphne, free_port
from tests.services.conftest import database_url
from tests.sockets import session_cookie, version_of
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

T = TypeVar("T")
CLOCK_SECONDS = "0.2"  # the servers' table clock looks this often (and at once when their own commit asks)
PATIENCE = 20.0  # generous: the club asks for presence within 5 s, but a busy machine may be slower



@pytest.fixture
def two_daphnes(tmp_path: Path) -> Iterator[list[Daphne]]:
    env = {"DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL, "DEBUG": "true",
           "TABLE_CLOCK_SECONDS": CLOCK_SECONDS}
    servers = [Daphne(port=free_port(), env=env, log_path=tmp_path / f"daphne-{i}.log") for i in range(2)]
    try:
        with ThreadPoolExecutor(len(servers)) as starting:  # together: each takes seconds to come up
            list(starting.map(Daphne.start, servers))
        yield servers
    finally:
        for server in servers:
            server.stop()
        for server in servers:
            errors = [line for line in server.log().splitlines() if "Traceback" in line or "ERROR" in line]
            if errors:
                print(f"--- daphne on {server.port} logged errors:\n{server.log()[-4000:]}")


# --- reading the table as the database has it ---------------------------------------------------------------


@dataclass(frozen=True)
class AtTable:
    version: int
    round_id: int
    to_act: int | None
    over: bool
    moves_made: int
    last_actor: str | None


def at_table(table: Table) -> AtTable:
    """The table at one version: read again if the servers moved it on while it was read."""
    while True:
        table.refresh_from_db()
        rnd = current_round(table)
        last = Move.objects.filter(round=rnd).order_by("-seq").values_list("actor", flat=True).first()
        now = AtTable(version=table.version, round_id=rnd.pk, to_act=seat_to_act(table), over=rnd.over,
                      moves_made=rnd.moves_made, last_actor=last)
        if Table.objects.filter(pk=table.pk, version=now.version).exists():  # every change is a new version
            return now


async def until(check: Callable[[], T | None], *, what: str, timeout: float = PATIENCE, every: float = 0.05) -> T:
    """Polls `check` (run with the ORM) until it returns something true, which is returned."""
    deadline = time.monotonic() + timeout
    while True:
        found = await sync_to_async(check)()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(every)


def member_moves(table: Table, member: User, rng: random.Random) -> int:
    """The member makes a legal move (chosen by `rng`) against the table's version; returns the new one."""
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, user=member).position
    move = rng.choice(legal_for(table, seat))
    return play.play_move(table_id=table.pk, user=member, move_text=move, expected_version=table.version)


def quiet(now: AtTable) -> AtTable | None:
    """The table as it stands while it waits for the member in seat 0 (or after its round), else None."""
    return now if now.over or now.to_act == 0 else None


def assert_every_move_once(round_id: int) -> list[Move]:
    """The round's moves are 1..n, each once, each its own version, in the order they were made."""
    rnd = Round.objects.get(pk=round_id)
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert rnd.moves_made == len(moves)
    versions = [m.table_version for m in moves]
    assert versions == sorted(set(versions)), "two moves share a version, or a later move has an older one"
    return moves


# --- reading boards from a socket ---------------------------------------------------------------------------


def presence_shown(html: str, position: int) -> str | None:
    """The `data-presence` the board gives the seat at `position` (None: it gives none)."""
    for tag in re.findall(rf'<[a-z]+\b[^>]*\bdata-seat="{position}"[^>]*>', html):
        found = re.search(r'\bdata-presence="([a-z]+)"', tag)
        if found:
            return found.group(1)
    return None


def assert_presence(html: str, position: int, expected: str) -> None:
    assert presence_shown(html, position) == expected, html[:3000]


async def board_from(sock: websockets.ClientConnection, *, newer_than: int, timeout: float = PATIENCE) -> str:
    """The next board the socket receives with a version above `newer_than` (older ones are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            html = await sock.recv()
            if version_of(html) > newer_than:
                return html


def table_socket(server: Daphne, table: Table, cookie: str) -> connect:
    """The member's socket to the table on `server`, as the table's page opens it."""
    return connect(f"{server.ws_url}/ws/table/{table.code}/", origin=server.url,
                              additional_headers={"Cookie": f"sessionid={cookie}"})


# --- 1. presence across processes ---------------------------------------------------------------------------


async def test_a_member_who_closes_the_table_on_one_process_shows_offline_on_the_other_and_back(
    make_member, two_daphnes
) -> None:
    first, second = two_daphnes
    rng = random.Random(17)

    @sync_to_async
    def running_table() -> tuple[Table, dict[int, User]]:
        alice, bob = make_member("alice"), make_member("bob")
        table = full_table("hawsker", [alice, bob])
        Table.objects.filter(pk=table.pk).update(grace_seconds=1, bot_speed=Table.BotSpeed.BRISK)
        table.refresh_from_db()
        return table, {0: alice, 1: bob}

    table, by_seat = await running_table()
    a_seat = await sync_to_async(seat_to_act)(table)  # A: the member whose turn it is
    assert a_seat in by_seat
    b_seat = 1 - a_seat
    a, b = by_seat[a_seat], by_seat[b_seat]
    a_cookie, b_cookie = await sync_to_async(session_cookie)(a), await sync_to_async(session_cookie)(b)

    async with table_socket(second, table, b_cookie) as b_sock:
        async with table_socket(first, table, a_cookie) as a_sock:
            a_board = await board_from(a_sock, newer_than=-1)
            assert_presence(a_board, a_seat, "online")
        before = (await sync_to_async(at_table)(table)).version
        closed_at = time.monotonic()  # A's only socket (on the first process) has just closed

        shown = await board_from(b_sock, newer_than=before)  # pushed by whichever process saw A go
        took = time.monotonic() - closed_at
        print(f"\nA shown offline to B (on the other process) {took:.2f} s after A's socket closed")
        offline_since = await sync_to_async(lambda: Seat.objects.get(table=table, position=a_seat).offline_since)()
        assert offline_since is not None, "B got a new board, but A is not offline"
        assert_presence(shown, a_seat, "offline")

        # After the table's grace (1 s), the bot plays A's turn, and B's board shows it.
        absent = await until(lambda: Move.objects.filter(round__match__table=table, seat=a_seat,
                                                         actor=Move.Actor.ABSENT).first(),
                             what="the bot plays the offline member's turn")
        assert absent.seq == 1, "A's turn was played by someone else first"
        assert absent.created_at >= offline_since + timedelta(seconds=1), "A's turn was played within the grace"
        played_for_a = await board_from(b_sock, newer_than=absent.table_version - 1)
        assert_presence(played_for_a, a_seat, "offline")
        assert_presence(played_for_a, b_seat, "online")
        await until(lambda: at_table(table).to_act != a_seat or at_table(table).over,
                    what="the bot plays every turn of the offline member's in a row")

        # A comes back, on the second process this time: online again, for everyone.
        before = (await sync_to_async(at_table)(table)).version
        async with table_socket(second, table, a_cookie) as a_sock:
            back = await board_from(a_sock, newer_than=-1)
            assert_presence(back, a_seat, "online")
            seen_by_b = await board_from(b_sock, newer_than=before)
            assert_presence(seen_by_b, a_seat, "online")
            assert await sync_to_async(
                lambda: Seat.objects.get(table=table, position=a_seat).offline_since)() is None

            # B plays until it is A's turn; A's turn then waits for A, well past the grace.
            @sync_to_async
            def to_a_turn() -> AtTable:
                for _ in range(200):
                    now = at_table(table)
                    if now.over:
                        for member in (a, b):
                            play.ready_for_next_round(table_id=table.pk, user=member,
                                                      expected_version=at_table(table).version)
                    elif now.to_act == a_seat:
                        return now
                    else:
                        member_moves(table, b, rng)
                raise AssertionError("it never came to A's turn")

            waiting = await to_a_turn()
            await asyncio.sleep(1.0 + 2.0)  # the grace and then some, with the clock looking every 0.2 s
            still = await sync_to_async(at_table)(table)
            assert (still.version, still.to_act, still.moves_made) == (waiting.version, a_seat, waiting.moves_made)
            await sync_to_async(member_moves)(table, a, rng)  # and A plays it
            last = await sync_to_async(lambda: Move.objects.filter(round_id=still.round_id).order_by("-seq").first())()
            assert (last.seat, last.actor, last.user_id) == (a_seat, Move.Actor.MEMBER, a.pk)
    await sync_to_async(assert_every_move_once)(still.round_id)


# --- 2. paced bots across processes -------------------------------------------------------------------------


async def test_each_paced_bot_move_reaches_the_members_socket_as_its_own_board_in_order(
    make_member, two_daphnes, settings
) -> None:
    first, _ = two_daphnes
    settings.TABLE_BOT_SPEED = "brisk"  # the table's speed, chosen when it is made
    rng = random.Random(2)
    bot_moves_wanted = 10

    @sync_to_async
    def table_one_seat_short() -> tuple[Table, User]:
        alice = make_member("alice")
        table = create_table(creator=alice, game="hawk", players=4)
        add_bot(table_id=table.pk, user=alice)
        add_bot(table_id=table.pk, user=alice)
        return table, alice

    table, alice = await table_one_seat_short()
    boards: list[int] = []

    async def collect(sock: websockets.ClientConnection) -> None:
        while True:
            boards.append(version_of(await sock.recv()))

    async with table_socket(first, table, await sync_to_async(session_cookie)(alice)) as sock:
        boards.append(version_of(await asyncio.wait_for(sock.recv(), 10)))  # the open table, before the deal
        collector = asyncio.create_task(collect(sock))
        try:
            await sync_to_async(add_bot)(table_id=table.pk, user=alice)  # the last seat: the deal

            def bots_moved_or_over() -> bool:
                """Polled: the member plays when her board shows her turn (as in the browser, her move carries
                the version she sees); whether the bots have made enough moves."""
                now = at_table(table)
                if now.over:
                    return True
                if now.to_act == 0 and boards[-1] == now.version:
                    member_moves(table, alice, rng)
                return Move.objects.filter(round_id=now.round_id, actor=Move.Actor.BOT).count() >= bot_moves_wanted

            await until(bots_moved_or_over, what=f"{bot_moves_wanted} bot moves", timeout=40)
            # The bots play on to her turn (or the round's end), where the table waits: nothing moves after.
            final = await until(lambda: quiet(at_table(table)), what="the bots stop at the member's turn")
            await until(lambda: boards and boards[-1] >= final.version, what="the socket has the last board", every=0.1)
            await asyncio.sleep(0.5)  # a board that came twice, or late, would come now
        finally:
            collector.cancel()

    moves = await sync_to_async(assert_every_move_once)(final.round_id)
    assert final.over or sum(m.actor == Move.Actor.BOT for m in moves) >= bot_moves_wanted
    dealt = moves[0].table_version - 1  # at a brisk table the deal makes no move: bots move after it, one a time
    after_deal = [v for v in boards if v >= dealt]
    # One board for each version, in order, none twice, none missing: the deal, then every move, whichever
    # process made it (the member's moves are made here, the bots' by the servers' clocks).
    made = [(m.table_version, m.actor, m.seat) for m in moves]
    assert after_deal == list(range(dealt, final.version + 1)), f"boards {boards}, moves {made}"
    assert [m.table_version for m in moves] == list(range(dealt + 1, final.version + 1))
    assert boards == sorted(set(boards))


# --- 3. killed mid-sequence ---------------------------------------------------------------------------------


async def test_bots_play_on_after_a_process_is_killed_mid_sequence_and_after_all_are(
    make_member, two_daphnes, settings
) -> None:
    """Sheepshead, for money: one member and two bots, each bot move its own transaction at a brisk pace."""
    servers = two_daphnes
    settings.TABLE_BOT_SPEED = "brisk"
    rng = random.Random(3)

    @sync_to_async
    def table_with_the_member_watching() -> tuple[Table, User]:
        alice = make_member("alice")
        table = create_table(creator=alice, game="sheepshead", players=3)
        add_bot(table_id=table.pk, user=alice)
        watching(table, alice)  # her page is open (a socket row; no process of hers to kill)
        add_bot(table_id=table.pk, user=alice)
        table.refresh_from_db()
        return table, alice

    table, alice = await table_with_the_member_watching()

    def member_plays_until_bots_are_mid_sequence() -> AtTable | None:
        """Polled: the member plays her turns; returns the table once a bot has moved and another bot is due."""
        now = at_table(table)
        assert not now.over, "the round ended before the bots were caught mid-sequence"
        if now.to_act == 0:
            member_moves(table, alice, rng)
            return None
        return now if now.last_actor == Move.Actor.BOT and now.to_act is not None else None

    def bots_done(since: int) -> AtTable | None:
        """The bots have moved on from version `since` to the member's turn or the round's end."""
        now = at_table(table)
        return now if now.version > since and (now.over or now.to_act == 0) else None

    async def kill_mid_sequence(victim: Daphne, *, last: bool) -> AtTable:
        """Kills `victim` once a bot has moved and another is due. When it is the `last` process, the kill is
        checked to have come before the bots were done (if not, it is started again and killed at the next
        sequence); with another process alive the check cannot be made, as that one plays on at once."""
        for attempt in range(1, 6):
            caught = await until(member_plays_until_bots_are_mid_sequence, what="bots mid-sequence", every=0.02)
            victim.kill()
            if not last:
                print(f"\nkilled one process with seat {caught.to_act} due at version {caught.version}")
                return caught
            dead = await sync_to_async(at_table)(table)
            if not dead.over and dead.to_act != 0:
                print(f"killed the last process with seat {dead.to_act} due at version {dead.version} (try {attempt})")
                return dead
            victim.start()
        raise AssertionError("the bots were never caught mid-sequence")

    # One process dies in the middle of the bots' moves: the other's clock plays on.
    caught = await kill_mid_sequence(servers[0], last=False)
    await until(lambda: bots_done(caught.version), what="the surviving process plays the bots on")

    # Every process dies in the middle: what is due stays in the database, and a restarted process does it.
    dead = await kill_mid_sequence(servers[1], last=True)
    due_at = await sync_to_async(lambda: Table.objects.get(pk=table.pk).due_at)()
    assert due_at is not None, "a bot is to act, but nothing is due"
    servers[0].start()
    await until(lambda: bots_done(dead.version), what="the restarted process plays the bots on")

    # The round goes on to its end, the member playing her turns and the restarted process the bots'.
    def played_out() -> AtTable | None:
        now = at_table(table)
        if not now.over and now.to_act == 0:
            member_moves(table, alice, rng)
            return None
        return now if now.over else None

    over = await until(played_out, what="the round's end", timeout=40)
    moves = await sync_to_async(assert_every_move_once)(over.round_id)
    assert {m.actor for m in moves} <= {Move.Actor.MEMBER, Move.Actor.BOT}  # never taken for absent

    @sync_to_async
    def ledger() -> tuple[list[tuple[int, int | None, bool, str]], int]:
        entries = LedgerEntry.objects.filter(round_id=over.round_id)
        rows = sorted(entries.values_list("seat", "member_id", "is_bot", "unit"))
        return rows, entries.aggregate(total=Sum("amount"))["total"]

    rows, total = await ledger()
    assert rows == [(0, alice.pk, False, "cents"), (1, None, True, "cents"), (2, None, True, "cents")]
    assert total == 0, "a round played for money must sum to zero"


# --- 4. presence when two transactions meet (PostgreSQL's row locks, as between two processes) -------------


class Apart(threading.Thread):
    """`work` in a thread of its own, on a database connection of its own (another process, in effect)."""

    def __init__(self, work: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self.work = work
        self.pid: int | None = None
        self.started_work = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.started_work.set()
            self.work()
        except BaseException as error:  # reported by `finish`
            self.error = error
        finally:
            connections.close_all()

    def waiting_for_a_lock(self) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [self.pid])
            return cursor.fetchone()[0] > 0

    def blocked_or_done(self, timeout: float = 10.0) -> bool:
        """Whether it waits for a lock (False: it finished without waiting)."""
        assert self.started_work.wait(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.is_alive():
                return False
            if self.waiting_for_a_lock():
                return True
            time.sleep(0.01)
        raise AssertionError("neither blocked nor done")

    def finish(self) -> None:
        self.join(timeout=20)
        assert not self.is_alive()
        if self.error is not None:
            raise self.error


def hawsker_with_alice_gone(make_member: Callable[..., User]) -> tuple[Table, User]:
    """A running Hawsker table whose member Alice closed her page long enough ago to be shown offline now."""
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    presence.socket_closed(channel_name=f"test-{table.pk}-{alice.pk}")
    past = timezone.now() - timedelta(seconds=1)
    assert Seat.objects.filter(table=table, user=alice, gone_at__isnull=False).update(gone_at=past) == 1
    Table.objects.filter(pk=table.pk).update(due_at=past)
    table.refresh_from_db()
    return table, alice


async def test_a_member_back_while_the_clock_shows_her_offline_is_shown_online_again(make_member) -> None:
    """Her new page's socket reads her seat (not yet offline) just before the clock, holding the table, shows
    her offline; her socket then takes the table and must show her back: otherwise every board says she is
    offline while she is there, until something else changes."""

    @sync_to_async
    def scenario() -> tuple[int, int, Seat]:
        table, alice = hawsker_with_alice_gone(make_member)
        opening = Apart(lambda: presence.socket_opened(table_id=table.pk, user=alice, channel_name="alice-again"))
        with transaction.atomic():
            locked_table(table.pk)  # the clock's step has the table
            opening.start()
            assert opening.blocked_or_done(), "her socket did not wait for the table"
            assert clock.advance(table_id=table.pk)  # ...and shows her offline: a new version
            shown_offline = Table.objects.get(pk=table.pk).version
        opening.finish()
        return shown_offline, Table.objects.get(pk=table.pk).version, Seat.objects.get(table=table, user=alice)

    shown_offline, version, seat = await scenario()
    assert (seat.offline_since, seat.gone_at) == (None, None)
    assert version > shown_offline, "she is back, but the last version shows her offline"


async def test_a_page_opening_as_another_closes_keeps_the_member_present(make_member) -> None:
    """A second page (or a reload on another process) opens while the first one closes: the closing socket
    must see the new one, or the member is taken for gone (offline, then played by the bot) with a page open."""

    @sync_to_async
    def scenario() -> Seat:
        alice, bob = make_member("alice"), make_member("bob")
        table = full_table("hawsker", [alice, bob])
        watching(table, alice, bob)
        closing = Apart(lambda: presence.socket_closed(channel_name=f"test-{table.pk}-{alice.pk}"))
        with transaction.atomic():  # the new page's socket, its transaction not yet committed
            presence.socket_opened(table_id=table.pk, user=alice, channel_name="alice-second-page")
            closing.start()
            closing.blocked_or_done()
        closing.finish()
        return Seat.objects.get(table=table, user=alice)

    seat = await scenario()
    assert (seat.offline_since, seat.gone_at) == (None, None), "a member with a page open is taken for gone"
