"""bench.spy_shares files each sample under the library of its innermost frame and the path it was on."""

from __future__ import annotations

from bench.spy_shares import library, shares

RAW = [
    "run (asyncio/events.py:80);handle (tables/play/views.py:40);execute (django/db/backends/utils.py:100) 7",
    "run (asyncio/events.py:80);sweep (tables/play/services/clock.py:68);board_from (tables/play/selectors.py:10) 2",
    "select (selectors.py:469) 1",
    " 90",
]


def test_a_sample_counts_for_its_innermost_library_and_for_its_path() -> None:
    by_library, by_path, total = shares(RAW)
    assert total == 10  # the stack with no frames is left out
    assert by_library["Django's ORM and its SQLite backend"] == 7
    assert by_library["the site's own Python"] == 2  # the site's selectors.py, not the standard library's
    assert by_library["the event loop, Daphne, Twisted, autobahn"] == 1
    assert by_path["members' move POSTs"] == 7
    assert by_path["the table clock (bots' moves, sweeps)"] == 2


def test_compiled_templates_count_as_the_board_and_unknown_files_as_other() -> None:
    assert library("root (templates/jinja2/tables/play/board.html:12)") == "the board's Jinja2 templates"
    assert library("thing (somewhere/else.py:3)") == "other"
