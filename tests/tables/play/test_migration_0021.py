"""Migration 0021: Puskiyon rounds stored before the record of steps get it from their moves, so the engine can read
them again and the fair-deal check's replay of such a round still ends exactly where the round ended; going back
takes the record out again and touches no other game."""

from __future__ import annotations

import random

import pytest

from rules.engine import puskiyon as game
from rules.engine.api import Config
from tables.ledger.services.fairness import verify_deal
from tables.models import Round
from tables.play.services.play import commitment_of
from tests.migrations import latest_schema_after, migrate, migrate_to_latest  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0020_hawsker_rounds_keep_the_kept_hands"), ("accounts", "0005_display_name_verbose_name")]
AFTER = [("tables", "0021_puskiyon_rounds_record_their_steps")]


def stored_round(apps, code: str, *, finished: bool) -> tuple[int, dict]:
    """A Puskiyon round as 0020 stored it (no `steps`), played with random moves; and its state as the engine now
    writes it."""
    Table, Match, StoredRound, Move = (apps.get_model("tables", name) for name in ("Table", "Match", "Round", "Move"))
    config = game.SPEC.make_config(4)
    engine_match = game.start_match(config, f"{code}-match")
    seed = f"{code}-seed"
    state = game.new_round(config, seed, engine_match)
    moves = []
    rng = random.Random(code)
    while (turn := game.to_act(state)) is not None and (finished or len(moves) < 25):
        move = rng.choice(game.legal_moves(state, turn))
        moves.append((turn, str(move)))
        state = game.apply(state, turn, move)
    now = game.to_json(state)
    table = Table.objects.create(code=code, game="puskiyon", seat_count=4,
                                 status="finished" if finished else "playing")
    match = Match.objects.create(table=table, config=Config.to_json(config), seed=f"{code}-match",
                                 state=engine_match.to_json())
    rnd = StoredRound.objects.create(
        match=match, number=0, seed=seed, salt="salt", commitment=commitment_of(seed, "salt"),
        match_before=engine_match.to_json(), state={k: v for k, v in now.items() if k != "steps"}, over=finished,
        moves_made=len(moves))
    for seq, (seat, text) in enumerate(moves, start=1):
        Move.objects.create(round=rnd, seq=seq, seat=seat, text=text, actor="bot", table_version=seq)
    return rnd.pk, now


def test_stored_rounds_get_their_record_and_replay_to_where_they_ended() -> None:
    apps = migrate(BEFORE)
    finished, finished_now = stored_round(apps, "pusk1", finished=True)
    playing, playing_now = stored_round(apps, "pusk2", finished=False)
    Table, Match, StoredRound = (apps.get_model("tables", name) for name in ("Table", "Match", "Round"))
    other = StoredRound.objects.create(
        match=Match.objects.create(table=Table.objects.create(code="hawk1", game="hawk", seat_count=4),
                                   config={}, seed="s", state={}),
        number=0, seed="s", salt="t", commitment="c", match_before={}, state={"untouched": True})

    migrate(AFTER)
    migrate_to_latest()  # the later migrations only add columns, which the current model reads
    assert Round.objects.get(pk=finished).state == finished_now
    assert Round.objects.get(pk=playing).state == playing_now
    assert game.from_json(Round.objects.get(pk=playing).state) == game.from_json(playing_now)
    assert Round.objects.get(pk=other.pk).state == {"untouched": True}
    check = verify_deal(round_id=finished)
    assert check.ok and check.moves_checked == Round.objects.get(pk=finished).moves_made

    apps = migrate(BEFORE)
    assert "steps" not in apps.get_model("tables", "Round").objects.get(pk=finished).state
