"""Time per decision of each bot level: `python -m rules.engine.bench_bots [--rounds N] [GAME:PLAYERS ...]`.

Every seat of a few rounds is played by the level being timed (so the decisions are the ones that level
meets), and each decision is timed on its own: mean, 95th percentile and slowest, in milliseconds.
Single process, single core; other work on the machine slows it (print `/proc/loadavg` beside it).
"""

from __future__ import annotations

import argparse
import importlib
import time
from dataclasses import dataclass

from rules.engine import registry
from rules.engine.search import LEVELS

DEFAULT: tuple[str, ...] = ("sheepshead:3", "sheepshead:5", "hawk:4", "hawsker:2", "puskiyon:4")


@dataclass(frozen=True)
class Timing:
    game: str
    players: int
    level: str
    seconds: tuple[float, ...]

    def __str__(self) -> str:
        ordered = sorted(self.seconds)
        mean = sum(ordered) / len(ordered)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return (f"{self.game:<11} {self.players}p {self.level:<7} {len(ordered):>5} decisions  mean "
                f"{mean * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  max {ordered[-1] * 1000:7.1f} ms")


def time_level(key: str, players: int, level: str, rounds: int) -> Timing:
    game = registry.game(key)
    config = game.SPEC.make_config(players)
    bot = importlib.import_module(f"rules.engine.{key}.bot")
    seats = [bot.chooser(level, f"bench|{seat}") for seat in range(players)]
    seconds: list[float] = []
    for number in range(rounds):
        state = game.new_round(config, f"bench-bots-{number}")
        turn = game.to_act(state)
        while turn is not None:
            view, legal = game.view(state, turn), game.legal_moves(state, turn)
            start = time.perf_counter()
            move = seats[turn](view, legal)
            if len(legal) > 1:  # a forced move is no decision
                seconds.append(time.perf_counter() - start)
            state = game.apply(state, turn, move)
            turn = game.to_act(state)
    return Timing(key, players, level, tuple(seconds) or (0.0,))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", metavar="GAME:PLAYERS", help=f"default: {' '.join(DEFAULT)}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--levels", nargs="*", choices=LEVELS, default=list(LEVELS))
    args = parser.parse_args(argv)
    try:
        with open("/proc/loadavg") as handle:
            print(f"load average: {handle.read().strip()}")
    except OSError:
        pass
    for entry in args.tables or DEFAULT:
        key, _, count = entry.partition(":")
        if key not in registry.GAME_KEYS:
            parser.error(f"no game {key!r}")
        players = int(count) if count else registry.spec(key).default_players
        for level in args.levels:
            print(time_level(key, players, level, args.rounds), flush=True)


if __name__ == "__main__":
    main()
