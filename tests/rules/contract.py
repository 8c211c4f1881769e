"""Helpers the engine tests of every game share: random play, replay, and hidden-card checks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any

from rules.engine.api import GameModule
from rules.engine.cards import Card, card

_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")


def cards_in(data: Any) -> set[Card]:
    """Every card text anywhere in a view (keys, values, inside longer strings)."""
    text = json.dumps(data)
    return {card(rank + suit) for rank, suit in _CARD_TOKEN.findall(text)}


def play_out(game: GameModule, state: Any, rng: random.Random, limit: int = 5000) -> tuple[Any, list]:
    """Random legal moves to the end of the round; returns the final state and the moves made."""
    made: list[tuple[int, str]] = []
    seat = game.to_act(state)
    while seat is not None:
        legal = game.legal_moves(state, seat)
        assert legal, f"seat {seat} is to act but has no legal move"
        move = rng.choice(legal)
        state = game.apply(state, seat, move)
        made.append((seat, str(move)))
        assert len(made) < limit, "round does not end"
        seat = game.to_act(state)
    return state, made


def states_along(game: GameModule, state: Any, rng: random.Random) -> Iterable[Any]:
    """Every state of one random round, the deal first and the end last."""
    yield state
    seat = game.to_act(state)
    while seat is not None:
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        yield state
        seat = game.to_act(state)


def guessed_positions(game: GameModule, bot: Any, config: Any, rounds: int, policy: Any = None
                      ) -> Iterable[tuple[Any, int]]:
    """(a guess after one of its legal moves, the seat that moved) for every decision of `rounds` rounds played by
    `policy` (default: the bot's `choose`), each guess made by the bot's `determinize` from the seat's view: the
    positions a search plays out from."""
    choose = policy or bot.choose
    for number in range(rounds):
        state = game.new_round(config, f"guessed-{number}")
        step = 0
        while (turn := game.to_act(state)) is not None:
            view = game.view(state, turn)
            guess = bot.determinize(view, random.Random(f"{number}|{step}"))
            for move in game.legal_moves(guess, turn):
                yield game.apply(guess, turn, move), turn
            state = game.apply(state, turn, choose(view, game.legal_moves(state, turn)))
            step += 1
