"""A state read back from JSON whose objects list their keys in another order is the same state.

PostgreSQL's jsonb keeps no key order (it gives shorter keys first), SQLite gives the JSON back as written: a
game's configuration read back on PostgreSQL listed Hawk's options as (rounds, bonus_per_trick) and was then
unequal to the configuration the table was made with, so the round loaded from the database was not the round the
last move left (tests/tables/play/test_live_from_snapshot.py failed there)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.engine import registry
from rules.engine.api import Config


def as_jsonb(data: Any) -> Any:
    """`data` with every object's keys in the order PostgreSQL's jsonb gives them back: shorter first, then by
    their bytes."""
    if isinstance(data, dict):
        return {key: as_jsonb(data[key]) for key in sorted(data, key=lambda k: (len(k.encode()), k.encode()))}
    if isinstance(data, list):
        return [as_jsonb(item) for item in data]
    return data


def reversed_keys(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: reversed_keys(data[key]) for key in reversed(list(data))}
    if isinstance(data, list):
        return [reversed_keys(item) for item in data]
    return data


@pytest.mark.parametrize("key", registry.GAME_KEYS)
def test_a_configuration_is_the_same_whatever_order_its_options_come_back_in(key) -> None:
    spec = registry.spec(key)
    config = spec.make_config(spec.default_players)
    stored = json.loads(json.dumps(config.to_json()))
    for reorder in (as_jsonb, reversed_keys):
        assert Config.from_json(reorder(stored)) == config
        assert hash(Config.from_json(reorder(stored))) == hash(config)
        assert Config.from_json(reorder(stored)).to_json() == stored


def test_hawks_options_come_back_from_jsonb_in_another_order() -> None:
    """The case seen on PostgreSQL: the reordering above does change the order of Hawk's options."""
    options = registry.spec("hawk").make_config(4).to_json()["options"]
    assert list(as_jsonb(options)) != list(options)


@pytest.mark.parametrize("key", registry.GAME_KEYS)
def test_every_state_read_back_from_reordered_json_is_the_same_state(key) -> None:
    game, spec = registry.game(key), registry.spec(key)
    rng = random.Random(7)
    config = spec.make_config(spec.default_players)
    match = game.start_match(config, "key-order-match")
    steps = 0
    for number in range(2):
        state = game.new_round(config, f"key-order-round-{number}", match)
        while True:
            stored = json.loads(json.dumps(game.to_json(state)))
            for reorder in (as_jsonb, reversed_keys):
                assert game.from_json(reorder(stored)) == state
            seat = game.to_act(state)
            if seat is None:
                break
            state, steps = game.apply(state, seat, rng.choice(game.legal_moves(state, seat))), steps + 1
        match = game.next_match(config, match, state)
    assert steps > 20
