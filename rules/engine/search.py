"""Determinized search (perfect-information Monte Carlo) for any of the club's games.

A search bot is built from a game's engine functions, its `determinize(view, rng)` and a playout
policy, and is handed to a table as a chooser: `chooser(view, legal) -> Move`. The chooser receives
nothing but the seat's view and its legal moves, so it cannot cheat: every state it searches is one
`determinize` built from the view, a guess at the hidden cards that agrees with everything the seat
has seen. For each guess it tries every legal move and plays the round out with the playout policy
(the game's easy bot, reading each seat's view of the guessed state), and it picks the move with the
best average result. The guesses are the same for every move (common random numbers: the moves are
compared on the same deals), and all randomness comes from the chooser's seed and the view, so the
same seed, budget and view always give the same move.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.moves import Move

View = Mapping[str, Any]
Chooser = Callable[[View, Sequence[Move]], Move]
Determinizer = Callable[[View, random.Random], Any]

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
"""What a table may ask of a bot seat: the game's heuristics, or the search at two budgets."""

MAX_PLAYOUT_MOVES = 400
"""A playout longer than this is scored where it stands (a Puskiyon hand can go round a long time)."""


@dataclass(frozen=True, slots=True)
class SearchGame:
    """What the search needs of a game: its engine functions, its determinizer, its playout policy."""

    module: Any  # the game package: to_act, legal_moves, apply, view, result
    determinize: Determinizer
    policy: Chooser  # plays every seat in playouts, from that seat's view of the guessed state
    lower_is_better: bool = False
    estimate: Callable[[Any, int], float] | None = None  # value of an unfinished state (playout cut short)
    observe: Callable[[Any, int], View] | None = None  # the policy's view in playouts (default: module.view)
    random_playouts: bool = False  # playouts pick uniformly (for a game whose policy is too slow to play them)
    shortlist: Callable[[View, Sequence[Move]], Sequence[Move]] | None = None  # legal moves, the policy's best first
    # `playout` without the engine: (state, seat, move limit, the search's rng) -> the value `playout` would give,
    # drawing the same random numbers from the rng (none, where the policy needs none)
    rollout: Callable[[Any, int, int, random.Random], float] | None = None


def view_key(view: View) -> str:
    """A stable digest of the view: the chooser's randomness depends on this and its seed only."""
    text = json.dumps(view, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def seat_value(game: SearchGame, state: Any, seat: int) -> float:
    """The seat's result relative to the table: its own change less the others' average (a match is won
    against the others, so their losses count too); negated where fewer points are better."""
    module = game.module
    if module.to_act(state) is None:
        deltas = module.result(state).deltas
        others = (sum(deltas) - deltas[seat]) / max(1, len(deltas) - 1)
        value = deltas[seat] - others
        return -value if game.lower_is_better else value
    if game.estimate is None:
        raise ValueError("the playout stopped before the end and the game has no estimate")
    return game.estimate(state, seat)


def playout(game: SearchGame, state: Any, seat: int, rng: random.Random) -> float:
    """Play the round out with the policy at every seat; the value of the end for `seat`."""
    if game.rollout is not None:
        return game.rollout(state, seat, MAX_PLAYOUT_MOVES, rng)
    module = game.module
    policy = game.policy
    observe = game.observe or module.view
    to_act, legal_moves, apply = module.to_act, module.legal_moves, module.apply
    uniform = game.random_playouts
    rand = rng.random
    for _move in range(MAX_PLAYOUT_MOVES):
        turn = to_act(state)
        if turn is None:
            break
        legal = legal_moves(state, turn)
        if len(legal) == 1:
            move = legal[0]  # forced: no view needed
        elif uniform:
            move = legal[int(rand() * len(legal))]
        else:
            move = policy(observe(state, turn), legal)
        state = apply(state, turn, move)
    return seat_value(game, state, seat)


def evaluate(game: SearchGame, view: View, legal: Sequence[Move], samples: int,
             rng: random.Random) -> list[list[float]]:
    """Each legal move's value on each of `samples` guessed states (the same guesses for every move, so two
    moves' values on one guess are a pair: their difference has none of the guess's luck in it)."""
    module = game.module
    seat = int(view["seat"])
    values: list[list[float]] = [[] for _ in legal]
    for _sample in range(samples):
        state = game.determinize(view, rng)
        for index, move in enumerate(legal):
            values[index].append(playout(game, module.apply(state, seat, move), seat, rng))
    return values


MARGIN = 1.0
"""How many standard errors a move's paired gain over the policy's own move must exceed before the search
plays it instead: with a few dozen play-outs a move, the best-looking mean is often luck, and following it
made the search play worse than its policy in the games with many moves a turn (Hawsker, Puskiyon)."""


def paired_gain(ours: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """The mean of `ours - theirs` over the guesses and its standard error."""
    diffs = [a - b for a, b in zip(ours, theirs, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, float("inf")
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def pimc_chooser(game: SearchGame, playouts: int, seed: str, margin: float | None = None,
                 width: int | None = None) -> Chooser:
    """A chooser spending about `playouts` playouts a decision, at least one guess per decision.

    The move the policy itself would make from the real view is kept unless another's paired gain over it
    is more than `margin` standard errors above zero (the largest such gain wins), so the search never
    plays worse than its policy for lack of evidence. With a `width` and the game's `shortlist`, only the
    policy's `width` best moves are searched: the play-outs are spent where the choice is close, not spread
    thinly over moves the policy rightly ranks last.
    """

    needed = MARGIN if margin is None else margin

    def choose(view: View, legal: Sequence[Move]) -> Move:
        if not legal:
            raise ValueError("there is no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{seed}|{view_key(view)}")
        if width is not None and game.shortlist is not None:
            legal = list(game.shortlist(view, legal))[:width]
            preferred = legal[0]
            if len(legal) == 1:
                return preferred
        else:
            preferred = game.policy(view, legal)
        samples = max(1, playouts // len(legal))
        values = evaluate(game, view, legal, samples, rng)
        if preferred not in legal:
            preferred = legal[0]
        base = values[legal.index(preferred)]
        choice, best = preferred, 0.0
        for index, move in enumerate(legal):
            if move == preferred:
                continue
            gain, error = paired_gain(values[index], base)
            if gain > needed * error + 1e-9 and gain > best + 1e-9:
                choice, best = move, gain
        return choice

    return choose


def level_chooser(game: SearchGame, easy: Chooser, budgets: Mapping[str, int], level: str, seed: str,
                  widths: Mapping[str, int] | None = None) -> Chooser:
    """The chooser for a level: `easy` itself, or the search at that level's budget (and width, if any)."""
    if level == "easy":
        return easy
    if level not in budgets:
        raise ValueError(f"no bot level {level!r}; choose from {', '.join(LEVELS)}")
    width = (widths or {}).get(level)
    return pimc_chooser(game, budgets[level], f"{level}|{seed}", width=width)
