"""Splitting a field into tables: the fewest odd-sized tables, checked against every split of small fields."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.tournaments.table_sizes import SESSION_TABLES, session_table_sizes, table_sizes

RANGES = [(5, 4, 6), (4, 3, 5), (5, 3, 7), (4, 2, 6), (2, 2, 2)]


def every_split(n: int, smallest: int, largest: int, top: int | None = None) -> list[list[int]]:
    """All multisets of sizes in [smallest, largest] summing to n, largest first."""
    if n == 0:
        return [[]]
    top = largest if top is None else top
    return [[size, *rest] for size in range(min(top, n), smallest - 1, -1)
            for rest in every_split(n - size, smallest, size)]


def preference(split: list[int], ideal: int) -> tuple:
    odd = sorted((size for size in split if size != ideal), reverse=True)
    return (len(odd), sum(abs(size - ideal) for size in odd), [-size for size in odd])


def test_23_sheepshead_players_sit_at_three_fives_and_two_fours():
    assert table_sizes(23, ideal=5, smallest=4, largest=6) == [5, 5, 5, 4, 4]
    assert session_table_sizes("sheepshead", 23) == [5, 5, 5, 4, 4]


def fewest_odd_tables(most: int, ideal: int, smallest: int, largest: int) -> list[float]:
    """By dynamic programming over the count, the fewest tables not of the ideal size any split of n has
    (infinity: no split), for every n up to `most`: a check that shares nothing with table_sizes' search."""
    fewest = [0.0] + [float("inf")] * most
    for n in range(1, most + 1):
        for size in range(smallest, min(largest, n) + 1):
            fewest[n] = min(fewest[n], fewest[n - size] + (size != ideal))
    return fewest


@pytest.mark.parametrize(("ideal", "smallest", "largest"), RANGES)
def test_every_field_up_to_200_fills_tables_within_bounds_with_the_fewest_odd_ones(ideal, smallest, largest):
    fewest = fewest_odd_tables(200, ideal, smallest, largest)
    for n in range(1, 201):
        if fewest[n] == float("inf"):
            with pytest.raises(ValueError, match="cannot sit"):
                table_sizes(n, ideal=ideal, smallest=smallest, largest=largest)
            continue
        sizes = table_sizes(n, ideal=ideal, smallest=smallest, largest=largest)
        assert sum(sizes) == n
        assert all(smallest <= size <= largest for size in sizes)
        assert sizes == sorted(sizes, reverse=True)
        assert sum(1 for size in sizes if size != ideal) == fewest[n], (n, sizes)


@pytest.mark.parametrize(("ideal", "smallest", "largest"), RANGES)
def test_small_fields_take_the_best_split_there_is(ideal, smallest, largest):
    for n in range(1, 41):
        splits = every_split(n, smallest, largest)
        if not splits:
            with pytest.raises(ValueError, match="cannot sit"):
                table_sizes(n, ideal=ideal, smallest=smallest, largest=largest)
            continue
        best = min(splits, key=lambda split: preference(split, ideal))
        assert table_sizes(n, ideal=ideal, smallest=smallest, largest=largest) == best, n


def test_ties_prefer_tables_nearer_the_ideal_then_larger_ones():
    # Ten at Hawk: two fives or a four and two threes, two odd tables each, both one off: the larger tables win.
    assert table_sizes(10, ideal=4, smallest=3, largest=5) == [5, 5]
    # Eight around 6 (2..9): one eight or a six and a two, one odd table each: the eight is nearer the ideal.
    assert table_sizes(8, ideal=6, smallest=2, largest=9) == [8]
    # Twelve at Sheepshead: two sixes beat three fours (two odd tables, not three).
    assert table_sizes(12, ideal=5, smallest=4, largest=6) == [6, 6]
    # A table of two is fine where the bounds allow it.
    assert table_sizes(2, ideal=4, smallest=2, largest=6) == [2]


def test_impossible_fields_are_refused_plainly():
    for n in (1, 2, 3, 7):
        with pytest.raises(ValueError, match=f"{n} entrants cannot sit at tables of 4 to 6"):
            table_sizes(n, ideal=5, smallest=4, largest=6)
    with pytest.raises(ValueError, match="entrants"):
        table_sizes(0, ideal=5, smallest=4, largest=6)
    with pytest.raises(ValueError, match="smallest <= ideal <= largest"):
        table_sizes(10, ideal=7, smallest=4, largest=6)
    with pytest.raises(ValueError, match="Swiss"):
        session_table_sizes("hawsker", 8)


def test_the_clubs_sizes_keep_near_each_games_default():
    assert {game: (r.ideal, r.smallest, r.largest) for game, r in SESSION_TABLES.items()} == {
        "sheepshead": (5, 4, 6), "hawk": (4, 3, 5), "puskiyon": (4, 3, 5),
    }
    assert Counter(session_table_sizes("hawk", 23)) == Counter({4: 5, 3: 1})
    assert session_table_sizes("puskiyon", 9) == [5, 4]
