"""A stale move or "ready" is refused in the member's language: the refusal's words reach the page as they are (a
POST's answer, or a socket's message into #table-error), so they are translated where they are raised."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables.play.services.errors import StaleVersion
from tables.play.services.play import play_move, ready_for_next_round
from tests.tables.helpers import full_table, legal_for, seat_to_act

pytestmark = pytest.mark.django_db

MOVED_ON_DE = "Am Tisch ging es weiter, seit du zuletzt geschaut hast; nichts wurde geändert."


def test_a_stale_move_and_a_stale_ready_are_refused_in_german(make_member) -> None:
    members = [make_member("alice"), make_member("bob")]
    table = full_table("hawsker", members)
    seat = seat_to_act(table)
    move = legal_for(table, seat)[0]
    played = play_move(table_id=table.pk, user=members[seat], move_text=move, expected_version=table.version)
    assert played > table.version
    with translation.override("de"):
        with pytest.raises(StaleVersion, match=f"^{MOVED_ON_DE}$"):
            play_move(table_id=table.pk, user=members[seat], move_text=move, expected_version=table.version)
        with pytest.raises(StaleVersion, match=f"^{MOVED_ON_DE}$"):
            ready_for_next_round(table_id=table.pk, user=members[seat], expected_version=table.version)
