"""What a table is at one version, as every viewer's board is built from it, kept in this process.

Why: after a move, the mover's reply and every socket at the table build a board for the same version
of the same table. The transaction that made that version already holds all of it (the table, its seats,
the match, the round and the engine state), so it leaves a snapshot here when it commits, and boards for
that version are built from memory instead of each reading the same rows again.

Safe because a version names exactly one state of a table (every change bumps it), a snapshot is kept
only once its transaction has committed, and nothing in it is changed after it is made: boards copy what
they show. It holds every seat's cards, like the database row it stands for, and never leaves the
server: each viewer's board still takes only `view(state, their seat)` from it. Another process that has
not seen the version reads the database, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tables.models import Match, Round, Seat, Table

KEPT = 4096  # versions kept (a few per running table: boards are built within moments of the change)


@dataclass(frozen=True)
class TableSnapshot:
    table: Table
    seats: list[Seat]
    match: Match | None
    round: Round | None
    state: Any  # the engine state of `round`, parsed (None without a round)
    recent: list[tuple[str, int]]  # (actor, seat) of the round's latest moves, newest first (at most 12)

    @property
    def version(self) -> int:
        return self.table.version


_kept: OrderedDict[tuple[str, int], TableSnapshot] = OrderedDict()  # by (table code, version)
_guard = threading.Lock()


def remember(snapshot: TableSnapshot) -> None:
    with _guard:
        _kept[(snapshot.table.code, snapshot.version)] = snapshot
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def recall(code: str, version: int) -> TableSnapshot | None:
    """Keyed by the table's code, not its id: codes are random, so a table made after a test database
    was emptied can never be taken for one that stood there before."""
    with _guard:
        return _kept.get((code, version))


def forget(key: tuple[str, int]) -> None:
    """Drop one (code, version), so that a board is built from the database (tests compare the two)."""
    with _guard:
        _kept.pop(key, None)
