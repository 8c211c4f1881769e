"""The lobby's list of tables, as every lobby socket of this process sends it.

The list is the same for every member (it shows public tables only), so a burst of changes (quick
play forming hundreds of tables a second) is rendered once per process for all sockets, not once per
socket per change: a socket takes the list some other socket rendered after the change it heard of,
in its own language (one list per language: sockets render in their member's, tables.play.sockets).
"""

from __future__ import annotations

import time

from django.template.loader import render_to_string
from django.utils.translation import get_language

from tables.lobby.selectors import lobby_tables

_shared: dict[str, tuple[float, str]] = {}  # language: (time.monotonic() the read started, the rendered list)


def table_list_html(*, fresh_after: float) -> str:
    """The out-of-band table list in the active language, read no earlier than `fresh_after` (time.monotonic())."""
    language = get_language()
    shared = _shared.get(language)
    if shared is not None and shared[0] >= fresh_after:
        return shared[1]
    started = time.monotonic()
    html = render_to_string("tables/lobby/lobby.html#table-list", {"tables": list(lobby_tables()), "oob": True})
    _shared[language] = (started, html)
    return html
