"""The chat's HTML: the pane on a page, and the fragments a socket sends (swapped in by id, out of band).

Every line goes through the selectors' visibility rules for the member it is rendered for, and through Django's
autoescaping (a line is text, whatever it holds). Times are in the member's zone: a socket has no request, so
its renders set the member's zone themselves.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from accounts.time_zones import member_zone
from tables.chat import selectors
from tables.chat.services.chat import MAX_CHARS
from tables.models import Table

TEMPLATE = "tables/chat/chat.html"


def room_of(table_id: int | None) -> str:
    """The page's chat is known by this in element ids (a page holds one chat: its table's, or the lobby's)."""
    return "lobby" if table_id is None else "table"


def _context(viewer: Any, table: Table | None, **extra: Any) -> dict[str, Any]:
    return {"viewer": viewer, "room": room_of(table.pk if table else None), "table": table,
            "today": timezone.localdate(), "max_chars": MAX_CHARS, **extra}


def _body_context(viewer: Any, table: Table | None) -> dict[str, Any]:
    table_id = table.pk if table else None
    player = table_id is not None and selectors.is_player(table_id=table_id, user_id=viewer.pk)
    waits_since = selectors.playing_since(member_id=viewer.pk) if table is None else None
    lines = selectors.visible_lines(viewer=viewer, table_id=table_id, player=player, table=table,
                                    lobby_waits_since=waits_since)
    return _context(viewer, table, lines=lines, muted=selectors.muted_members(member_id=viewer.pk),
                    spectating=table is not None and not player, lobby_waits=waits_since is not None)


def pane_html(request: HttpRequest, table: Table | None) -> SafeString:
    """The whole pane as a page shows it (the table page's part, the lobby's panel)."""
    context = _body_context(request.user, table)
    context["post_url"] = reverse("chat_table", args=[table.code]) if table else reverse("chat_lobby")
    return mark_safe(render_to_string(f"{TEMPLATE}#pane", context, request=request))


def body_html(request: HttpRequest, table: Table | None) -> str:
    """The lines and the muted list, for an htmx answer (after a mute) that replaces them."""
    return render_to_string(f"{TEMPLATE}#body", _body_context(request.user, table), request=request)


def _for_member(viewer: Any) -> timezone.override:
    return timezone.override(member_zone(viewer))


def connected_html(viewer: Any, table_id: int | None) -> str:
    """On (re)connect: the latest lines again, whole, so a socket that missed some is whole again."""
    with _for_member(viewer):
        table = Table.objects.get(pk=table_id) if table_id is not None else None
        return render_to_string(f"{TEMPLATE}#body", {**_body_context(viewer, table), "oob": True})


def pushed_line_html(viewer: Any, message_id: int) -> str:
    """A new line for this member's socket, or nothing when they may not read it (muted, withheld, hidden)."""
    with _for_member(viewer):
        line = selectors.visible_line(viewer=viewer, message_id=message_id)
        if line is None:
            return ""
        return render_to_string(f"{TEMPLATE}#appended", _context(viewer, line.table, lines=[line]))


def released_html(viewer: Any, table_id: int, round_number: int) -> str:
    """For a player, the spectators' lines of the round just over, under a line saying where they come from."""
    with _for_member(viewer):
        lines = selectors.released_lines(viewer=viewer, table_id=table_id, round_number=round_number)
        if not lines:
            return ""
        table = Table.objects.get(pk=table_id)
        return render_to_string(f"{TEMPLATE}#appended", _context(
            viewer, table, lines=lines, released_round=round_number))


def lobby_released_html(viewer: Any, table_id: int) -> str:
    """For a member seated at the table whose round just ended, the lobby's lines again, whole, now holding those
    written during the round; nothing for everyone else, who saw them as they came."""
    if not selectors.is_player(table_id=table_id, user_id=viewer.pk):
        return ""
    return connected_html(viewer, None)


def hidden_html(message_id: int) -> str:
    """Staff hid the line: it leaves every pane it is in (an element missing on a page is no harm)."""
    return render_to_string(f"{TEMPLATE}#gone", {"message_id": message_id})


def answer_html(table_id: int | None, error: str = "") -> str:
    """The answer to the member's own line over the socket: the refusal, or an empty box that tells the page
    the line was taken (static/js/chat.js then empties the input)."""
    return render_to_string(f"{TEMPLATE}#answer", {"room": room_of(table_id), "error": error, "oob": True})
