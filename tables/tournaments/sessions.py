"""Drawing a session's tables: everyone seated once, as few table-mates as possible met before."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

STARTS = 20
"""Seeded greedy starts, each improved by swaps; the best one wins (the first without any repeat ends the
search). One start gets stuck in a local minimum now and then (a swap of two players cannot untangle three
tables at once); over 100 seeds of 23 Sheepshead players and 3 sessions, 6 starts left 10 repeats, 20 left 1."""

SWEEPS = 50
"""A bound on the rounds of swapping per start, so a draw always ends quickly: each round tries every swap
and makes the best, and in practice the repeats stop falling after a few."""


def pairs_met(sessions: Iterable[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How many times each pair has shared a table over `sessions` (each a list of tables): the `met`
    that `draw_session` avoids."""
    met: dict[frozenset[str], int] = {}
    for tables in sessions:
        for table in tables:
            for a, b in combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def weight(met: Mapping[frozenset[str], int], a: str, b: str) -> int:
    """What seating a and b together again costs: the square of their earlier meetings, so a third meeting
    (4) weighs more than two second ones (1 each) and, where repeats are forced, they spread over many pairs
    instead of one pair sitting together every session."""
    return met.get(frozenset((a, b)), 0) ** 2


def repeats(tables: Sequence[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """The cost a draw minimises (0: no table-mate met before)."""
    return sum(weight(met, a, b) for table in tables for a, b in combinations(table, 2))


def draw_session(
    players: Sequence[str], *, sizes: Sequence[int], met: Mapping[frozenset[str], int], seed: str
) -> list[list[str]]:
    """The session's tables, in the order of `sizes`, each as its seats in order (the first seat deals first).

    Deterministic for the same players (in any order: they are sorted first), sizes, `met` and seed, so a
    draw can be made again from the record and checked."""
    field = sorted(players)
    if len(set(field)) != len(field):
        raise ValueError("a player is entered twice")
    if any(size < 1 for size in sizes) or sum(sizes) != len(field):
        raise ValueError(f"tables of {list(sizes)} do not seat {len(field)} players")
    best: list[list[str]] | None = None
    best_cost = 0
    for start in range(STARTS):
        rng = random.Random(f"{seed}|draw|{start}")
        tables = _improved(_greedy(field, sizes, met, rng), met)
        cost = repeats(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    seats = random.Random(f"{seed}|seats")
    for table in best:
        table.sort()
        seats.shuffle(table)
    return best


def _greedy(field: list[str], sizes: Sequence[int], met: Mapping[frozenset[str], int],
            rng: random.Random) -> list[list[str]]:
    """Players in a seeded order, each to the table with a free seat where they have met the fewest so far
    (ties: the emptiest table, then the first), which spreads the early arrivals before filling any table."""
    order = list(field)
    rng.shuffle(order)
    tables: list[list[str]] = [[] for _ in sizes]
    for player in order:
        free = [i for i, size in enumerate(sizes) if len(tables[i]) < size]
        chosen = min(free, key=lambda i: (sum(weight(met, player, other) for other in tables[i]),
                                          len(tables[i]) - sizes[i], i))
        tables[chosen].append(player)
    return tables


def _improved(tables: list[list[str]], met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Swap two players of different tables while that lowers the repeats, the best swap first, for at most
    SWEEPS rounds; each swap strictly lowers a whole-number cost, so it ends."""

    def cost_at(player: str, table: list[str], without: str) -> int:
        return sum(weight(met, player, other) for other in table if other not in (player, without))

    for _ in range(SWEEPS):
        best_gain, best_swap = 0, None
        for i, j in combinations(range(len(tables)), 2):
            for a_index, a in enumerate(tables[i]):
                for b_index, b in enumerate(tables[j]):
                    gain = (cost_at(a, tables[i], a) + cost_at(b, tables[j], b)
                            - cost_at(a, tables[j], b) - cost_at(b, tables[i], a))
                    if gain > best_gain:
                        best_gain, best_swap = gain, (i, a_index, j, b_index)
        if best_swap is None:
            break
        i, a_index, j, b_index = best_swap
        tables[i][a_index], tables[j][b_index] = tables[j][b_index], tables[i][a_index]
    return tables
