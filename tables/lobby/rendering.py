"""The lobby's list of tables, as every lobby socket of this process sends it.

The list is the same for every member (it shows public tables only), so a burst of changes (quick
play forming hundreds of tables a second) is rendered once per process for all sockets, not once per
socket per change: a socket takes the list some other socket rendered after the change it heard of.
"""

from __future__ import annotations

import time

from django.template.loader import render_to_string

from tables.lobby.selectors import lobby_tables

_shared: tuple[float, str] | None = None  # (time.monotonic() the read started, the rendered list)


def table_list_html(*, fresh_after: float) -> str:
    """The out-of-band table list, read no earlier than `fresh_after` (time.monotonic())."""
    global _shared
    shared = _shared
    if shared is not None and shared[0] >= fresh_after:
        return shared[1]
    started = time.monotonic()
    html = render_to_string("tables/lobby/lobby.html#table-list", {"tables": list(lobby_tables()), "oob": True})
    _shared = (started, html)
    return html
