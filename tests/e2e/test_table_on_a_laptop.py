"""The table on a laptop (issue 41, item 1): at 1366 x 768, 1280 x 720 and 1920 x 1080, at every one of the
member's turns in a whole round of each game, the trick or pile, the hand, the prompt and the move buttons lie on
the first screen without scrolling, and the page never scrolls by itself (the phone test's method,
tests/e2e/first_screen.py, at these sizes).

Each game is played at a table of its own opened from the lobby's form, with bots, by a member of the test's own.
One game at one size per test, so that xdist spreads them. Screenshots of each game at each size, at the member's
first turn and when the round is over (the first screen, as the member sees it), are left in var/screenshots/ for
a person to look at.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import member_page, new_member
from tests.e2e.first_screen import (
    GAMES,
    all_needed_on_first_screen,
    not_scrolled,
    play_to_the_end_of_the_round,
    wait_for_my_turn,
)
from tests.e2e.test_table_life import open_paced_table

pytestmark = pytest.mark.e2e

# The issue's sizes: a common laptop, a small one, a desktop monitor. The bots' speed: brisk at the issue's own
# laptop (boards pushed one bot move at a time over the socket, each swapped in, as at a paced table), instant at
# the others (one board for the bots' moves, the round over sooner), so the module's run stays short.
SIZES = {
    "1366x768": ({"width": 1366, "height": 768}, "brisk"),
    "1280x720": ({"width": 1280, "height": 720}, "instant"),
    "1920x1080": ({"width": 1920, "height": 1080}, "instant"),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_whole_round_on_a_laptop_shows_the_trick_the_hand_and_the_moves_without_scrolling(
        browser, server, e2e_env, shots, game: str, players: int, size: str) -> None:
    viewport, speed = SIZES[size]
    page = member_page(browser, server, new_member(e2e_env))
    page.set_viewport_size(viewport)
    open_paced_table(page, server, game, players, bots=True, speed=speed, turn_seconds=600)
    wait_for_my_turn(page)
    page.reload()  # the page as the laptop loads it, scrolled nowhere
    wait_for_my_turn(page)
    all_needed_on_first_screen(page, " as the page loaded")
    page.screenshot(path=str(shots / f"laptop-{game}-{size}-my-turn.png"))

    play_to_the_end_of_the_round(page, first_screen=True)
    not_scrolled(page, " at the round's end")
    page.screenshot(path=str(shots / f"laptop-{game}-{size}-round-over.png"))
    page.context.close()
