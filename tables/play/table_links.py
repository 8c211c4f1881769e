"""Links from a table's page to what the table belongs to (a tournament's online table back to its tournament), which
play may not import.

A feature registers a provider in `TablesConfig.ready`; a provider takes the play table and returns a `TableLink`
(its text and address) or None when the table is not one of its own. The providers are asked once per full render
of the table's page (players and spectators see the same page), never for a move, a board or a socket message:
what a table belongs to does not change while it is played, and the move path keeps its fixed count of queries
(tests/tables/play/test_query_counts.py). A provider should cost nothing for a table that cannot be its own (check
the table's fields before reading anything else).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tables.models import Table


@dataclass(frozen=True)
class TableLink:
    """What the page shows: "Part of <text>", the text a link to `url`."""

    text: str
    url: str


LinkProvider = Callable[[Table], TableLink | None]
_providers: list[LinkProvider] = []


def register(provider: LinkProvider) -> None:
    """Add a provider (once: registering it again, as a second `ready` would, changes nothing)."""
    if provider not in _providers:
        _providers.append(provider)


def unregister(provider: LinkProvider) -> None:
    if provider in _providers:
        _providers.remove(provider)


def table_links(table: Table) -> list[TableLink]:
    """The links the registered providers give for this table, in the order they were registered."""
    return [link for provider in _providers if (link := provider(table)) is not None]
