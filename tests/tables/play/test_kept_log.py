"""The board's log is translated a line at a time and kept (tables.play.selectors.kept_log_lines): whatever order
the versions and viewers of a round come in, each board's log is exactly the one translated afresh for that
viewer, in their language, with the seats' names as they are, and no seat's own lines reach another viewer."""

from __future__ import annotations

from copy import copy

import pytest
from django.utils import translation

from rules.engine import registry
from tables.models import Round
from tables.play.selectors import forget_logs, kept_log_lines, log_lines
from tests.tables.play.test_move_log import played_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _none_kept() -> None:
    forget_logs()


def at(rnd: Round, lines: int) -> Round:
    """The round as a board of an earlier version saw it: the first `lines` lines of its log."""
    earlier = copy(rnd)
    earlier.log = rnd.log[:lines]
    return earlier


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_every_version_and_viewer_reads_the_log_a_fresh_translation_gives(game, make_member) -> None:
    # The longer of two rounds: a deal is random, and a Hawsker round can end after six lines (a player stuck early).
    rnd = max(played_rounds(game, make_member, rounds=2), key=lambda played: len(played.log))
    code = rnd.match.table.code
    players = len(rnd.match.table.seats.all())
    names = ["Alice", *(f"Bot {n + 1}" for n in range(1, players))]
    viewers = [None, *range(players)]
    assert len(rnd.log) >= 6
    for members in ({0}, {0, 1}):  # {0, 1}: the bot's moves in seat 1 carry the note of a member's seat
        for lines in range(len(rnd.log) + 1):  # version after version, every viewer's board at each
            for viewer in viewers:
                earlier = at(rnd, lines)
                assert kept_log_lines(code, earlier, viewer, names, members) == log_lines(
                    earlier, viewer, names, members)
    for lines in (len(rnd.log) // 2, 3, len(rnd.log)):  # a board of an older version after newer ones
        for viewer in viewers:
            earlier = at(rnd, lines)
            assert kept_log_lines(code, earlier, viewer, names, {0}) == log_lines(earlier, viewer, names, {0})


def test_the_kept_log_follows_the_language_and_the_names(make_member) -> None:
    [rnd] = played_rounds("hawk", make_member)
    code = rnd.match.table.code
    names = ["Alice", "Bot 2", "Bot 3", "Bot 4"]
    english = kept_log_lines(code, rnd, 0, names, {0})
    with translation.override("de"):
        german = kept_log_lines(code, rnd, 0, names, {0})
        assert german == log_lines(rnd, 0, names, {0})
    assert german != english
    renamed = ["Alicia", *names[1:]]
    assert kept_log_lines(code, rnd, 1, renamed, {0}) == log_lines(rnd, 1, renamed, {0})
    assert kept_log_lines(code, rnd, 0, names, {0}) == english


def test_a_seats_own_lines_never_reach_another_viewer(make_member) -> None:
    """Puskiyon's draws: the drawer reads the card, everyone else "drew a card"."""
    [rnd] = played_rounds("puskiyon", make_member)
    code = rnd.match.table.code
    names = ["Alice", "Bot 2", "Bot 3", "Bot 4"]
    own = [line for line in rnd.log if line.get("own")]
    assert own
    seats = {int(viewer) for line in own for viewer in line["own"]}
    for seat in seats:  # the seat reads its own lines first, then everyone else asks for the same round
        kept_log_lines(code, rnd, seat, names, {0})
        for viewer in [None, *range(4)]:
            assert kept_log_lines(code, rnd, viewer, names, {0}) == log_lines(rnd, viewer, names, {0})
