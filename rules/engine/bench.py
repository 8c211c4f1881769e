"""Engine benchmark: `python -m rules.engine.bench GAME [--rounds N] [--players P ...]`.

Plays complete rounds for each player count, first with uniformly random legal moves, then with
every seat played by the game's bot (which sees only its own seat's view), and prints rounds and
moves a second. Single process, single core.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from rules.engine import registry
from rules.engine.api import GameModule


@dataclass(frozen=True)
class BenchLine:
    game: str
    players: int
    mode: str
    rounds: int
    moves: int
    seconds: float

    def __str__(self) -> str:
        return (
            f"{self.game:<11} {self.players}p {self.mode:<6} {self.rounds:>6} rounds "
            f"{self.rounds / self.seconds:>10,.0f} rounds/s {self.moves / self.seconds:>12,.0f} moves/s"
        )


def play_random(game: GameModule, players: int, rounds: int, seed: int = 0) -> tuple[int, float]:
    config = game.SPEC.make_config(players)
    pick = random.Random(seed).choice
    moves = 0
    start = time.perf_counter()
    for number in range(rounds):
        state = game.new_round(config, f"bench-{number}")
        seat = game.to_act(state)
        while seat is not None:
            state = game.apply(state, seat, pick(game.legal_moves(state, seat)))
            moves += 1
            seat = game.to_act(state)
        game.result(state)
    return moves, time.perf_counter() - start


def play_bots(game: GameModule, key: str, players: int, rounds: int) -> tuple[int, float]:
    config = game.SPEC.make_config(players)
    choose = registry.bot(key).choose
    moves = 0
    start = time.perf_counter()
    for number in range(rounds):
        state = game.new_round(config, f"bench-{number}")
        seat = game.to_act(state)
        while seat is not None:
            state = game.apply(state, seat, choose(game.view(state, seat), game.legal_moves(state, seat)))
            moves += 1
            seat = game.to_act(state)
        game.result(state)
    return moves, time.perf_counter() - start


def run(key: str, rounds: int, players: list[int] | None, bot_rounds: int) -> list[BenchLine]:
    game = registry.game(key)
    playable = range(game.SPEC.min_players, game.SPEC.max_players + 1)
    counts = [count for count in players if count in playable] if players else list(playable)
    lines = []
    for count in counts:
        moves, seconds = play_random(game, count, rounds)
        lines.append(BenchLine(key, count, "random", rounds, moves, seconds))
        print(lines[-1], flush=True)
        if bot_rounds:
            moves, seconds = play_bots(game, key, count, bot_rounds)
            lines.append(BenchLine(key, count, "bots", bot_rounds, moves, seconds))
            print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = ", ".join(registry.GAME_KEYS)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {names} (default: all)")
    parser.add_argument("--rounds", type=int, default=2000, help="random-play rounds per player count")
    parser.add_argument("--bot-rounds", type=int, default=200, help="bot-play rounds per player count")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: the game's range)")
    args = parser.parse_args(argv)
    unknown = [key for key in args.games if key not in registry.GAME_KEYS]
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; choose from {', '.join(registry.GAME_KEYS)}")
    for key in args.games or registry.GAME_KEYS:
        run(key, args.rounds, args.players, args.bot_rounds)


if __name__ == "__main__":
    main()
