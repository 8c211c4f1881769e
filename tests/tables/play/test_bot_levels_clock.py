"""A search-level bot (normal, strong) decides off the table's lock and off members' requests: the table clock
decides with no transaction open, records the move only if the table has not moved meanwhile, and at an
instant table a member's move leaves such a bot to the clock, due at once.

These tests commit (the point is which transaction is open), so they run with real transactions."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from rules.engine.hawk import bot as hawk_bot
from tables.models import Move, Seat, Table
from tables.play.services import clock, play, presence
from tables.play.services.tables import add_bot, create_table, join_table
from tests.tables.helpers import current_round, legal_for, seat_to_act, watching
from tests.tables.play.table_life import moves_at, tick

pytestmark = pytest.mark.django_db(transaction=True)


class Decisions:
    """The hawk bot's `chooser`, wrapped: each decision notes its level and seed and whether a transaction was
    open, and may run `meanwhile` first (another request changing the table while the bot thinks)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[dict[str, Any]] = []
        self.meanwhile: Callable[[], None] | None = None
        real = hawk_bot.chooser

        def chooser(level: str, seed: str):
            search = real(level, seed)

            def choose(view, legal):
                if self.meanwhile is not None:
                    then, self.meanwhile = self.meanwhile, None
                    then()
                move = search(view, legal)
                self.made.append({"level": level, "seed": seed, "atomic": connection.in_atomic_block,
                                  "seat": view["seat"], "move": str(move)})
                return move

            return choose

        monkeypatch.setattr(hawk_bot, "chooser", chooser)

    def searches(self) -> list[dict[str, Any]]:
        return [d for d in self.made if d["level"] != "easy"]


@pytest.fixture
def decisions(monkeypatch: pytest.MonkeyPatch) -> Decisions:
    return Decisions(monkeypatch)


def hawk_with_bots(members: list[User], *, level: str, speed: str) -> Table:
    table = create_table(creator=members[0], game="hawk", players=4, bot_level=level, bot_speed=speed)
    for member in members[1:]:
        join_table(table_id=table.pk, user=member)
    for _ in range(4 - len(members)):
        add_bot(table_id=table.pk, user=members[0])
    watching(table, *members)
    table.refresh_from_db()
    return table


def member_plays(table: Table, member: User, rng: random.Random) -> None:
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, user=member).position
    play.play_move(table_id=table.pk, user=member, move_text=rng.choice(legal_for(table, seat)),
                   expected_version=table.version)


def to_a_bots_turn(table: Table, members: dict[int, User], rng: random.Random) -> int:
    """Members move (and the clock plays bots) until a bot is to act; its seat."""
    for _ in range(60):
        seat = seat_to_act(table)
        if seat is not None and seat not in members:
            return seat
        if seat is not None:
            member_plays(table, members[seat], rng)
        else:
            tick(table)
    raise AssertionError("no bot came to act")


def test_the_clock_decides_a_search_move_with_no_transaction_open_and_records_it_once(make_member,
                                                                                       decisions) -> None:
    alice = make_member("alice")
    table = hawk_with_bots([alice], level="strong", speed="normal")
    seat = to_a_bots_turn(table, {0: alice}, random.Random(3))
    decisions.made.clear()
    table.refresh_from_db()
    before = moves_at(table).count()
    version = table.version
    rnd = current_round(table)

    assert tick(table)

    [decided] = decisions.made
    assert decided["atomic"] is False
    assert decided["level"] == "strong" and decided["seat"] == seat
    assert decided["seed"] == f"{table.code}|{rnd.number}|{seat}" and rnd.seed not in decided["seed"]
    made = list(moves_at(table)[before:])
    assert [(m.seat, m.text, m.actor) for m in made] == [(seat, decided["move"], Move.Actor.BOT)]
    table.refresh_from_db()
    assert table.version == version + 1 and made[0].table_version == table.version


def test_a_plan_for_a_table_that_moved_meanwhile_is_not_recorded_and_the_next_pass_plays(make_member,
                                                                                          decisions) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = hawk_with_bots([alice, bob], level="normal", speed="normal")
    seat = to_a_bots_turn(table, {0: alice, 1: bob}, random.Random(5))
    # Bob's page closed a while ago: he shows offline (still within his grace; he is not to act anyway).
    presence.socket_closed(channel_name=f"test-{table.pk}-{bob.pk}")
    Seat.objects.filter(table=table, user=bob).update(offline_since=timezone.now(), gone_at=None)
    table.refresh_from_db()
    when = timezone.now() + timedelta(seconds=5)  # the bot's pace has come; Bob's 15 s of grace have not run out
    before, version, rnd = moves_at(table).count(), table.version, current_round(table)

    # While the bot thinks, Bob's page opens again: a new version of the table.
    decisions.made.clear()
    decisions.meanwhile = lambda: presence.socket_opened(table_id=table.pk, user=bob, channel_name="bob-again")
    assert clock.advance(table_id=table.pk, now=when) is False

    assert len(decisions.made) == 1 and decisions.made[0]["atomic"] is False
    assert moves_at(table).count() == before  # nothing of the planned move was written
    table.refresh_from_db()
    assert table.version == version + 1  # Bob's return, nothing else
    after = current_round(table)
    assert after.state == rnd.state and after.moves_made == rnd.moves_made and after.log == rnd.log
    assert seat_to_act(table) == seat
    assert table.due_at is not None and table.due_at <= when  # still due: the next pass plans again

    assert clock.advance(table_id=table.pk, now=when)
    assert len(decisions.made) == 2 and decisions.made[1]["atomic"] is False
    made = list(moves_at(table)[before:])
    assert [(m.seat, m.text) for m in made] == [(seat, decisions.made[1]["move"])]
    assert made[0].text in legal_for_state(rnd, seat)


def legal_for_state(rnd, seat: int) -> list[str]:
    from rules.engine import registry

    game = registry.game("hawk")
    return [str(m) for m in game.legal_moves(game.from_json(rnd.state), seat)]


def test_at_an_instant_table_the_members_request_leaves_a_normal_bot_to_the_clock(make_member, decisions) -> None:
    alice = make_member("alice")
    table = hawk_with_bots([alice], level="normal", speed="instant")
    rng = random.Random(7)
    for _ in range(40):
        while seat_to_act(table) not in (0, None):  # the bots before her, one clock pass each
            assert clock.advance(table_id=table.pk, now=timezone.now())
        assert seat_to_act(table) == 0, "the round ended before the test's moment came"
        decisions.made.clear()
        before = moves_at(table).count()
        member_plays(table, alice, rng)
        if seat_to_act(table) in (1, 2, 3):
            break
    else:
        raise AssertionError("Alice's move never left a bot to act")

    # The request returned with Alice's move alone: no search ran in it, and the table is due now.
    assert decisions.searches() == []
    assert [m.seat for m in moves_at(table)[before:]] == [0]
    table.refresh_from_db()
    assert table.due_at is not None and table.due_at <= timezone.now()

    bot = seat_to_act(table)
    assert clock.advance(table_id=table.pk, now=timezone.now())  # one pass plays it
    [decided] = decisions.searches()
    assert decided["atomic"] is False and decided["seat"] == bot and decided["level"] == "normal"
    assert [(m.seat, m.text) for m in moves_at(table)[before + 1:]] == [(bot, decided["move"])]


def test_a_members_absence_found_with_a_search_due_shows_first_and_the_move_follows_in_the_same_step(
        make_member, decisions) -> None:
    """The locked step that finds the search due writes the presence it found (a version of its own, pushed
    before the bot thinks), and the move decided off the lock is recorded at that version."""
    alice, bob = make_member("alice"), make_member("bob")
    table = hawk_with_bots([alice, bob], level="strong", speed="normal")
    seat = to_a_bots_turn(table, {0: alice, 1: bob}, random.Random(5))
    presence.socket_closed(channel_name=f"test-{table.pk}-{bob.pk}")  # Bob's page closes: offline a moment later
    gone_at = Seat.objects.get(table=table, user=bob).gone_at
    table.refresh_from_db()
    when = max(gone_at, table.due_at)
    version, before = table.version, moves_at(table).count()
    decisions.made.clear()

    assert clock.advance(table_id=table.pk, now=when)

    assert Seat.objects.get(table=table, user=bob).offline_since == gone_at
    [decided] = decisions.searches()
    assert decided["atomic"] is False and decided["seat"] == seat
    table.refresh_from_db()
    made = list(moves_at(table)[before:])
    assert [(m.seat, m.text, m.table_version) for m in made] == [(seat, decided["move"], version + 2)]
    assert table.version == version + 2  # Bob offline, then the bot's move


def test_a_search_that_fails_leaves_the_move_to_the_easy_bot_and_says_so(make_member, monkeypatch, caplog) -> None:
    """A search is deterministic for its seed and view, so a retry would fail the same way and the table would wait
    for that bot for ever: the easy bot plays the move instead, and the failure is logged."""
    real = hawk_bot.chooser

    def chooser(level: str, seed: str):
        if level == "easy":
            return real(level, seed)

        def broken(view, legal):
            raise RuntimeError("a search bug")

        return broken

    monkeypatch.setattr(hawk_bot, "chooser", chooser)
    alice = make_member("alice")
    table = hawk_with_bots([alice], level="strong", speed="normal")
    seat = to_a_bots_turn(table, {0: alice}, random.Random(3))
    table.refresh_from_db()
    before, version = moves_at(table).count(), table.version
    rnd = current_round(table)

    with caplog.at_level("ERROR", logger="tables.play.services.play"):
        assert tick(table)

    [made] = list(moves_at(table)[before:])
    assert made.seat == seat and made.actor == Move.Actor.BOT
    table.refresh_from_db()
    assert table.version == version + 1
    assert current_round(table).pk == rnd.pk  # the same round goes on
    assert any("search failed" in record.getMessage() and table.code in record.getMessage()
               for record in caplog.records)
