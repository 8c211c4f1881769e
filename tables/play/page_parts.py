"""Parts of the table's page that other features render (chat), which play may not import.

A feature registers a renderer in `TablesConfig.ready`; the table page shows each part below the board, inside
the element that holds the table's socket (so the part's forms may send over it) and outside `#board` (so the
board's swaps never wipe it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString

from tables.models import Table

PageRenderer = Callable[[HttpRequest, Table], SafeString]
_renderers: list[PageRenderer] = []


def add_table_part(render: PageRenderer) -> None:
    if render not in _renderers:
        _renderers.append(render)


def table_parts(request: HttpRequest, table: Table) -> list[Any]:
    """The registered parts for this member at this table, in the order they were registered."""
    return [render(request, table) for render in _renderers]
