"""The tournament page's one message, on play's primitives (tables.play.push): something it shows changed.

The message names only the tournament; each socket then reads and renders the page's public part itself
(tables.tournaments.consumers), so a burst of results is a burst of small messages, never a stale fragment, and a
change that rolled back announces nothing (it is sent from `transaction.on_commit`).
"""

from __future__ import annotations

from tables.play import push


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    push.send_on_commit(tournament_group(tournament_id), {"type": "tournament.changed"})
