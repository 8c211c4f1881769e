"""The link from a tournament's online table back to its tournament, which play shows on the table's page through
its hook (tables.play.table_links, registered in TablesConfig.ready): play may not import tournaments.

Asked once per render of a table's page. A tournament's online tables are the tables a feature seats
(tables.play.services.seated: private, with no creator), so any other table is answered from its own fields with no
query; a seated one costs the one query that finds its tournament table with its round and tournament.
"""

from __future__ import annotations

from django.urls import reverse

from tables.models import Table
from tables.play.table_links import TableLink
from tables.tournaments.club_tables import table_label
from tables.tournaments.selectors import tournament_table_of


def tournament_link(table: Table) -> TableLink | None:
    """"Winter cup, session 2, table 3" -> the tournament's page, for a tournament's table; None for any other."""
    if not table.private or table.created_by_id is not None:
        return None
    found = tournament_table_of(table_id=table.pk)
    if found is None:
        return None
    return TableLink(text=table_label(found), url=reverse("tournament", args=[found.round.tournament_id]))
