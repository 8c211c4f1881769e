"""The chat over the table's and the lobby's sockets: lines reach every socket of their chat once, each member's
socket gets only what that member may read (muted authors and spectators' lines during a round are left out), and
bad messages get an answer and change nothing."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from tables.chat.services import chat
from tables.models import ChatMessage
from tests.sockets import communicator, session_cookie
from tests.tables.chat.helpers import finish_round, running_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def chat_message(text: object) -> str:
    """What htmx's ws-send sends for the chat form: its fields, and htmx's headers."""
    return json.dumps({"kind": "chat", "text": text, "csrfmiddlewaretoken": "x",
                       "HEADERS": {"HX-Request": "true", "HX-Trigger": "chat-form-table"}})


async def read_until(comm, found, *, timeout: float = 10) -> list[str]:
    """Every message up to and including the first for which `found(message)` is true."""
    seen: list[str] = []
    while True:
        message = await comm.receive_from(timeout=timeout)
        seen.append(message)
        if found(message):
            return seen


async def drain(comm, *, timeout: float = 0.5) -> list[str]:
    """Whatever reaches the socket until it has been quiet for `timeout` seconds."""
    seen: list[str] = []
    while not await comm.receive_nothing(timeout=timeout):
        seen.append(await comm.receive_from(timeout=timeout))
    return seen


async def connect(path: str, user) -> object:
    comm = communicator(path, cookie=await sync_to_async(session_cookie)(user))
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)  # the whole table (or lobby), with the chat's latest lines
    return comm


@sync_to_async
def setup(make_member):
    alice, bob, carol = make_member("alice", display_name="Alice"), make_member("bob"), make_member("carol")
    return running_table(alice, bob), alice, bob, carol


async def test_a_line_sent_over_the_socket_reaches_every_socket_at_the_table_once_as_text(make_member) -> None:
    table, alice, bob, carol = await setup(make_member)
    path = f"/ws/table/{table.code}/"
    on_alice, on_bob, on_carol = [await connect(path, user) for user in (alice, bob, carol)]
    await on_alice.send_to(text_data=chat_message("  <b>hello</b> bob  "))
    mine = await read_until(on_alice, lambda m: "&lt;b&gt;hello&lt;/b&gt; bob" in m)
    if not any('data-sent="yes"' in m for m in mine):  # the answer to the sender says the line was taken
        await read_until(on_alice, lambda m: 'id="chat-answer-table"' in m and 'data-sent="yes"' in m)
    for comm in (on_bob, on_carol):
        pushed = await comm.receive_from(timeout=5)
        assert 'hx-swap-oob="beforeend:#chat-lines-table"' in pushed
        assert "&lt;b&gt;hello&lt;/b&gt; bob" in pushed and "<b>hello" not in pushed
        assert 'href="/members/alice/"' in pushed and '<span class="chat-handle">@alice</span>' in pushed
        assert await comm.receive_nothing(timeout=0.3)  # once
    stored = await sync_to_async(ChatMessage.objects.get)()
    assert stored.text == "<b>hello</b> bob" and stored.table_id == table.pk and not stored.spectator
    for comm in (on_alice, on_bob, on_carol):
        await comm.disconnect()


async def test_a_spectators_line_reaches_the_players_only_when_the_round_is_over(make_member) -> None:
    table, alice, bob, carol = await setup(make_member)
    path = f"/ws/table/{table.code}/"
    on_alice, on_carol = await connect(path, alice), await connect(path, carol)
    await on_carol.send_to(text_data=chat_message("psst from the rail"))
    await read_until(on_carol, lambda m: "psst from the rail" in m)  # spectators see it at once
    assert await on_alice.receive_nothing(timeout=0.5)
    # A socket opened now does not get it either (a reconnect sends the latest lines again).
    late = communicator(path, cookie=await sync_to_async(session_cookie)(bob))
    assert (await late.connect())[0]
    first = await late.receive_from(timeout=5)
    assert 'id="chat-body-table"' in first and "psst from the rail" not in first

    await sync_to_async(finish_round)(table, alice, bob)
    before = await read_until(on_alice, lambda m: "psst from the rail" in m, timeout=20)
    assert all("psst from the rail" not in m for m in before[:-1])  # not in any board pushed during the round
    assert "Spectators wrote during round 1" in before[-1]
    assert "psst from the rail" in (await read_until(late, lambda m: "psst from the rail" in m, timeout=20))[-1]
    for comm in (on_alice, on_carol, late):
        await comm.disconnect()


async def test_a_muted_members_lines_do_not_reach_the_member_who_muted(make_member) -> None:
    table, alice, bob, carol = await setup(make_member)
    await sync_to_async(chat.mute)(member=bob, muted_id=alice.pk)
    path = f"/ws/table/{table.code}/"
    on_alice, on_bob, on_carol = [await connect(path, user) for user in (alice, bob, carol)]
    await on_alice.send_to(text_data=chat_message("can you hear me"))
    assert "can you hear me" in (await read_until(on_carol, lambda m: "chat-lines" in m))[-1]
    assert await on_bob.receive_nothing(timeout=0.5)
    for comm in (on_alice, on_bob, on_carol):
        await comm.disconnect()


async def test_staff_hiding_a_line_takes_it_off_every_open_pane(make_member) -> None:
    table, alice, bob, _carol = await setup(make_member)
    boss = await sync_to_async(make_member)("boss", is_staff=True)
    path = f"/ws/table/{table.code}/"
    on_bob = await connect(path, bob)
    line = await sync_to_async(chat.post_line)(author=alice, table_id=table.pk, text="a nasty line")
    assert "a nasty line" in await on_bob.receive_from(timeout=5)
    await sync_to_async(chat.hide_lines)(staff=boss, message_ids=[line.pk])
    gone = await on_bob.receive_from(timeout=5)
    assert f'id="chat-line-{line.pk}" hx-swap-oob="delete"' in gone and "nasty" not in gone
    await on_bob.disconnect()


async def test_bad_chat_messages_get_an_answer_and_store_nothing(make_member) -> None:
    table, alice, _bob, _carol = await setup(make_member)
    on_alice = await connect(f"/ws/table/{table.code}/", alice)
    for text, says in [("", "Write something"), ("   ", "Write something"), (["a", "list"], "Write something"),
                       (None, "Write something"), ("z" * 301, "at most 300 characters")]:
        await on_alice.send_to(text_data=chat_message(text))
        answer = await on_alice.receive_from(timeout=5)
        assert 'id="chat-answer-table"' in answer and says in answer and 'data-sent="no"' in answer
        assert "zzzzzzzzzz" not in answer  # the line is not echoed
    # What no feature claims keeps play's answer; frames that are no JSON object are refused as before.
    for frame in [json.dumps({"kind": "moves", "move": "play AS"}), json.dumps({"kind": 5}), "not json {",
                  json.dumps(["kind", "chat"]), "x" * 200_000]:
        await on_alice.send_to(text_data=frame)
        assert 'id="table-error"' in await on_alice.receive_from(timeout=5)
    await on_alice.send_to(bytes_data=json.dumps({"kind": "chat", "text": "bytes"}).encode())
    assert 'id="table-error"' in await on_alice.receive_from(timeout=5)
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await on_alice.send_to(text_data=chat_message("still working"))
    assert "still working" in (await read_until(on_alice, lambda m: "still working" in m))[-1]
    # A line goes to the chat the socket shows, whatever table or author the message names.
    await on_alice.send_to(text_data=json.dumps({"kind": "chat", "text": "aimed elsewhere", "table": table.pk + 7,
                                                 "author": _bob.pk}))
    await read_until(on_alice, lambda m: "aimed elsewhere" in m)
    stored = await sync_to_async(ChatMessage.objects.get)(text="aimed elsewhere")
    assert (stored.table_id, stored.author_id) == (table.pk, alice.pk)
    await on_alice.disconnect()


async def test_the_lobby_chat_over_the_lobby_sockets(make_member) -> None:
    alice, bob = await sync_to_async(make_member)("alice"), await sync_to_async(make_member)("bob")
    await sync_to_async(chat.post_line)(author=bob, table_id=None, text="earlier line")
    on_alice = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(alice))
    assert (await on_alice.connect())[0]
    first = await on_alice.receive_from(timeout=5)
    assert 'id="chat-body-lobby"' in first and "earlier line" in first
    on_bob = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(bob))
    assert (await on_bob.connect())[0]
    await on_bob.receive_from(timeout=5)
    await on_bob.send_to(text_data=chat_message("anyone for Sheepshead?"))
    for comm in (on_alice, on_bob):
        seen = await read_until(comm, lambda m: "anyone for Sheepshead?" in m)
        assert 'hx-swap-oob="beforeend:#chat-lines-lobby"' in seen[-1]
    await on_bob.send_to(text_data=chat_message(""))
    answer = await read_until(on_bob, lambda m: "chat-answer-lobby" in m and "Write something" in m)
    assert answer
    await on_alice.send_to(text_data=json.dumps({"kind": "nothing"}))
    assert "The lobby takes no messages." in (await read_until(on_alice, lambda m: "socket-error" in m))[-1]
    stored = await sync_to_async(list)(ChatMessage.objects.values_list("table_id", "text"))
    assert stored == [(None, "earlier line"), (None, "anyone for Sheepshead?")]
    for comm in (on_alice, on_bob):
        await comm.disconnect()


async def test_a_lobby_line_reaches_a_member_playing_a_round_only_when_it_is_over(make_member) -> None:
    """Issue 39: coaching through the lobby. A player's lobby socket does not get a line written during their
    round; when the round ends, it gets the lobby's lines again, that one among them."""
    table, alice, bob, carol = await setup(make_member)
    on_alice, on_carol = await connect("/ws/lobby/", alice), await connect("/ws/lobby/", carol)
    await on_carol.send_to(text_data=chat_message("alice: lead the ace"))
    await read_until(on_carol, lambda m: "lead the ace" in m)  # members not playing see it at once
    assert all("lead the ace" not in m for m in await drain(on_alice))  # (the lobby's own updates may come)
    late = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(bob))
    assert (await late.connect())[0]
    first = await late.receive_from(timeout=5)
    assert 'id="chat-body-lobby"' in first and "lead the ace" not in first

    await sync_to_async(finish_round)(table, alice, bob)
    for comm in (on_alice, late):
        released = (await read_until(comm, lambda m: "lead the ace" in m, timeout=20))[-1]
        assert 'id="chat-body-lobby"' in released and 'hx-swap-oob="true"' in released
    assert all("lead the ace" not in m for m in await drain(on_carol))  # she saw it as it came: not again
    for comm in (on_alice, on_carol, late):
        await comm.disconnect()
