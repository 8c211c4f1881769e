"""A push lost after its commit (the process killed between the commit and the send, the channel layer away) does
not strand a page: the socket's heartbeat finds the newer version and sends the board, and a move made from the
old board is refused and answered with the board as it now is. Found by the chaos soak (bench/chaos.py): a bot's
card committed as its process was killed, and both members waited for it until the end of the run."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from tables.models import Table
from tables.play import pace, push
from tables.play.services import play
from tests.sockets import communicator, hawsker_table
from tests.sockets import version_of as board_version
from tests.tables.helpers import legal_for, seat_to_act

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def move_with_its_push_lost(table: Table, members: list, monkeypatch: pytest.MonkeyPatch) -> int:
    """The member to act moves; the move commits, and its push never leaves (as when the process dies)."""
    table.refresh_from_db()
    seat = seat_to_act(table)
    with monkeypatch.context() as lost:
        def layer_gone(messages: object) -> None:
            raise ConnectionError("the channel layer is gone")

        lost.setattr(push, "_send_all", layer_gone)
        return play.play_move(table_id=table.pk, user=members[seat], move_text=legal_for(table, seat)[0],
                              expected_version=table.version)


async def next_board(comm, *, after: int) -> str:
    """The next message carrying a board newer than `after` (a refusal may come first)."""
    while True:
        message = await comm.receive_from(timeout=10)
        if 'id="board"' in message and board_version(message) > after:
            return message


async def test_the_heartbeat_sends_a_version_whose_push_was_lost(make_member, monkeypatch) -> None:
    monkeypatch.setattr(pace, "HEARTBEAT_SECONDS", 0.05)
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    shown = board_version(await comm.receive_from(timeout=5))
    made = await move_with_its_push_lost(table, [alice, bob], monkeypatch)
    assert made > shown
    board = await asyncio.wait_for(next_board(comm, after=shown), 10)
    assert board_version(board) == made
    await comm.disconnect()


async def test_a_move_from_a_board_that_missed_a_version_is_answered_with_the_board(make_member,
                                                                                    monkeypatch) -> None:
    monkeypatch.setattr(pace, "HEARTBEAT_SECONDS", 3600)  # no heartbeat in this test: the refusal alone heals
    table, alice, bob, alice_cookie, _ = await hawsker_table(make_member)
    comm = communicator(f"/ws/table/{table.code}/", cookie=alice_cookie)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    shown = board_version(await comm.receive_from(timeout=5))
    made = await move_with_its_push_lost(table, [alice, bob], monkeypatch)
    await comm.send_to(text_data=json.dumps({"kind": "move", "table": table.code, "version": str(shown),
                                             "move": "play AS"}))
    refusal = await comm.receive_from(timeout=10)
    assert "moved on since you looked" in refusal and 'id="board"' not in refusal
    board = await next_board(comm, after=shown)
    assert board_version(board) == made
    await comm.disconnect()
