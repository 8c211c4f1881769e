"""Turning a table into the HTML one viewer may see. Used by the page, the POST replies and the
sockets alike, so every path shows the same thing and hides the same things.

A rendered board is kept in this process under (table, version, viewer): after a move, the POST's reply
and the mover's own socket push are the same board for the same member at the same version, and
rendering it once instead of twice takes a third of the rendering out of every move (see bench/README.md).
It is kept in memory, not in Django's cache: a board is worth keeping only for the moment between the
reply and the push, not a Redis round trip and a pickle each way. When a member's POST and socket reach
different processes, the socket's process renders the board again, from the shared snapshot.
It is safe because every change at a table bumps its version (a new version is a new key), each viewer
has their own key (hidden cards never cross from one member's board to another's), and the version in
the key is read from the database or from a snapshot that a committed transaction left (tables.play.snapshots),
never trusted from a table object that may be out of date.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from django.template import engines
from django.template.backends.jinja2 import Template
from django.utils.translation import get_language

from accounts.models import User
from tables.models import Table
from tables.play import snapshots
from tables.play.selectors import Board, board_for, board_from
from tables.play.snapshots import TableSnapshot

BOARDS_KEPT = 1024  # rendered boards kept (most are used once, moments after they are rendered)
_OPENING_END = ' aria-label="The table">'  # how the board's opening tag ends (jinja2/tables/play/board.html)
_OOB_OPENING_END = ' hx-swap-oob="true" aria-label="The table">'


def render_board(table: Table, user: User, *, oob: bool = False) -> str:
    return board_html(table, user, oob=oob)[0]


def board_html(table: Table, user: User, *, oob: bool = False,
               version_checked: bool = False) -> tuple[str, datetime | None]:
    """The board for `user` and the deadline it shows. `version_checked`: the caller has just read `table`
    from the database, so its version is current; otherwise it is read again before the cache is used."""
    current = table.version if version_checked else (
        Table.objects.filter(pk=table.pk).values_list("version", flat=True).first())
    if not user.is_authenticated or current != table.version:
        return _render(lambda: board_for(table, user), user, oob=oob, key=None)
    snapshot = snapshots.recall(table.code, table.version)
    build = (lambda: board_from(snapshot, user)) if snapshot is not None else (lambda: board_for(table, user))
    return _cached(f"board:{table.code}:{current}:{user.pk}:{get_language()}", build, user, oob=oob)


def snapshot_html(snapshot: TableSnapshot, user: User, *, oob: bool = False) -> tuple[str, datetime | None]:
    """The board for `user` at the snapshot's version, built without reading the database."""
    if not user.is_authenticated:
        return _render(lambda: board_from(snapshot, user), user, oob=oob, key=None)
    key = f"board:{snapshot.table.code}:{snapshot.version}:{user.pk}:{get_language()}"  # one board per language
    return _cached(key, lambda: board_from(snapshot, user), user, oob=oob)


_boards: OrderedDict[str, tuple[str, datetime | None]] = OrderedDict()
_boards_guard = threading.Lock()


def _kept_board(key: str) -> tuple[str, datetime | None] | None:
    with _boards_guard:
        return _boards.get(key)


def _keep_board(key: str, board: tuple[str, datetime | None]) -> None:
    with _boards_guard:
        _boards[key] = board
        while len(_boards) > BOARDS_KEPT:
            _boards.popitem(last=False)


def forget_boards() -> None:
    """Tests that count what a board costs when it is rendered start from none kept."""
    with _boards_guard:
        _boards.clear()


def _cached(key: str, build: Callable[[], Board], user: User, *, oob: bool) -> tuple[str, datetime | None]:
    hit = _kept_board(key)
    if hit is not None:
        return _as_oob(hit[0], oob), hit[1]
    # Right after a move the POST's reply and the mover's socket ask for this board at the same moment, in two
    # threads of this process: the second waits for the first and takes its board instead of rendering it too.
    with _rendering(key):
        hit = _kept_board(key)
        if hit is not None:
            return _as_oob(hit[0], oob), hit[1]
        return _render(build, user, oob=oob, key=key)


def _render(build: Callable[[], Board], user: User, *, oob: bool, key: str | None) -> tuple[str, datetime | None]:
    board = build()
    deadline = board.round.deadline if board.round is not None else None
    html = _board_template().render({"board": board, "oob": False, "user": user})
    if oob and _OPENING_END not in html:  # the template's opening tag changed: render the oob form itself
        return _board_template().render({"board": board, "oob": True, "user": user}), deadline
    if key is not None:
        _keep_board(key, (html, deadline))
    return _as_oob(html, oob), deadline


def _board_template() -> Template:
    """templates/jinja2/tables/play/board.html, through Django's Jinja2 backend (which caches the compiled template)."""
    return engines["jinja2"].get_template("tables/play/board.html")


_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@contextmanager
def _rendering(key: str) -> Iterator[None]:
    with _locks_guard:
        lock = _locks.setdefault(key, threading.Lock())
    try:
        with lock:
            yield
    finally:
        with _locks_guard:
            if not lock.locked():
                _locks.pop(key, None)


def _as_oob(html: str, oob: bool) -> str:
    """The out-of-band form differs only by hx-swap-oob on the opening tag, exactly where the template puts it."""
    return html.replace(_OPENING_END, _OOB_OPENING_END, 1) if oob else html
