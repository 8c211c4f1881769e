"""The tournament page's socket: the live part on connect, again after each change, and only for members who may
see the page."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.models import TournamentTable
from tables.tournaments import controls, services
from tests.sockets import communicator, refusal_code, session_cookie
from tests.tables.tournaments.test_tournament_refusals import hawsker_swiss

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


cookie_of = sync_to_async(session_cookie)


@sync_to_async
def drawn_swiss(make_member):
    staff, tournament, members = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    services.start_round(tournament_id=tournament.pk, staff=staff)
    return staff, tournament, members


async def test_the_live_part_comes_on_connect_and_after_a_result(make_member) -> None:
    staff, tournament, members = await drawn_swiss(make_member)
    watcher = await sync_to_async(make_member)("watcher")
    comm = communicator(f"/ws/tournaments/{tournament.pk}/", cookie=await cookie_of(watcher))
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'id="tournament-live" hx-swap-oob="true"' in first
    assert 'data-score="1"' not in first and tournament.seed not in first
    table = await sync_to_async(lambda: TournamentTable.objects.filter(round__tournament=tournament).first())()
    winner = next(member for member in members if member.pk == table.seats[0])
    await sync_to_async(services.record_swiss_result)(table_id=table.pk, winner=winner)
    update = await comm.receive_from(timeout=5)
    assert f'data-member="{winner.pk}" data-place="1" data-score="1"' in update
    assert f"Won by {winner.shown_name}" in update
    await sync_to_async(controls.pause)(tournament_id=tournament.pk, staff=staff, reason="Tea break")
    assert "The tournament is paused: Tea break" in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_a_rolled_back_change_sends_nothing(make_member) -> None:
    staff, tournament, _ = await drawn_swiss(make_member)
    comm = communicator(f"/ws/tournaments/{tournament.pk}/", cookie=await cookie_of(staff))
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    with pytest.raises(RuntimeError, match="rolled back"):
        await sync_to_async(_pause_then_roll_back)(tournament.pk, staff)
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


def _pause_then_roll_back(tournament_id: int, staff) -> None:
    from django.db import transaction

    with transaction.atomic():
        controls.pause(tournament_id=tournament_id, staff=staff, reason="soon undone")
        raise RuntimeError("paused, then rolled back")


async def test_anonymous_unknown_and_draft_tournaments_are_refused(make_member) -> None:
    assert await refusal_code(communicator("/ws/tournaments/1/")) == 4401
    member = await sync_to_async(make_member)("ann")
    assert await refusal_code(communicator("/ws/tournaments/999/", cookie=await cookie_of(member))) == 4404
    staff = await sync_to_async(make_member)("boss", is_staff=True)
    draft = await sync_to_async(controls.organise)(organiser=staff, name="Draft", game="hawsker", format="swiss",
                                                   rounds=2)
    assert await refusal_code(communicator(f"/ws/tournaments/{draft.pk}/", cookie=await cookie_of(member))) == 4404
