"""Swiss rounds for the two-player game (Hawsker): pairing by score, no pairing twice while the round can do
without, the bye to the lowest-ranked player who has not had one, and who moves (deals) first kept even."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

WIN_POINTS = 1
"""A won game. Hawsker has no drawn game (equal scores past the target play another round), so a game gives
1 or 0."""

BYE_POINTS = WIN_POINTS
"""The bye counts as a win, as in most Swiss rules: the player did not choose to sit out, and scoring it lower
would punish the lowest-ranked (who get it) for the field's odd count. The ranking's Buchholz gives a bye
nothing, so a bye does not also lift its player's tie-break."""

COLOUR_LIMIT = 2
"""How far a player's firsts may run ahead of their seconds (or behind) before two such players may no longer
meet: two players both at the limit on the same side would put one of them past it."""


@dataclass(frozen=True)
class Standing:
    player: str
    score: int
    buchholz: int = 0


@dataclass(frozen=True)
class Round:
    """Each pair as (first, second): the first deals (moves) first. `bye` is None in an even field."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None


@dataclass(frozen=True)
class Game:
    first: str
    second: str
    winner: str


@dataclass(frozen=True)
class Tallies:
    """What the next round's pairing needs of the rounds so far."""

    played: dict[frozenset[str], int]
    byes: dict[str, int]
    first_mover: dict[str, int]


def tallies(rounds: Iterable[Round]) -> Tallies:
    played: dict[frozenset[str], int] = {}
    byes: dict[str, int] = {}
    first: dict[str, int] = {}
    for one in rounds:
        for a, b in one.pairs:
            pair = frozenset((a, b))
            played[pair] = played.get(pair, 0) + 1
            first[a] = first.get(a, 0) + 1
        if one.bye is not None:
            byes[one.bye] = byes.get(one.bye, 0) + 1
    return Tallies(played=played, byes=byes, first_mover=first)


def swiss_round(
    standings: Sequence[Standing],
    *,
    played: Mapping[frozenset[str], int],
    byes: Mapping[str, int],
    first_mover: Mapping[str, int],
    seed: str,
) -> Round:
    """The next round. Players rank by score, ties in the order given (pass `standings_after`'s ranking).

    What gives way to what, most binding first: the bye goes to a player with the fewest byes (the lowest
    ranked of them that lets the rest pair best); no pairing repeats while any repeat-free pairing of the
    round exists; no two players meet who both stand COLOUR_LIMIT firsts ahead (or behind) while the round can
    do without; then score: a backtracking search over the ranked list, as Swiss programs do, takes the first
    pairing in order of preference, which pairs the top half of each score group with its bottom half and
    floats whoever is left over down to the next group."""
    ranked = [one.player for one in sorted(standings, key=lambda one: -one.score)]
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player stands twice in the standings")
    if len(ranked) < 2:
        raise ValueError("a Swiss round needs two players")
    score = {one.player: one.score for one in standings}
    games = {player: 0 for player in ranked}
    for pair, count in played.items():
        for player in pair:
            if player in games:
                games[player] += count
    balance = {player: 2 * first_mover.get(player, 0) - games[player] for player in ranked}

    if len(ranked) % 2:
        fewest = min(byes.get(player, 0) for player in ranked)
        candidates = [player for player in reversed(ranked) if byes.get(player, 0) == fewest]
    else:
        candidates = [None]
    pairing, bye = _search(ranked, candidates, score, played, balance)
    pairs = tuple(_colours(a, b, balance, first_mover, seed) for a, b in pairing)
    return Round(pairs=pairs, bye=bye)


def _search(
    ranked: list[str],
    candidates: list[str | None],
    score: Mapping[str, int],
    played: Mapping[frozenset[str], int],
    balance: Mapping[str, int],
) -> tuple[list[tuple[str, str]], str | None]:
    """Repeat-free with colours kept, then repeat-free, then one repeat with colours kept, one repeat, and so
    on: the first of these any bye candidate allows (a pair met twice before counts as two repeats)."""
    for budget in range(sum(played.values()) + 1):
        for keep_colours in (True, False):
            for bye in candidates:
                field = [player for player in ranked if player != bye]
                found = _Pairer(field, score, played, balance, keep_colours=keep_colours).pair(budget)
                if found is not None:
                    return found, bye
    raise AssertionError("every field of an even count pairs when repeats are allowed")


class _Pairer:
    """A depth-first search over the ranked list: the highest unpaired player takes the most preferred
    opponent the rest of the round allows. Dead ends are remembered by the set of players left (and the
    repeats still allowed), so each is explored once."""

    def __init__(self, field: list[str], score: Mapping[str, int], played: Mapping[frozenset[str], int],
                 balance: Mapping[str, int], *, keep_colours: bool) -> None:
        self.field = field
        self.score = [score[player] for player in field]
        n = len(field)
        self.cost = [[played.get(frozenset((a, b)), 0) for b in field] for a in field]
        self.clash = [[keep_colours and _clash(balance[a], balance[b]) for b in field] for a in field]
        self.dead: set[tuple[int, int]] = set()
        self.n = n

    def pair(self, budget: int) -> list[tuple[str, str]] | None:
        found = self._pair(tuple(range(self.n)), budget)
        if found is None:
            return None
        return [(self.field[a], self.field[b]) for a, b in found]

    def _preferred(self, left: tuple[int, ...]) -> list[int]:
        """The top player's opponents in order: its own score group from the top of the group's lower half
        down, then the group's upper half, then lower groups by rank."""
        top = left[0]
        group = [i for i in left if self.score[i] == self.score[top]]
        half = len(group) // 2
        below = [i for i in left if self.score[i] < self.score[top]]
        return group[half:] + group[1:half][::-1] + below if half else below

    def _pair(self, left: tuple[int, ...], budget: int) -> list[tuple[int, int]] | None:
        if not left:
            return [] if budget == 0 else None
        key = (sum(1 << i for i in left), budget)
        if key in self.dead:
            return None
        top = left[0]
        for other in self._preferred(left):
            cost = self.cost[top][other]
            if cost > budget or self.clash[top][other]:
                continue
            rest = self._pair(tuple(i for i in left if i not in (top, other)), budget - cost)
            if rest is not None:
                return [(top, other), *rest]
        self.dead.add(key)
        return None


def _clash(a: int, b: int) -> bool:
    return abs(a) >= COLOUR_LIMIT and abs(b) >= COLOUR_LIMIT and (a > 0) == (b > 0)


def _colours(a: str, b: str, balance: Mapping[str, int], first_mover: Mapping[str, int], seed: str) -> tuple[str, str]:
    """Whoever has moved first less, counted as firsts minus seconds, moves first; then whoever has fewer firsts
    (a bye leaves the balance alone); then a coin thrown from the seed and the pair, so the same round gives the
    same colours."""
    key_a = (balance[a], first_mover.get(a, 0))
    key_b = (balance[b], first_mover.get(b, 0))
    if key_a != key_b:
        return (a, b) if key_a < key_b else (b, a)
    low, high = sorted((a, b))
    return (low, high) if random.Random(f"{seed}|first|{low}|{high}").random() < 0.5 else (high, low)


def standings_after(players: Iterable[str], *, games: Iterable[Game], byes: Iterable[str], seed: str) -> list[Standing]:
    """The ranking: score (WIN_POINTS a win, BYE_POINTS a bye); then Buchholz, the opponents' scores summed (a
    stronger schedule ranks higher); then the direct encounter, the points scored against the others still
    tied (a mini-table, so it also settles three-way ties); then the seed."""
    field = sorted(set(players))
    score = dict.fromkeys(field, 0)
    opponents: dict[str, list[str]] = {player: [] for player in field}
    results = list(games)
    for game in results:
        if game.winner not in (game.first, game.second):
            raise ValueError(f"{game.winner} did not play {game.first} against {game.second}")
        score[game.winner] += WIN_POINTS
        opponents[game.first].append(game.second)
        opponents[game.second].append(game.first)
    for player in byes:
        score[player] += BYE_POINTS
    buchholz = {player: sum(score[other] for other in opponents[player]) for player in field}

    def direct(player: str) -> int:
        tied = {other for other in field if (score[other], buchholz[other]) == (score[player], buchholz[player])}
        return sum(WIN_POINTS for game in results
                   if game.winner == player and {game.first, game.second} <= tied)

    def drawn(player: str) -> str:
        return hashlib.sha256(f"{seed}|rank|{player}".encode()).hexdigest()

    ranked = sorted(field, key=lambda player: (-score[player], -buchholz[player], -direct(player), drawn(player)))
    return [Standing(player=player, score=score[player], buchholz=buchholz[player]) for player in ranked]


def round_robin(players: Sequence[str], *, seed: str) -> list[list[tuple[str, str]]]:
    """Every pair once, by the circle method: one seat stays, the others turn one place a round. In an odd
    field the staying seat is empty, and whoever faces it has the round's bye (the one player missing from that
    round's pairs). Who moves first: across the circle, the upper row's player; against the staying seat, each
    in turn. That gives everyone the same number of firsts to within one. Seats are drawn from the seed."""
    field = sorted(players)
    if len(set(field)) != len(field):
        raise ValueError("a player is entered twice")
    if len(field) < 2:
        raise ValueError("a round robin needs two players")
    random.Random(f"{seed}|circle").shuffle(field)
    seats: list[str | None] = [None, *field] if len(field) % 2 else field[:]
    n = len(seats)
    rounds: list[list[tuple[str, str]]] = []
    for number in range(n - 1):
        pairs: list[tuple[str, str]] = []
        fixed, last = seats[0], seats[n - 1]
        if fixed is not None and last is not None:
            pairs.append((fixed, last) if number % 2 == 0 else (last, fixed))
        for board in range(1, n // 2):
            upper, lower = seats[board], seats[n - 1 - board]
            assert upper is not None and lower is not None
            pairs.append((upper, lower))
        rounds.append(pairs)
        seats = [seats[0], seats[n - 1], *seats[1 : n - 1]]
    return rounds
