"""How fast a table moves by itself: bots' moves, the pause on a finished trick, and when absence counts.

Every figure a person notices at the table is here, so the sweep (tables.play.services.clock), the board and
the bench agree on them. The seconds per speed follow what members know from Board Game Arena: a bot's card
comes a beat after the one before it, and a finished trick stays on the table long enough to see who took it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from django.conf import settings


class Pace(NamedTuple):
    move: float  # seconds from one bot move to the next
    trick: float  # seconds a finished trick stays on the table before the next card


# A finished trick of four to six cards takes a couple of seconds to read (whose card, which took it, the points):
# until issue 41 it stayed 1.0-1.2 s (measured in Chromium: 1.1 s brisk, 1.2 s normal), gone before it was read.
# An `instant` table pauses for nothing here: each member's page holds the finished trick for the member's own
# `TRICK_PAUSES` (static/js/motion.js), as it does at every table whose pace is shorter than the member's choice.
PACES: dict[str, Pace] = {
    "instant": Pace(0.0, 0.0),
    "brisk": Pace(0.4, 1.8),
    "normal": Pace(0.8, 2.5),
    "slow": Pace(1.5, 3.5),
}
# How long a member's page keeps a finished trick in sight before showing the next board (accounts.User's
# `trick_pause`), in seconds. The table's pace is the least any page shows it; a member's own card (their next
# lead) replaces it at once, so a longer choice never holds up the member's own turn.
TRICK_PAUSES: dict[str, float] = {"short": 1.2, "normal": 2.5, "long": 4.0}
# The least time each move a page replays (several moves that reached it in one board, or while a finished trick
# was held) stays in sight, in seconds: every bot card is seen on its own, even at an `instant` table.
REPLAYED_MOVE = 0.35
GRACE_RANGE = (0, 120)  # seconds a member may be offline before the bot plays their turns (a table option)
OFFLINE_AFTER = timedelta(seconds=2)  # a closed page is a reload for this long; after it, the member is offline
FIRST_LOOK = timedelta(seconds=30)  # a member seated at a new table has this long to open its page
SOCKET_STALE = timedelta(seconds=75)  # a socket not heard of for this long belonged to a process that died
HEARTBEAT_SECONDS = 25.0  # how often a live socket says so (well inside SOCKET_STALE)


def pace(speed: str) -> Pace:
    return PACES.get(speed, PACES["normal"])


def delay(speed: str, *, closed_trick: bool) -> timedelta:
    """How long after the last move the next bot move comes."""
    chosen = pace(speed)
    return timedelta(seconds=chosen.trick if closed_trick else chosen.move)


def trick_pause_ms(choice: str) -> int:
    """A member's `trick_pause` as the milliseconds their page holds a finished trick (unknown: the normal one)."""
    return round(1000 * TRICK_PAUSES.get(choice, TRICK_PAUSES["normal"]))


def close_after() -> timedelta:
    """How long every member of a running table may be offline before the bots finish the round and it closes."""
    return timedelta(minutes=settings.TABLE_OFFLINE_CLOSE_MINUTES)


# Correspondence tables (issue 44): the hours a member may take for a move, as the table's creator chooses them. Lichess
# and Board Game Arena offer a day to a few; half a day suits two members who play over a lunch and an evening.
MOVE_HOURS_CHOICES = (12, 24, 48, 72)
