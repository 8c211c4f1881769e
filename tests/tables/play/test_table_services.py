"""Forming tables and playing them through the services: every refusal changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from rules.engine import registry
from rules.engine.api import Config, replay
from rules.engine.api import Match as EngineMatch
from tables.models import Match, Move, Round, Seat, Table
from tables.play.services import clock, play
from tables.play.services.errors import IllegalPlay, NotSeated, StaleVersion, TableError, TableFull
from tables.play.services.tables import add_bot, create_table, join_table, leave_table, remove_bot
from tests.tables.helpers import PLAYERS, current_round, full_table, legal_for, play_one, seat_to_act, watching

pytestmark = pytest.mark.django_db


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    rnd = current_round(table)
    return (
        table.version, table.status,
        list(Seat.objects.filter(table=table).values_list("position", "user_id", "is_bot", "away")),
        Move.objects.filter(round__match__table=table).count(),
        rnd.state if rnd else None,
    )


@pytest.mark.parametrize(("game", "players", "options", "turn", "message"), [
    ("poker", 4, {}, 60, "no game"),
    ("sheepshead", 8, {}, 60, "3 to 7 players"),
    ("hawsker", 3, {}, 60, "2 to 2 players"),
    ("sheepshead", 5, {"partner": "the queen"}, 60, "not one of"),
    ("sheepshead", 5, {"stake_cents": -5}, 60, "at least"),
    ("hawk", 4, {"colour": "red"}, 60, "no option"),
    ("puskiyon", 4, {}, 5, "between"),
])
def test_create_table_refuses_nonsense(member, game, players, options, turn, message) -> None:
    with pytest.raises(TableError, match=message):
        create_table(creator=member, game=game, players=players, options=options, turn_seconds=turn)
    assert Table.objects.count() == 0


def test_a_table_starts_when_the_last_seat_is_taken(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2)
    assert table.status == Table.Status.OPEN
    assert not Match.objects.filter(table=table).exists()
    join_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    rnd = current_round(table)
    assert rnd.number == 1 and not rnd.over
    assert seat_to_act(table) in {0, 1}
    with pytest.raises(TableFull):
        join_table(table_id=table.pk, user=make_member("carol"))


def test_joining_twice_or_a_full_table_is_refused(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="puskiyon", players=3)
    with pytest.raises(TableError, match="already have a seat"):
        join_table(table_id=table.pk, user=alice)
    join_table(table_id=table.pk, user=bob)
    before = snapshot(table)
    with pytest.raises(TableFull, match="taken"):
        join_table(table_id=table.pk, user=make_member("carol"), position=1)
    assert snapshot(table) == before


def test_bots_fill_seats_and_play_until_a_member_is_to_act(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="sheepshead", players=5, fill_with_bots=True)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    seat = seat_to_act(table)
    assert seat == 0  # bots never wait: the only member is the one to act
    assert Move.objects.filter(round__match__table=table, actor=Move.Actor.BOT).count() >= 0


def test_only_seated_members_add_or_remove_bots(make_member) -> None:
    alice, stranger = make_member("alice"), make_member("stranger")
    table = create_table(creator=alice, game="hawk", players=4)
    with pytest.raises(NotSeated):
        add_bot(table_id=table.pk, user=stranger)
    add_bot(table_id=table.pk, user=alice)
    assert Seat.objects.filter(table=table, is_bot=True).count() == 1
    with pytest.raises(NotSeated):
        remove_bot(table_id=table.pk, user=stranger, position=1)
    remove_bot(table_id=table.pk, user=alice, position=1)
    assert Seat.objects.filter(table=table, is_bot=True).count() == 0


def test_leaving_an_open_table_frees_the_seat_and_the_last_one_out_closes_it(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4)
    join_table(table_id=table.pk, user=bob)
    leave_table(table_id=table.pk, user=bob)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    leave_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    with pytest.raises(NotSeated):
        leave_table(table_id=table.pk, user=alice)


def test_a_member_who_leaves_a_running_table_is_played_by_the_bot_and_can_come_back(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("puskiyon", [alice, bob], bots=2)
    leave_table(table_id=table.pk, user=bob)
    assert Seat.objects.get(table=table, user=bob).away
    table.refresh_from_db()
    # Whoever is to act now is alice (or the round ended): the bot played for bob.
    assert seat_to_act(table) in {0, None}
    join_table(table_id=table.pk, user=bob)
    assert not Seat.objects.get(table=table, user=bob).away


def test_a_move_is_applied_once_and_stale_or_repeated_versions_change_nothing(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    seat = seat_to_act(table)
    mover = [alice, bob][seat]
    move = legal_for(table, seat)[0]
    version = table.version
    new_version = play.play_move(table_id=table.pk, user=mover, move_text=move, expected_version=version)
    assert new_version > version
    after = snapshot(table)
    with pytest.raises(StaleVersion):
        play.play_move(table_id=table.pk, user=mover, move_text=move, expected_version=version)
    assert snapshot(table) == after
    assert Move.objects.filter(round__match__table=table, text=move, seat=seat).count() == 1


def test_out_of_turn_unseated_malformed_and_illegal_moves_change_nothing(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = full_table("hawsker", [alice, bob])
    seat = seat_to_act(table)
    mover, waiter = ([alice, bob][seat], [alice, bob][1 - seat])
    before = snapshot(table)
    v = table.version
    with pytest.raises(IllegalPlay):
        play.play_move(table_id=table.pk, user=waiter, move_text=legal_for(table, seat)[0], expected_version=v)
    with pytest.raises(NotSeated, match="not seated"):
        play.play_move(table_id=table.pk, user=carol, move_text=legal_for(table, seat)[0], expected_version=v)
    for nonsense in ["", "x" * 500, "play", "play 11Z", "fly 10D", "play QC QC QC", "<script>"]:
        with pytest.raises(IllegalPlay):
            play.play_move(table_id=table.pk, user=mover, move_text=nonsense, expected_version=v)
    assert snapshot(table) == before


def test_a_late_turn_is_played_by_the_bot_only_after_the_deadline(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2)
    watching(table, alice, bob)
    table.refresh_from_db()
    seat = seat_to_act(table)
    deadline = current_round(table).deadline
    assert not clock.advance(table_id=table.pk, now=deadline - timedelta(seconds=1))
    assert clock.advance(table_id=table.pk, now=deadline + timedelta(seconds=1))
    assert not clock.advance(table_id=table.pk, now=deadline + timedelta(seconds=1))  # done once, not twice
    late = Move.objects.filter(round__match__table=table, actor=Move.Actor.TIMEOUT)
    assert list(late.values_list("seat", flat=True)) == [seat]


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_a_whole_match_plays_to_its_end_and_every_round_replays(make_member, game) -> None:
    alice = make_member("alice")
    options = {"rounds": 2} if game in {"sheepshead", "hawk"} else {}
    if game == "hawsker":
        options = {"short": True}
    if game == "puskiyon":
        options = {"target": 40}
    table = full_table(game, [alice], bots=PLAYERS[game] - 1, **options)
    rng = random.Random(7)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        if not play_one(table, {0: alice}, rng):
            rnd = current_round(table)
            assert rnd.over, "nobody is to act but the round is not over"
            play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
    assert table.status == Table.Status.FINISHED
    match = Match.objects.get(table=table)
    assert match.over and match.winners
    spec = registry.spec(game)
    engine = registry.game(game)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    totals = [0] * table.seat_count
    for rnd in rounds:
        assert rnd.over
        for seat, delta in enumerate(rnd.result["deltas"]):
            totals[seat] += delta
        moves = list(Move.objects.filter(round=rnd).order_by("seq").values_list("seat", "text"))
        config = Config.from_json(match.config)
        replayed = replay(engine, config, rnd.seed, moves, EngineMatch.from_json(rnd.match_before))
        assert engine.to_json(replayed) == rnd.state
    assert list(match.state["totals"]) == totals
    if spec.unit == "cents":
        assert all(sum(r.result["deltas"]) == 0 for r in rounds)


def finish_round(table: Table, members: dict, rng: random.Random) -> None:
    for _ in range(2000):
        if not play_one(table, members, rng):
            break
    assert current_round(table).over


def test_the_next_round_comes_when_all_are_ready_or_after_the_pause(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2, rounds=3)
    rng = random.Random(5)
    finish_round(table, {0: alice, 1: bob}, rng)
    table.refresh_from_db()
    play.ready_for_next_round(table_id=table.pk, user=alice, expected_version=table.version)
    assert current_round(table).number == 1  # bob is not ready yet
    table.refresh_from_db()
    with pytest.raises(StaleVersion):  # a board from before the round's last move
        play.ready_for_next_round(table_id=table.pk, user=bob, expected_version=table.played_version - 1)
    play.ready_for_next_round(table_id=table.pk, user=bob, expected_version=table.version)
    assert current_round(table).number == 2
    finish_round(table, {0: alice, 1: bob}, rng)
    table.refresh_from_db()
    assert not clock.advance(table_id=table.pk)  # the pause is not over
    assert clock.advance(table_id=table.pk, now=current_round(table).deadline + timedelta(seconds=1))
    assert current_round(table).number == 3


def test_everyone_sees_that_the_bot_played_for_a_late_seat(make_member) -> None:
    from tables.play.rendering import render_board

    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    seat = seat_to_act(table)
    late = [alice, bob][seat]
    assert clock.advance(table_id=table.pk, now=current_round(table).deadline + timedelta(seconds=1))
    table.refresh_from_db()
    other = bob if late == alice else alice
    assert f"Time ran out for {late.display_name}; the bot played for them." in render_board(table, other)
    assert "Time ran out: the bot played for you." in render_board(table, late)  # to the late member, as theirs
