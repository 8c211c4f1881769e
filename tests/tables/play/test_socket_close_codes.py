"""Close codes the consumers send: ones Daphne can send at all, and "come back" where the browser should.

Daphne hands a close to autobahn's `sendClose`, which raises for any code but 1000 and 3000-4999: a close
with 1012 (which htmx's WebSocket extension would retry) never leaves the server. The sockets below go
through an app that applies autobahn's own check the way Daphne does, so a code Daphne would refuse fails
here as it fails in production, instead of reaching the test as if it had been sent.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from autobahn.websocket.protocol import WebSocketProtocol
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables.lobby import consumers as lobby_consumers
from tables.play import push, sockets
from tests.sockets import session_cookie
from tests.tables.helpers import full_table

ROOT = Path(__file__).resolve().parent.parent.parent.parent
CONSUMERS = [ROOT / "tables" / "play" / "sockets.py", ROOT / "tables" / "play" / "consumers.py",
             ROOT / "tables" / "lobby" / "consumers.py"]
SOCKETS_JS = ROOT / "static" / "js" / "sockets.js"
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


class _SentFrames:
    """Stands in for autobahn's protocol below `sendClose`: the frame it would write is only recorded."""

    def __init__(self) -> None:
        self.codes: list[int | None] = []

    def sendCloseFrame(self, code: int | None = None, reasonUtf8: bytes | None = None, isReply: bool = False) -> None:
        self.codes.append(code)


def daphne_close(code: int | None) -> None:
    """What Daphne does with an application's close after the handshake (`serverClose` -> `sendClose`):
    raises where autobahn refuses the code."""
    WebSocketProtocol.sendClose(_SentFrames(), code=code)


def like_daphne(app: Any) -> Any:
    async def checked(scope: dict[str, Any], receive: Any, send: Any) -> None:
        accepted = False

        async def checked_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept":
                accepted = True
            elif message["type"] == "websocket.close" and accepted:  # before accept Daphne rejects the handshake
                daphne_close(message.get("code"))
            await send(message)

        await app(scope, receive, checked_send)

    return checked


def socket(path: str, cookie: str) -> WebsocketCommunicator:
    headers = [*HEADERS, (b"cookie", f"sessionid={cookie}".encode())]
    return WebsocketCommunicator(like_daphne(application), path, headers=headers)


def close_codes() -> dict[str, int]:
    return {name: value for name, value in vars(sockets).items() if name.startswith("CLOSE_")}


def test_every_close_code_of_the_consumers_is_one_daphne_can_send() -> None:
    codes = close_codes()
    named = {"CLOSE_TRY_AGAIN", "CLOSE_UNAUTHENTICATED", "CLOSE_NOT_FOUND", "CLOSE_TOO_MANY", "CLOSE_TOO_FAST"}
    assert named <= set(codes)
    for name, code in codes.items():
        daphne_close(code)  # raises for a code autobahn refuses
        assert code == 1000 or 3000 <= code <= 4999, name


def test_the_consumers_close_only_with_the_named_codes() -> None:
    """So the check above covers every close: no number written at a call."""
    trees = [ast.parse(path.read_text()) for path in CONSUMERS]
    refuse = next(node for tree in trees for node in ast.walk(tree)
                  if isinstance(node, ast.AsyncFunctionDef) and node.name == "refuse")
    passed_on = {id(node) for node in ast.walk(refuse)}  # refuse(code) closes with the code it was given
    calls = [node for tree in trees for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and id(node) not in passed_on]
    closes = [call for call in calls if call.func.attr == "close" and any(k.arg == "code" for k in call.keywords)]
    refusals = [call for call in calls if call.func.attr == "refuse"]
    assert closes and refusals
    for call in closes:
        code = next(keyword.value for keyword in call.keywords if keyword.arg == "code")
        assert isinstance(code, ast.Name) and code.id in close_codes(), ast.unparse(call)
    for call in refusals:
        assert isinstance(call.args[0], ast.Name) and call.args[0].id in close_codes(), ast.unparse(call)


def test_the_browser_knows_the_come_back_code_and_the_codes_that_mean_stop() -> None:
    """static/js/sockets.js reconnects after the come-back code and not after the others; the numbers
    there must be the consumers' numbers."""
    script = SOCKETS_JS.read_text()
    come_back = re.search(r"COME_BACK = (\d+);", script)
    assert come_back and int(come_back.group(1)) == sockets.CLOSE_TRY_AGAIN
    stopped = re.search(r"STOPPED = \{(.*?)\};", script, re.S)
    assert stopped
    stop_codes = {int(code) for code in re.findall(r"(\d{4}):", stopped.group(1))}
    assert stop_codes == {sockets.CLOSE_UNAUTHENTICATED, sockets.CLOSE_PRIVATE, sockets.CLOSE_NOT_FOUND,
                          sockets.CLOSE_TOO_MANY, sockets.CLOSE_TOO_FAST}
    # Each stop says why in the page's words (templates/tables/socket_words.html), in the member's language.
    words = (ROOT / "templates" / "tables" / "socket_words.html").read_text()
    for name in re.findall(r'\d{4}: \["([a-z-]+)"', stopped.group(1)):
        assert f'data-said-{name}="{{% translate ' in words, name
    assert sockets.CLOSE_TRY_AGAIN not in stop_codes


@sync_to_async
def hawsker_table(make_member: Any) -> tuple[Any, str]:
    alice, bob = make_member("alice"), make_member("bob")
    return full_table("hawsker", [alice, bob]), session_cookie(alice)


async def closed_to_come_back(comm: WebsocketCommunicator, timeout: float = 5) -> None:
    assert await comm.receive_output(timeout=timeout) == {"type": "websocket.close", "code": sockets.CLOSE_TRY_AGAIN}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_old_table_socket_is_closed_to_come_back(make_member, settings) -> None:
    settings.TABLE_SOCKET_MAX_AGE = 0.3
    table, cookie = await hawsker_table(make_member)
    comm = socket(f"/ws/table/{table.code}/", cookie)
    assert (await comm.connect())[0]
    assert 'id="board"' in await comm.receive_from(timeout=5)
    await closed_to_come_back(comm)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_board_that_cannot_be_pushed_closes_the_socket_to_come_back(make_member) -> None:
    table, cookie = await hawsker_table(make_member)
    comm = socket(f"/ws/table/{table.code}/", cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await get_channel_layer().group_send(push.table_group(table.pk), {"type": "table.changed", "version": "garbage"})
    await closed_to_come_back(comm)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_lobby_list_that_cannot_be_rendered_closes_the_socket_to_come_back(make_member, monkeypatch) -> None:
    def broken(**kwargs: Any) -> str:
        raise RuntimeError("the table list could not be read")

    cookie = await sync_to_async(session_cookie)(await sync_to_async(make_member)("alice"))
    comm = socket("/ws/lobby/", cookie)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    monkeypatch.setattr(lobby_consumers, "_table_list_html", broken)
    await get_channel_layer().group_send(push.LOBBY_GROUP, {"type": "lobby.changed"})
    await closed_to_come_back(comm)
    await comm.disconnect()
