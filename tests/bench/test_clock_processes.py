"""bench.clock_processes counts the searches several processes ran from their logs: each search in the measured window
once, and as a duplicate when any process had searched the same table at the same version and seat before, in the
window or before it."""

from __future__ import annotations

from bench.clock_processes import count_searches
from bench.counted_searches import LINE


def line(at: float, table: int, version: int, seat: int) -> str:
    return "INFO bench.searches " + LINE % (at, table, version, seat)


def test_searches_are_counted_in_their_window_and_a_repeat_by_any_process_is_a_duplicate() -> None:
    one = "\n".join([
        line(99.0, 1, 4, 2),  # before the window: not counted, but searched
        line(100.5, 1, 5, 3),
        "table clock: 3 searches (0.4 s of CPU) and 0 waits in the last 60 s; budget 1.00 s",
        line(101.0, 2, 7, 1),
        line(111.0, 2, 9, 1),  # after the window
    ])
    two = "\n".join([
        line(100.2, 1, 4, 2),  # the same search as the first process's, before its window
        line(100.8, 1, 5, 3),  # the first process's second, again
        line(101.5, 3, 2, 0),
        line(102.0, 3, 2, 1),  # another seat: another search
    ])

    counted = count_searches([one, two], start=100.0, end=110.0)

    assert counted.searches == 6
    assert counted.duplicates == 2
    assert counted.by_process == (2, 4)
    assert count_searches([one], start=100.0, end=110.0).duplicates == 0
