"""Turning a table into the HTML one viewer may see. Used by the page, the POST replies and the
sockets alike, so every path shows the same thing and hides the same things.

A rendered board is kept in this process under (table, version, viewer, language): after a move, the POST's reply
and the mover's own socket push are the same board for the same member at the same version, and
rendering it once instead of twice takes a third of the rendering out of every move (see bench/README.md).
It is kept in memory, not in Django's cache: a board is worth keeping only for the moment between the
reply and the push, not a Redis round trip and a pickle each way. When a member's POST and socket reach
different processes, the socket's process renders the board again, from the shared snapshot.
It is safe because every change at a table bumps its version (a new version is a new key), each viewer
has their own key (hidden cards never cross from one member's board to another's), each language too (a
member's two tabs in two languages never share a board: the key names the language active for the render,
which is the request's or the socket's, accounts.languages), and the version in
the key is read from the database or from a snapshot that a committed transaction left (tables.play.snapshots),
never trusted from a table object that may be out of date.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from django.db.models import OuterRef, Subquery
from django.template import engines
from django.template.backends.jinja2 import Template
from django.utils.translation import get_language

from accounts.models import User
from tables.models import Seat, Table
from tables.play import snapshots
from tables.play.board_parts import Rendered, assembled, collecting, forget_parts
from tables.play.selectors import Board, board_for, board_from
from tables.play.snapshots import TableSnapshot

BOARDS_KEPT = 1024  # rendered boards kept (most are used once, moments after they are rendered)
# How the board's opening tag starts (jinja2/tables/play/board.html): its oob form adds hx-swap-oob right there.
# (Not its end: that holds the aria-label, which is in the viewer's language.)
_OPENING = '<section id="board" '
_OOB_OPENING = '<section id="board" hx-swap-oob="true" '


def render_board(table: Table, user: User, *, oob: bool = False) -> str:
    return board_html(table, user, oob=oob).html


def board_html(table: Table, user: User, *, oob: bool = False, version_checked: bool = False,
               premove_serial: int | None = None) -> Rendered:
    """The board for `user`, with the deadline it shows, its frame and its parts. `version_checked`: the caller has
    just read `table` from the database, so its version is current; otherwise it is read again before the cache is
    used.

    A member's card chosen ahead (tables.play.services.premoves) changes their board and no version: their board is
    kept under their seat's premove count too. When the version is read here, that count is read with it (the
    page, the answer to a choice); `premove_serial` is the count a caller read with the table (a socket opening).
    Without either (a push, at a version a transaction has just made) the version's snapshot says it."""
    if version_checked:
        current = table.version
    elif user.is_authenticated:
        current, premove_serial = _version_and_premove(table, user)
    else:
        current = Table.objects.filter(pk=table.pk).values_list("version", flat=True).first()
    if not user.is_authenticated or current != table.version:
        return _render(lambda: board_for(table, user), user, oob=oob, key=None)
    snapshot = snapshots.recall(table.code, table.version)
    if snapshot is not None and premove_serial is not None and _serial_in(snapshot, user) != premove_serial:
        snapshot = None  # chosen (or taken back) since this version was made: the database has it
    if premove_serial is None:
        premove_serial = _serial_in(snapshot, user) if snapshot is not None else None
        if snapshot is None:  # no count known: built from the database, and kept under no key
            return _render(lambda: board_for(table, user), user, oob=oob, key=None)
    build = (lambda: board_from(snapshot, user)) if snapshot is not None else (lambda: board_for(table, user))
    return _cached(_key(table.code, current, user, premove_serial), build, user, oob=oob)


def snapshot_html(snapshot: TableSnapshot, user: User, *, oob: bool = False) -> Rendered:
    """The board for `user` at the snapshot's version, built without reading the database."""
    if not user.is_authenticated:
        return _render(lambda: board_from(snapshot, user), user, oob=oob, key=None)
    key = _key(snapshot.table.code, snapshot.version, user, _serial_in(snapshot, user))
    return _cached(key, lambda: board_from(snapshot, user), user, oob=oob)


def _key(code: str, version: int, user: User, premove_serial: int | None) -> str:
    return f"board:{code}:{version}:{user.pk}:{get_language()}:{premove_serial}"


def _serial_in(snapshot: TableSnapshot, user: User) -> int | None:
    """The viewer's seat's premove count in the snapshot (None: not seated)."""
    return next((s.premove_serial for s in snapshot.seats if s.user_id == user.pk), None)


def _version_and_premove(table: Table, user: User) -> tuple[int | None, int | None]:
    """The table's version and the viewer's seat's premove count (None: not seated), in one query."""
    own = Seat.objects.filter(table=OuterRef("pk"), user_id=user.pk).values("premove_serial")[:1]
    found = Table.objects.filter(pk=table.pk).values_list("version", Subquery(own)).first()
    return (None, None) if found is None else found


_boards: OrderedDict[str, Rendered] = OrderedDict()
_boards_guard = threading.Lock()


def _kept_board(key: str) -> Rendered | None:
    with _boards_guard:
        return _boards.get(key)


def _keep_board(key: str, board: Rendered) -> None:
    with _boards_guard:
        _boards[key] = board
        while len(_boards) > BOARDS_KEPT:
            _boards.popitem(last=False)


def forget_boards() -> None:
    """Tests that count what a board costs when it is rendered start from none kept, nor any part of one."""
    with _boards_guard:
        _boards.clear()
    forget_parts()


def _cached(key: str, build: Callable[[], Board], user: User, *, oob: bool) -> Rendered:
    hit = _kept_board(key)
    if hit is not None:
        return _as_oob(hit, oob)
    # Right after a move the POST's reply and the mover's socket ask for this board at the same moment, in two
    # threads of this process: the second waits for the first and takes its board instead of rendering it too.
    with _rendering(key):
        hit = _kept_board(key)
        if hit is not None:
            return _as_oob(hit, oob)
        return _render(build, user, oob=oob, key=key)


def _render(build: Callable[[], Board], user: User, *, oob: bool, key: str | None) -> Rendered:
    board = build()
    deadline = board.round.deadline if board.round is not None else None
    context = {"board": board, "oob": False, "user": user, "language": get_language(), **collecting()}
    rendered = assembled(_board_template().render(context), context["parts"], deadline)
    if oob and not rendered.html.startswith(_OPENING):  # the template's opening tag changed: render the oob form
        context = {**context, "oob": True, **collecting()}
        return assembled(_board_template().render(context), context["parts"], deadline)
    if key is not None:
        _keep_board(key, rendered)
    return _as_oob(rendered, oob)


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


def _as_oob(board: Rendered, oob: bool) -> Rendered:
    """The out-of-band form differs only by hx-swap-oob on the opening tag, exactly where the template puts it."""
    html = board.html
    if not (oob and html.startswith(_OPENING)):
        return board
    return replace(board, html=_OOB_OPENING + html[len(_OPENING):])
