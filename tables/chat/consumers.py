"""The chat on the club's sockets (the table's and the lobby's), which play may not import: handlers registered
with tables.play.sockets in `TablesConfig.ready`.

A line sent over a socket goes to the chat the socket shows (its table's, or the lobby's), whatever the message
says; the socket's member writes it, so only what `post_line` accepts from them is stored. Every push is read per
member when it arrives (`rendering`), so a socket never gets a line its member may not read.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from tables.chat import rendering
from tables.chat.errors import ChatError
from tables.chat.services import chat
from tables.play.sockets import ClubConsumer

KIND = "chat"  # the chat form's hidden "kind" field (templates/tables/chat/chat.html)


def _chat_of(consumer: ClubConsumer) -> tuple[bool, int | None]:
    """(serves a chat, its table): a table socket's table, None for the lobby's."""
    if consumer.place == "lobby":
        return True, None
    if consumer.place == "table" and consumer.table_id is not None:
        return True, consumer.table_id
    return False, None


async def receive_line(consumer: ClubConsumer, data: dict[str, Any]) -> None:
    serves, table_id = _chat_of(consumer)
    if not serves:
        await consumer.unclaimed(None)
        return
    try:
        await database_sync_to_async(chat.post_line)(author=consumer.scope["user"], table_id=table_id,
                                                     text=data.get("text"))
    except ChatError as refused:
        await consumer.send(text_data=rendering.answer_html(table_id, str(refused)))
        return
    await consumer.send(text_data=rendering.answer_html(table_id))


async def chat_event(consumer: ClubConsumer, event: dict[str, Any]) -> None:
    serves, table_id = _chat_of(consumer)
    if not serves:
        return
    user = consumer.scope["user"]
    action = event.get("action")
    html = ""
    if action == "line":
        html = await database_sync_to_async(rendering.pushed_line_html)(user, int(event["message"]))
    elif action == "released" and table_id is not None:
        html = await database_sync_to_async(rendering.released_html)(user, table_id, int(event["round"]))
    elif action == "hidden":
        html = rendering.hidden_html(int(event["message"]))
    elif action == "lobby_released" and table_id is None:
        html = await database_sync_to_async(rendering.lobby_released_html)(user, int(event["table"]))
    if html:
        await consumer.send(text_data=html)


async def on_connect(consumer: ClubConsumer) -> str:
    """The latest lines, whole, with the socket's first message (on every reconnect too)."""
    serves, table_id = _chat_of(consumer)
    if not serves:
        return ""
    return await database_sync_to_async(rendering.connected_html)(consumer.scope["user"], table_id)
