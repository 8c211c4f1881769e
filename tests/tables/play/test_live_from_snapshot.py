"""A move at a version this process made loads the round, its match and the engine state from that version's
snapshot instead of the database (tables.play.services.play.Live.load). That is safe only while engine states are
immutable and survive their JSON exactly (the snapshot holds the state the last move left, the database its JSON),
the snapshot is left as it was (boards of its version may be being built from it in other threads), and the seats,
which presence writes without a new version, are still read. Each of these is checked here."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from rules.engine import registry
from rules.engine.api import Config, replay
from rules.engine.api import Match as EngineMatch
from tables.models import Match, Round, Seat, Table
from tables.play import snapshots
from tables.play.services.play import Live, locked_table, play_move
from tests.tables.helpers import full_table, legal_for, seat_to_act, watching


@pytest.mark.parametrize("key", [*registry.GAME_KEYS, "littletricks"])
def test_every_games_states_survive_their_json_and_a_move_leaves_the_state_it_was_given(key, request) -> None:
    """Three rounds of random play per game: at every step the state read back from its stored JSON equals the
    state itself, and applying a move changes nothing of the state it was applied to (it makes a new one)."""
    if key == "littletricks":
        request.getfixturevalue("fifth")  # the test's fifth game: any game the club is given must hold to this
    game, spec = registry.game(key), registry.spec(key)
    rng = random.Random(11)
    config = spec.make_config(spec.default_players)
    match = game.start_match(config, "snapshot-match")
    steps = 0
    for number in range(3):
        state = game.new_round(config, f"snapshot-round-{number}", match)
        while (seat := game.to_act(state)) is not None:
            stored = json.loads(json.dumps(game.to_json(state)))
            assert game.from_json(stored) == state
            move = rng.choice(game.legal_moves(state, seat))
            following = game.apply(state, seat, move)
            assert game.to_json(state) == stored, f"{key}: {move} changed the state it was applied to"
            state, steps = following, steps + 1
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
        match = game.next_match(config, match, state)
    assert steps > 20


def fields(row: Any) -> dict[str, Any]:
    """A row's stored values, JSON fields as the database gives them back."""
    return {f.attname: json.loads(json.dumps(getattr(row, f.attname))) if f.get_internal_type() == "JSONField"
            else getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def moved_table(make_member) -> tuple[Table, dict[int, Any]]:
    """Hawk for two members and two bots, one member's move made (committed here: its snapshot is kept)."""
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawk", [alice, bob], bots=2)
    watching(table, alice, bob)
    members = {0: alice, 1: bob}
    table.refresh_from_db()
    seat = seat_to_act(table)
    play_move(table_id=table.pk, user=members[seat], move_text=legal_for(table, seat)[0],
              expected_version=table.version)
    table.refresh_from_db()
    return table, members


@pytest.mark.django_db(transaction=True)
def test_the_round_from_the_snapshot_is_the_round_the_database_holds(make_member) -> None:
    table, _members = moved_table(make_member)
    assert snapshots.recall_here(table.code, table.version) is not None
    with transaction.atomic():
        locked = locked_table(table.pk)
        with CaptureQueriesContext(connection) as captured:
            warm = Live.load(locked)
        assert not [q for q in captured.captured_queries if 'FROM "tables_round"' in q["sql"]]
        snapshots.forget_here()
        cold = Live.load(locked_table(table.pk))
    assert fields(warm.round) == fields(cold.round)
    assert fields(warm.match) == fields(cold.match)
    assert warm.round.match is warm.match  # the round's match is the Live's own, as select_related gives it
    assert warm.state == cold.state
    assert (warm.next_seq, warm.paused, warm.config) == (cold.next_seq, cold.paused, cold.config)


@pytest.mark.django_db(transaction=True)
def test_moves_from_the_snapshot_leave_it_as_it_was_and_are_stored_as_from_the_database(make_member) -> None:
    table, members = moved_table(make_member)
    kept = snapshots.recall_here(table.code, table.version)
    round_before, match_before, state_before = fields(kept.round), fields(kept.match), kept.state
    log_before = kept.round.log
    for _ in range(6):  # members' moves, each from the snapshot of the version before
        table.refresh_from_db()
        seat = seat_to_act(table)
        if seat not in members:
            break
        assert snapshots.recall_here(table.code, table.version) is not None
        play_move(table_id=table.pk, user=members[seat], move_text=legal_for(table, seat)[0],
                  expected_version=table.version)
    assert fields(kept.round) == round_before and fields(kept.match) == match_before
    assert kept.state is state_before and kept.round.log is log_before
    stored = Round.objects.get(match__table=table)
    game = registry.game(table.game)
    config = Config.from_json(Match.objects.get(table=table).config)
    moves = [(m.seat, m.text) for m in stored.moves.order_by("seq")]
    assert stored.moves_made == len(moves) > 1
    replayed = replay(game, config, stored.seed, moves, EngineMatch.from_json(stored.match_before))
    assert game.to_json(replayed) == stored.state  # what was written is what the moves make


@pytest.mark.django_db(transaction=True)
def test_the_seats_are_read_even_when_the_round_comes_from_the_snapshot(make_member) -> None:
    table, members = moved_table(make_member)
    assert snapshots.recall_here(table.code, table.version) is not None
    # Presence writes seats and no version (tables.play.services.presence): the snapshot's seats are older.
    Seat.objects.filter(table=table, user=members[1]).update(ready=True)
    with transaction.atomic():
        live = Live.load(locked_table(table.pk))
    assert [s.ready for s in live.seats] == [False, True, False, False]
    assert [s.ready for s in snapshots.recall_here(table.code, table.version).seats] == [False] * 4
