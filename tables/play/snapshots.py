"""What a table is at one version, as every viewer's board is built from it, kept in this process.

Why: after a move, the mover's reply and every socket at the table build a board for the same version
of the same table. The transaction that made that version already holds all of it (the table, its seats,
the match, the round and the engine state), so it leaves a snapshot here when it commits, and boards for
that version are built from memory instead of each reading the same rows again.

Safe because a version names exactly one state of a table (every change bumps it), a snapshot is kept
only once its transaction has committed, and nothing in it is changed after it is made: boards copy what
they show. It holds every seat's cards, like the database row it stands for, and never leaves the
server: each viewer's board still takes only `view(state, their seat)` from it.

With several processes (REDIS_URL set) a snapshot is also put in the shared cache, so the process holding
another member's socket builds their board from it instead of reading the table again. The members in it
carry their id and names only (no password hash or e-mail goes to the cache).
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict
from copy import copy
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.core.cache import cache

import accounts.models
import rules.engine
import tables.models
from accounts.models import User
from tables.models import Match, Round, Seat, Table

KEPT = 512  # versions kept: one a move, used within moments (512 is seconds at a hundred moves a second)
SHARED_SECONDS = 60


def _pickled_sources() -> tuple[Path, ...]:
    """Every file defining a class of this project that a shared snapshot pickles: the engine (its states),
    the models and this module (tests/tables/play/test_backstops.py checks a real snapshot against this list)."""
    files = [path for package in (rules.engine, tables.models) for path in Path(package.__file__).parent.rglob("*.py")]
    return tuple(sorted({path.resolve() for path in [*files, Path(accounts.models.__file__), Path(__file__)]}))


def _release(sources: tuple[Path, ...]) -> str:
    """The code that pickles and unpickles shared snapshots, named by the project's version, Django's and
    Python's, and a hash of the source of every class in a snapshot. It is part of the shared key, so in a
    rolling deploy the processes of two releases never unpickle each other's snapshots (whose classes may
    differ): each reads its own or the database. It changes with any edit to those files, version or not."""
    try:
        version = metadata.version("cardclub")
    except metadata.PackageNotFoundError:
        version = "unversioned"
    digest = hashlib.sha256(f"{version} django {django.get_version()} python {sys.version_info[:2]}".encode())
    root = Path(__file__).resolve().parents[2]  # the project's root: tables/play/snapshots.py
    for path in sources:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


RELEASE_SOURCES = _pickled_sources()
RELEASE = _release(RELEASE_SOURCES)


@dataclass(frozen=True)
class TableSnapshot:
    table: Table
    seats: list[Seat]
    match: Match | None
    round: Round | None
    state: Any  # the engine state of `round`, parsed (None without a round)
    rematch: Any = None  # a finished table's rematch (tables.models.Rematch), read with it (selectors.snapshot_of)

    @property
    def version(self) -> int:
        return self.table.version


def make(*, table: Table, seats: list[Seat], match: Match | None, round: Round | None,
         state: Any) -> TableSnapshot:
    """A snapshot of copies, so nothing the caller does to its objects later shows in it, and without the
    related rows they may have picked up (a table's creator, a round's match): only what boards show."""
    held = []
    for seat in seats:
        member = seat.user if seat.user_id is not None else None  # read before the copy forgets it
        seat = _bare(seat)
        if member is not None:
            # and the member's table options the board reads (tables.play.autoplay), as the version found them
            seat.user = User(pk=member.pk, username=member.username, display_name=member.display_name,
                             auto_play_forced=member.auto_play_forced, premoves=member.premoves)
        held.append(seat)
    return TableSnapshot(table=_bare(table), seats=held, match=_bare(match), round=_bare(round), state=state)


def _bare(row: Any) -> Any:
    if row is None:
        return None
    row = copy(row)  # a model's copy has its own related-object cache, which is emptied here
    row._state.fields_cache = {}
    return row


_kept: OrderedDict[tuple[str, int], TableSnapshot] = OrderedDict()  # by (table code, version)
_guard = threading.Lock()


def remember(snapshot: TableSnapshot) -> None:
    _keep((snapshot.table.code, snapshot.version), snapshot)
    if settings.TABLE_SNAPSHOTS_SHARED:
        cache.set(_shared_key(snapshot.table.code, snapshot.version), snapshot, SHARED_SECONDS)


def _keep(key: tuple[str, int], snapshot: TableSnapshot) -> None:
    with _guard:
        _kept[key] = snapshot
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def _shared_key(code: str, version: int) -> str:
    return f"snapshot:{RELEASE}:{code}:{version}"


def recall_here(code: str, version: int) -> TableSnapshot | None:
    """Only what this process keeps: never waits on the shared cache (safe on the event loop)."""
    with _guard:
        return _kept.get((code, version))


def recall(code: str, version: int) -> TableSnapshot | None:
    """Keyed by the table's code, not its id: codes are random, so a table made after a test database
    was emptied can never be taken for one that stood there before."""
    found = recall_here(code, version)
    if found is None and settings.TABLE_SNAPSHOTS_SHARED:
        found = cache.get(_shared_key(code, version))
        if found is not None:
            _keep((code, version), found)
    return found


def forget_here() -> None:
    """Tests only (as `rendering.forget_boards`): this process keeps no snapshot, so the next board or
    recall reads the shared cache or the database, as another process would."""
    with _guard:
        _kept.clear()
