"""A member's move, "ready", and "wait for" or "go on" after a round, read one way whichever way they came: an
htmx POST (tables/play/views.py) or a message over the table's socket (tables/play/consumers.py). Both call `act`,
so the two paths refuse exactly the same things with the same words; the socket adds one check of its own, that
the message is for its table.

A member's socket is authenticated by its session when it opens (the consumer's scope user), its origin is
checked as a POST's CSRF token would be (config/ws_origin.py), and it is closed the moment that session ends.
A move carries the version the member's board showed, so a repeated, stale or late one is refused by the
service and changes nothing (htmx would send a socket message made while closed once the socket is back:
the page sends such a move by POST instead, see static/js/sockets.js).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from accounts.models import User
from tables.play.request_numbers import whole_number
from tables.play.services import play, premoves
from tables.play.services.errors import TableError

MOVE = "move"
READY = "ready"
WAIT = "wait"  # after a round: wait for a member who is away (tables.play.services.play.choose_to_wait)
GO_ON = "go_on"  # after a round: go on with the house's bot in the away member's seat
# the "kind" of the board's socket messages (hx-vals in templates/jinja2/tables/play/board.html and away_choice.html)
KINDS = (MOVE, READY, WAIT, GO_ON)


def version_of(raw: object) -> int:
    """The table version the member's board showed. The page sends it as text (a form field, a JSON string);
    a JSON number is read as the same digits. Anything else is refused: no move is made without one."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    version = whole_number(raw) if isinstance(raw, str) else None
    if version is None:
        raise TableError(gettext("This request carries no table version; reload the page."))
    return version


def act(*, kind: str, table_id: int | None = None, table_code: str | None = None, user: User,
        fields: Mapping[str, object]) -> int:
    """One service call: the member's move, or their readiness for the next round, against the version their
    board showed (`fields`: the POST's form or the socket's message), at the table of `table_id` (the socket's)
    or of `table_code` (the POST's address: the service locks it by its code, `NoSuchTable` if there is none).
    Returns the table's new version; a refusal (`TableError`) changed nothing."""
    version = version_of(fields.get("version"))
    if kind == MOVE:
        move = fields.get("move")
        return play.play_move(table_id=table_id, table_code=table_code, user=user,
                              move_text=move if isinstance(move, str) else "", expected_version=version)
    if kind == READY:
        return play.ready_for_next_round(table_id=table_id, table_code=table_code, user=user,
                                         expected_version=version)
    if kind in (WAIT, GO_ON):
        return play.choose_to_wait(table_id=table_id, table_code=table_code, user=user, expected_version=version,
                                   wait=kind == WAIT)
    raise TableError(gettext("That is not something a member does at a table."))


def choose_premove(*, table_code: str, user: User, fields: Mapping[str, object]) -> int:
    """A card chosen ahead of the member's turn, or none (an empty `move`), by POST only (tables.play.autoplay): the
    version and the premove count their board showed, so a repeated or crossed request is refused."""
    version = version_of(fields.get("version"))
    serial = whole_number(fields.get("serial")) if isinstance(fields.get("serial"), str) else None
    if serial is None:
        raise TableError(gettext("This request carries no count of your chosen cards; reload the page."))
    move = fields.get("move")
    return premoves.choose_premove(table_code=table_code, user=user, move_text=move if isinstance(move, str) else "",
                                   expected_version=version, expected_serial=serial)


def check_socket_message(*, table_code: str, message: Mapping[str, object]) -> None:
    """What a socket message must be before it is worth a trip to the database, read from the message alone (the
    consumer calls this on its event loop, so junk costs no thread and no query): it names the table its board
    was for (a page open on one table never moves at another through a socket it shares nothing with, and a
    message that names none is not one the page sends), and it carries a version. `TableError` if not."""
    named = message.get("table")
    if not isinstance(named, str) or not named:
        raise TableError(gettext("This message names no table; reload the page."))
    if named != table_code:
        raise TableError(gettext("That move was made on another table's page; nothing was changed here."))
    version_of(message.get("version"))


def act_from_socket(*, table_id: int, table_code: str, user: User, message: Mapping[str, object]) -> int:
    """A move or "ready" sent over the table socket of `table_code`: checked as a socket message
    (`check_socket_message`), then read as the POST is."""
    check_socket_message(table_code=table_code, message=message)
    kind = message.get("kind")
    return act(kind=kind if isinstance(kind, str) else "", table_id=table_id, user=user, fields=message)
