"""The table socket sends the whole board once, then only the parts each version changed (issue 43,
tables/play/board_parts.py): the board a page rebuilds from them (as static/js/board_parts.js does; here
tests.sockets.BoardOnPage) is exactly the board the server renders for that viewer at that version, through a whole
round, for both members; a page that holds no board to build on asks for the whole board and gets it."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from tables.play import snapshots
from tables.play.rendering import board_html, forget_boards, snapshot_html
from tests.sockets import BoardOnPage, communicator, hawsker_table, move_for_whoever_acts, version_of
from tests.tables.helpers import current_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

DELTA = '<template id="board-delta"'


@sync_to_async
def whole_board(table, user, version: int) -> str:
    """The board the server renders for `user` at `version`, as a socket sends it whole: rendered afresh, no board
    and no part of one kept (so a part kept under a key that misses something it shows would differ here)."""
    snapshot = snapshots.recall(table.code, version)
    assert snapshot is not None
    forget_boards()
    table.refresh_from_db()
    with translation.override("en"):
        if table.version == version:
            return board_html(table, user, oob=True).html
        return snapshot_html(snapshot, user, oob=True).html


@sync_to_async
def round_over(table) -> bool:
    table.refresh_from_db()
    return current_round(table).over


async def test_each_version_sends_the_parts_it_changed_and_the_page_rebuilds_the_board_exactly(make_member) -> None:
    table, alice, bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    sockets = {alice: communicator(f"/ws/table/{table.code}/", cookie=alice_cookie),
               bob: communicator(f"/ws/table/{table.code}/", cookie=bob_cookie)}
    pages = {member: BoardOnPage() for member in sockets}
    for member, comm in sockets.items():
        assert (await comm.connect())[0]
        first = await comm.receive_from(timeout=5)
        assert DELTA not in first
        pages[member].take(first)
    deltas, wholes = 0, []
    delta_bytes = whole_bytes = 0
    while not await round_over(table):
        version = await move_for_whoever_acts(table, [alice, bob])
        over = await round_over(table)
        for member, comm in sockets.items():
            message = await comm.receive_from(timeout=5)
            assert version_of(message) == version
            expected = await whole_board(table, member, version)
            assert pages[member].take(message) == expected
            if DELTA in message:
                deltas += 1
                delta_bytes += len(message.encode())
                whole_bytes += len(expected.encode())
                assert 'data-part="rules"' not in message  # the house rules do not change within a round
            else:
                wholes.append(over)
    # whole boards only where the board's frame changed: the round's result came and the hands went
    assert wholes == [True, True] and deltas >= 10
    assert delta_bytes < 0.9 * whole_bytes
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_page_that_asks_for_the_whole_board_gets_it(make_member) -> None:
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    version = await move_for_whoever_acts(table, [alice, bob])
    assert DELTA in await comm.receive_from(timeout=5)
    await comm.send_to(text_data=json.dumps({"kind": "board"}))
    whole = await comm.receive_from(timeout=5)
    assert DELTA not in whole and version_of(whole) == version
    assert whole == await whole_board(table, alice, version)
    # and the next version builds on that whole board
    page = BoardOnPage()
    page.take(whole)
    version = await move_for_whoever_acts(table, [alice, bob])
    assert page.take(await comm.receive_from(timeout=5)) == await whole_board(table, alice, version)
    await comm.disconnect()
