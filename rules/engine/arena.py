"""Bot against bot on duplicate deals: `python -m rules.engine.arena --game G --players N --a strong --b easy`.

Luck of the cards swamps skill, so every deal is played once per seat with bot A in that seat and bot B
in all the others (A holds each hand once, B holds it the other times). A deal's result is the mean over
those rotations of A's result less the average of the B seats at the same table, in the game's unit
(cents, points), signed so that more is better for A: 0 when A and B are the same bot. Games played to
a target (Hawsker, Puskiyon) are duplicated as whole matches, and a match's result is A's share of the
win less the B seats' average share (Hawsker: +1 a win, -1 a loss). The report is the mean per deal
and a normal 95 % confidence interval over the deals (1.96 standard errors).

`--per-deal` scores those games by the round instead: each deal is one round, `new_round(config, seed)`
(a fresh match: nobody has any points, the dealer drawn from the seed), played once per seat as above
and scored in the game's own unit, A's points less the B seats' average, signed so that more is better
for A (in Puskiyon fewer points are better, so it is the B seats' average less A's). A match is won by
points a round, and a round is a finer measure of a bot's play than a match's win share (a match is
about fifteen rounds of luck). Such a row has its own journal (`...-per-deal.tsv`). For the games
played a round at a time (Sheepshead, Hawk) a deal is a round anyway, so the flag changes nothing.

`--all` runs the club's pairings at the club's player counts and prints a markdown table.
`--jobs N` spreads the deals over N processes (the deals are independent; the results are gathered in deal
order, so a run gives the same table whatever N). Every seat's chooser is seeded from `--seed`, so a run
repeats exactly.

`--journal DIR` writes each finished deal to a file per row in DIR and, run again, plays only the deals not
yet there: a row of strong bots takes hours of one core, more than one sitting, and since each deal's result
depends on its seed and the code alone, a row finished in several runs is the row one run would have made.
The file names the engine code that wrote it (a digest of its sources), and a run of other code refuses it
rather than mix two bots' results. `--report` prints the rows as far as their journals go, playing nothing, and
names the code of a journal other code played (a finished row keeps the digest of the code that played it).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.engine import registry
from rules.engine.api import GameModule
from rules.engine.moves import Move
from rules.engine.search import Chooser, View, view_key

BOTS: tuple[str, ...] = ("strong", "normal", "easy", "random")
MATCH_GAMES: frozenset[str] = frozenset({"hawsker", "puskiyon"})
MAX_ROUNDS = 500  # a match that has not ended by then is scored as it stands
TABLE: tuple[tuple[str, int], ...] = (("sheepshead", 3), ("sheepshead", 4), ("sheepshead", 5), ("hawk", 4),
                                      ("hawsker", 2), ("puskiyon", 4))
PAIRINGS: tuple[tuple[str, str], ...] = (("strong", "easy"), ("strong", "normal"), ("normal", "easy"),
                                         ("easy", "random"))


def random_chooser(seed: str) -> Chooser:
    """Uniform over the legal moves, seeded by the view so a replay repeats."""

    def choose(view: View, legal: Sequence[Move]) -> Move:
        return random.Random(f"{seed}|{view_key(view)}").choice(list(legal))

    return choose


def make_chooser(game: str, bot: str, seed: str) -> Chooser:
    """A bot by name: a level, `random`, or for Sheepshead `<level>+<cents>`: that level with every pick decided by
    the pick score made lighter by that many cents (`normal+0`: the pick score itself, no search), or
    `<level>+search`: every pick decided by the level's search (as before the search levels picked lighter), to
    weigh how lightly a level should pick on duplicate deals."""
    if bot == "random":
        return random_chooser(seed)
    module = importlib.import_module(f"rules.engine.{game}.bot")
    level, plus, cents = bot.partition("+")
    if plus:
        if game != "sheepshead":
            raise ValueError(f"{bot!r}: a lighter pick is a Sheepshead bot's only")
        lighter = {} if cents == "search" else dict.fromkeys(range(3, 8), float(cents))
        return module.chooser(level, seed, picks_lighter=lighter)
    return module.chooser(bot, seed)


def bot_name(text: str) -> str:
    """argparse's check of a bot's name: a level or random, or `<level>+<cents>`."""
    level, plus, cents = text.partition("+")
    valid = level in BOTS and not (plus and level == "random")
    try:
        float(cents) if plus and cents != "search" else 0.0
    except ValueError:
        valid = False
    if not valid:
        raise argparse.ArgumentTypeError(
            f"{text!r}: one of {', '.join(BOTS)}, or a level and +cents (normal+150) or +search (normal+search)")
    return text


def play_round(game: GameModule, state: Any, seats: Sequence[Chooser]) -> Any:
    """The round played to its end, each seat's chooser seeing only that seat's view."""
    turn = game.to_act(state)
    while turn is not None:
        state = game.apply(state, turn, seats[turn](game.view(state, turn), game.legal_moves(state, turn)))
        turn = game.to_act(state)
    return state


def deal_scores(key: str, players: int, seats: Sequence[Chooser], seed: str, per_deal: bool = False) -> list[float]:
    """Each seat's result for one deal (round games, or any game `per_deal`: the first round of a fresh match)
    or one match (games to a target)."""
    game = registry.game(key)
    config = game.SPEC.make_config(players)
    if key not in MATCH_GAMES or per_deal:
        return [float(d) for d in game.result(play_round(game, game.new_round(config, seed), seats)).deltas]
    match = game.start_match(config, seed)
    for number in range(MAX_ROUNDS):
        state = play_round(game, game.new_round(config, f"{seed}|{number}", match), seats)
        match = game.next_match(config, match, state)
        if game.match_over(config, match):
            break
    winners = game.match_winners(config, match) if game.match_over(config, match) else []
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


def matches_played(key: str, per_deal: bool) -> bool:
    """Whether a deal of the row is a whole match scored by win share (else a round in the game's unit)."""
    return key in MATCH_GAMES and not per_deal


def duplicate_deal(key: str, players: int, a: str, b: str, seed: str, per_deal: bool = False) -> float:
    """The deal (or match) `seed` played once with A in each seat; the mean of A's rotation scores."""
    spec = registry.spec(key)
    lower = spec.lower_is_better and not matches_played(key, per_deal)  # win shares: more is better
    total = 0.0  # the rotations' scores times (players - 1): whole numbers for points, so A == B sums to exactly 0
    for seat_a in range(players):
        seats = [make_chooser(key, a if s == seat_a else b, f"{seed}|{seat_a}|{s}") for s in range(players)]
        scores = deal_scores(key, players, seats, seed, per_deal)
        value = (players - 1) * scores[seat_a] - (sum(scores) - scores[seat_a])
        total += -value if lower else value
    return total / (players * (players - 1))


@dataclass(frozen=True)
class PickStats:
    """Sheepshead self-play at one level: which deals were leasters, and the picker's result on every picked one.
    A lighter pick lowers the mean result of a pick while it raises what picking earns the table's pickers a deal
    (the mean over all deals, a leaster earning 0), so both are reported; and the picks the easy bot would have
    passed (`light`) are reported apart: whether those hands were worth picking is their own mean."""

    players: int
    bot: str
    deals: int
    picker_cents: tuple[int, ...]  # the picker's result, one entry a picked deal
    light: tuple[bool, ...] = ()  # beside each: the easy bot, shown the picker's view, would have passed

    @property
    def leaster_share(self) -> float:
        return 1 - len(self.picker_cents) / self.deals

    @property
    def picker_mean(self) -> float:
        return sum(self.picker_cents) / max(1, len(self.picker_cents))

    @property
    def picker_wins(self) -> float:
        return sum(1 for cents in self.picker_cents if cents > 0) / max(1, len(self.picker_cents))

    @property
    def picking_per_deal(self) -> tuple[float, float]:
        """What picking earns a deal (leasters count 0), and half its 95 % interval."""
        every = [float(c) for c in self.picker_cents] + [0.0] * (self.deals - len(self.picker_cents))
        return sum(every) / self.deals, half_width(every)

    @property
    def light_cents(self) -> tuple[int, ...]:
        """The picker's result where the easy bot would have passed the hand."""
        return tuple(cents for cents, light in zip(self.picker_cents, self.light, strict=True) if light)

    def line(self) -> str:
        per_deal, spread = self.picking_per_deal
        light = self.light_cents
        light_mean = sum(light) / max(1, len(light))
        return (f"sheepshead {self.players}p {self.bot}: {self.deals} deals, leasters {self.leaster_share:.1%}, "
                f"picker mean {self.picker_mean:+.1f} ± {half_width(self.picker_cents):.1f} cents "
                f"(wins {self.picker_wins:.1%} of picks), picking earns {per_deal:+.1f} ± {spread:.1f} cents a deal; "
                f"{len(light)} picks the easy bot would pass, their mean {light_mean:+.1f} ± {half_width(light):.1f}")


def pick_stats(players: int, bot: str, deals: int, seed: str) -> PickStats:
    """Sheepshead with every seat played by `bot`. The deals depend on the seed alone, not on the bot, so two
    levels' stats with one seed are of the same hands."""
    game = registry.game("sheepshead")
    easy = importlib.import_module("rules.engine.sheepshead.bot").choose
    config = game.SPEC.make_config(players)
    picker_cents: list[int] = []
    light: list[bool] = []

    def watched(chooser: Chooser) -> Chooser:
        def choose(view: View, legal: Sequence[Move]) -> Move:
            move = chooser(view, legal)
            if move.kind == "pick":
                light.append(easy(view, legal).kind != "pick")
            return move

        return choose

    for number in range(deals):
        deal_seed = f"{seed}|picks|{players}|{number}"
        seats = [watched(make_chooser("sheepshead", bot, f"{deal_seed}|{s}")) for s in range(players)]
        state = play_round(game, game.new_round(config, deal_seed), seats)
        if state.picker is not None:
            picker_cents.append(game.result(state).deltas[state.picker])
    return PickStats(players, bot, deals, tuple(picker_cents), tuple(light))


def pick_worth(players: int, bot: str, deals: int, seed: str, margin: float) -> list[tuple[float, float]]:
    """What picking a hand is worth against passing it, under `bot`'s play: for every pick decision met in `bot`
    self-play (the deals of `pick_stats`) whose hand's pick score is within `margin` cents of zero, the rest of the
    deal is played by the same bots twice from there, once after a pick and once after a pass; each is
    (pick score, the deciding seat's result after picking less its result after passing). The seats' choosers
    depend on the view alone, so the two branches differ only by that decision and what follows from it.
    Sheepshead only."""
    game = registry.game("sheepshead")
    score = importlib.import_module("rules.engine.sheepshead.bot").view_pick_score
    config = game.SPEC.make_config(players)
    found: list[tuple[float, float]] = []
    for number in range(deals):
        deal_seed = f"{seed}|picks|{players}|{number}"
        seats = [make_chooser("sheepshead", bot, f"{deal_seed}|{s}") for s in range(players)]
        state = game.new_round(config, deal_seed)
        turn = game.to_act(state)
        while turn is not None:
            view, legal = game.view(state, turn), game.legal_moves(state, turn)
            kinds = {move.kind: move for move in legal}
            if view["phase"] == "pick" and {"pick", "pass"} <= kinds.keys() and abs(value := score(view)) <= margin:
                picked, passed = (game.result(play_round(game, game.apply(state, turn, kinds[k]), seats)).deltas[turn]
                                  for k in ("pick", "pass"))
                found.append((value, float(picked - passed)))
            state = game.apply(state, turn, seats[turn](view, legal))
            turn = game.to_act(state)
    return found


def worth_table(found: Sequence[tuple[float, float]], step: float = 50.0) -> str:
    """`pick_worth`'s gains by pick score, `step` cents a row: hands, mean gain of picking, 95 % interval."""
    rows = ["| pick score | hands | picking less passing (cents) | 95 % interval |", "|---|---|---|---|"]
    buckets: dict[int, list[float]] = {}
    for value, gain in found:
        buckets.setdefault(math.floor(value / step), []).append(gain)
    for key in sorted(buckets):
        gains = buckets[key]
        mean, spread = sum(gains) / len(gains), half_width(gains)
        rows.append(f"| {key * step:+.0f} to {(key + 1) * step:+.0f} | {len(gains)} | {mean:+.1f} | "
                    f"[{mean - spread:+.1f}, {mean + spread:+.1f}] |")
    line = worth_line(found)
    if line is not None:
        rows.append(f"\nA straight line through every hand: picking gains {line[1]:+.2f} cents a point of pick score "
                    f"and breaks even at a pick score of {line[0]:+.0f} (a level picking {-line[0]:+.0f} cents lighter "
                    "than the pick score would pick just the hands worth it).")
    return "\n".join(rows)


def worth_line(found: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """The least-squares line of gain on pick score: (the score where it crosses zero, its slope); None without a
    rising line (too few hands, or picking does not gain more the better the hand)."""
    n = len(found)
    if n < 2:
        return None
    mean_x = sum(x for x, _ in found) / n
    mean_y = sum(y for _, y in found) / n
    spread = sum((x - mean_x) ** 2 for x, _ in found)
    if spread == 0:
        return None
    slope = sum((x - mean_x) * (y - mean_y) for x, y in found) / spread
    if slope <= 0:
        return None
    return mean_x - mean_y / slope, slope


def half_width(values: Sequence[float]) -> float:
    """Half the 95 % interval of the mean: 1.96 standard errors (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    variance = sum((x - mean) ** 2 for x in values) / (n - 1)
    return 1.96 * math.sqrt(variance / n)


@dataclass(frozen=True)
class Outcome:
    game: str
    players: int
    a: str
    b: str
    results: tuple[float, ...]
    seconds: float
    code: str | None = None  # a report's journal played by other code than this: that code's digest
    per_deal: bool = False  # a game to a target scored by the round (`--per-deal`), not by the match

    @property
    def deals(self) -> int:
        return len(self.results)

    @property
    def mean(self) -> float:
        return sum(self.results) / len(self.results)

    @property
    def half_width(self) -> float:
        """Half the 95 % interval: 1.96 standard errors of the mean (0 for fewer than two deals)."""
        return half_width(self.results)

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width

    def row(self) -> str:
        unit = "match" if matches_played(self.game, self.per_deal) else registry.spec(self.game).unit
        if not self.results:
            return f"| {self.game} | {self.players} | {self.a} | {self.b} | 0 | | | {unit} | not played | 0 |"
        low, high = self.interval
        verdict = "A better" if low > 0 else "B better" if high < 0 else "not separated"
        if self.code is not None:
            verdict += f" (played by code {self.code})"
        return (f"| {self.game} | {self.players} | {self.a} | {self.b} | {self.deals} | {self.mean:+.3f} | "
                f"[{low:+.3f}, {high:+.3f}] | {unit} | {verdict} | {self.seconds:.0f} |")


HEADER = ("| game | players | A | B | deals | mean A-B per deal | 95 % interval | unit | verdict | seconds |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def _deal(task: tuple[str, int, str, str, str, bool]) -> tuple[float, float]:
    key, players, a, b, seed, per_deal = task
    start = time.perf_counter()
    result = duplicate_deal(key, players, a, b, seed, per_deal)
    return result, time.perf_counter() - start


ENGINE = Path(__file__).resolve().parent
NOT_PLAY = frozenset({"arena.py", "bench.py", "bench_bots.py"})  # tools around the bots, not what they play


def code_digest(key: str) -> str:
    """A digest of the sources a row's play depends on: the game's package and the engine's shared modules
    (the search, cards, matches), not the tools that run them."""
    digest = hashlib.sha256()
    files = sorted(p for p in ENGINE.glob("*.py") if p.name not in NOT_PLAY) + sorted((ENGINE / key).glob("*.py"))
    for path in files:
        digest.update(path.relative_to(ENGINE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class JournalError(Exception):
    """A journal that belongs to other code or another row."""


@dataclass(frozen=True)
class Journal:
    """One row's finished deals on disk: a header line naming the row and the code, then `number result seconds`
    a line, appended as each deal ends."""

    path: Path
    header: str

    @classmethod
    def for_row(cls, folder: Path, key: str, players: int, a: str, b: str, seed: str,
                per_deal: bool = False) -> Journal:
        """The row's file; a row scored by the round (`--per-deal`) has its own, named so."""
        safe = "".join(ch if ch.isalnum() or ch in "+-_" else "_" for ch in seed)
        mode = "-per-deal" if per_deal else ""
        path = folder / f"{key}-{players}-{a}-{b}-{safe}{mode}.tsv"
        return cls(path, f"# arena {key} {players} {a} {b} seed={seed}{' per-deal' if per_deal else ''} "
                         f"code={code_digest(key)}")

    def read(self, other_code: bool = False) -> tuple[dict[int, tuple[float, float]], str | None]:
        """The deals already played (a line cut short by a killed run is not one), and the digest of the code
        that played them when it is not this code's. A journal of another row is refused, and so is one of other
        code unless `other_code` (a report of what was played, never a row to go on with)."""
        if not self.path.exists():
            return {}, None
        lines = self.path.read_text().split("\n")
        row, _, code = lines[0].partition(" code=")
        mine, _, my_code = self.header.partition(" code=")
        if row != mine or (code != my_code and not other_code):
            raise JournalError(f"{self.path} was written for {lines[0]!r}, not {self.header!r}: the bots' code "
                               "or the row differs; move it aside to start the row again")
        done: dict[int, tuple[float, float]] = {}
        for line in lines[1:]:
            fields = line.split("\t")
            if len(fields) == 3:
                try:
                    done[int(fields[0])] = (float(fields[1]), float(fields[2]))
                except ValueError:
                    continue
        return done, None if code == my_code else code

    def append(self, number: int, result: float, seconds: float) -> None:
        fresh = not self.path.exists()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut_short = False
        if not fresh:
            with self.path.open("rb") as last:
                last.seek(-1, 2)
                cut_short = last.read(1) != b"\n"
        with self.path.open("a") as out:
            if fresh:
                out.write(self.header + "\n")
            elif cut_short:
                out.write("\n")  # after a line a killed run left unfinished
            out.write(f"{number}\t{result!r}\t{seconds:.3f}\n")


def run(key: str, players: int, a: str, b: str, deals: int, seed: str,
        progress: Callable[[int, float], None] | None = None, jobs: int = 1, journal: Path | None = None,
        play: bool = True, per_deal: bool = False) -> Outcome:
    """Deals 0 to `deals` - 1, in `jobs` processes; the results in deal order whatever `jobs` is. With a journal
    folder, the deals it holds are not played again and each new one is added as it ends; `play=False` reports
    the journal as it stands, whatever code played it (the outcome names that code when it is not this).
    `seconds` is the deals' own time, summed. `per_deal`: a game to a target scored by the round (the module's
    docstring); the deals' seeds are the same either way."""
    per_deal = per_deal and key in MATCH_GAMES  # the round games are scored by the round anyway
    book = Journal.for_row(journal, key, players, a, b, seed, per_deal) if journal is not None else None
    done, code = book.read(other_code=not play) if book is not None else ({}, None)
    numbers = [n for n in range(deals) if n not in done] if play else []
    tasks = [(key, players, a, b, f"{seed}|{key}|{players}|{number}", per_deal) for number in numbers]
    if jobs <= 1 or not tasks:
        outcomes = map(_deal, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        outcomes = pool.imap(_deal, tasks, chunksize=max(1, min(8, len(tasks) // (jobs * 8))))
    try:
        for number, (result, seconds) in zip(numbers, outcomes, strict=True):
            done[number] = (result, seconds)
            if book is not None:
                book.append(number, result, seconds)
            if progress is not None:
                progress(len(done), result)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    kept = [done[n] for n in range(deals) if n in done]
    return Outcome(key, players, a, b, tuple(r for r, _ in kept), sum(t for _, t in kept), code, per_deal)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=registry.GAME_KEYS)
    parser.add_argument("--players", type=int)
    parser.add_argument("--a", type=bot_name, default="strong")
    parser.add_argument("--b", type=bot_name, default="easy")
    parser.add_argument("--deals", type=int, default=100, help="deals (matches for Hawsker, Puskiyon) per pairing")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--all", action="store_true", help="the club's pairings and player counts, as a table")
    parser.add_argument("--pairings", nargs="*", help="with --all: pairings as A:B (default: the standard four)")
    parser.add_argument("--games", nargs="*", help="with --all: game:players entries (default: the club's six)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread the deals over")
    parser.add_argument("--pick-stats", type=bot_name, help="Sheepshead self-play: leasters, picker results")
    parser.add_argument("--pick-worth", type=bot_name,
                        help="Sheepshead: picking less passing for hands near the pick line, that level playing on")
    parser.add_argument("--margin", type=float, default=250.0, help="with --pick-worth: pick scores within this")
    parser.add_argument("--journal", type=Path, help="a folder keeping each row's finished deals (resumable)")
    parser.add_argument("--report", action="store_true", help="with --journal: the rows so far, playing nothing")
    parser.add_argument("--per-deal", action="store_true",
                        help="Hawsker, Puskiyon: a deal is one round of a fresh match, scored in points, not a match")
    args = parser.parse_args(argv)
    if args.report and args.journal is None:
        parser.error("--report reads the rows' journals: name a --journal folder")
    options = {"jobs": args.jobs, "journal": args.journal, "play": not args.report, "per_deal": args.per_deal}
    if args.pick_stats:
        print(pick_stats(args.players or 5, args.pick_stats, args.deals, args.seed).line())
        return
    if args.pick_worth:
        found = pick_worth(args.players or 5, args.pick_worth, args.deals, args.seed, args.margin)
        print(f"sheepshead {args.players or 5}p {args.pick_worth}, {args.deals} deals of --seed {args.seed}:")
        print(worth_table(found))
        return
    if args.all:
        pairings = [tuple(p.split(":")) for p in args.pairings] if args.pairings else list(PAIRINGS)
        games = [(g.split(":")[0], int(g.split(":")[1])) for g in args.games] if args.games else list(TABLE)
        print(HEADER, flush=True)
        for key, players in games:
            for a, b in pairings:
                print(run(key, players, a, b, args.deals, args.seed, **options).row(), flush=True)
        return
    if args.game is None:
        parser.error("name a --game (or ask for --all)")
    spec = registry.spec(args.game)
    players = args.players or spec.default_players
    print(HEADER)
    print(run(args.game, players, args.a, args.b, args.deals, args.seed, **options).row())


if __name__ == "__main__":
    main()
