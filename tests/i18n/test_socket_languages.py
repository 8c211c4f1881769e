"""Boards over the table socket and the lobby's live parts come in each viewer's own language: two members at one
table read two languages, and one member's two tabs in two languages each get their own board (the board cache
keys on the language too)."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from accounts.languages import language_for
from config.asgi import application
from tables.lobby import rendering as lobby_rendering
from tests.sockets import hawsker_table, move_for_whoever_acts, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def socket(path: str, cookie: str, *, accept_language: str = "", language_cookie: str = "") -> WebsocketCommunicator:
    cookies = f"sessionid={cookie}" + (f"; django_language={language_cookie}" if language_cookie else "")
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"cookie", cookies.encode())]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def board_language(html: str) -> str:
    found = re.search(r'<section id="board"[^>]* lang="([^"]*)"', html)
    assert found, html[:300]
    return found.group(1)


@sync_to_async
def save_language(user, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


async def test_two_members_at_one_table_each_read_their_own_language(make_member) -> None:
    table, alice, bob, alice_cookie, bob_cookie = await hawsker_table(make_member)
    await save_language(alice, "de")  # read at the handshake: saved before the sockets open
    # Alice's saved German beats her browser's English; Bob has saved nothing and his browser asks for English.
    alice_socket = socket(f"/ws/table/{table.code}/", alice_cookie, accept_language="en")
    bob_socket = socket(f"/ws/table/{table.code}/", bob_cookie, accept_language="en-GB,en;q=0.9,de;q=0.5")
    assert (await alice_socket.connect())[0] and (await bob_socket.connect())[0]
    assert board_language(await alice_socket.receive_from(timeout=5)) == "de"
    assert board_language(await bob_socket.receive_from(timeout=5)) == "en"
    version = await move_for_whoever_acts(table, [alice, bob])
    for comm, language in ((alice_socket, "de"), (bob_socket, "en")):
        pushed = await comm.receive_from(timeout=5)
        assert version_of(pushed) == version and board_language(pushed) == language
    await alice_socket.disconnect()
    await bob_socket.disconnect()


async def test_one_members_two_tabs_in_two_languages_never_share_a_board(make_member) -> None:
    """Bob has saved nothing: one tab's handshake asks for German (cookie), the other's for English. The board of
    one version for one member is cached; the language is part of its key."""
    table, alice, bob, _alice_cookie, bob_cookie = await hawsker_table(make_member)
    german = socket(f"/ws/table/{table.code}/", bob_cookie, language_cookie="de", accept_language="en")
    english = socket(f"/ws/table/{table.code}/", bob_cookie, accept_language="en")
    assert (await german.connect())[0] and (await english.connect())[0]
    assert board_language(await german.receive_from(timeout=5)) == "de"
    assert board_language(await english.receive_from(timeout=5)) == "en"
    version = await move_for_whoever_acts(table, [alice, bob])
    pushed = {language: await comm.receive_from(timeout=5) for language, comm in (("de", german), ("en", english))}
    assert {language: (version_of(html), board_language(html)) for language, html in pushed.items()} == {
        "de": (version, "de"), "en": (version, "en")}
    await german.disconnect()
    await english.disconnect()


async def test_the_lobby_list_shared_by_a_process_is_shared_per_language(monkeypatch) -> None:
    """The lobby's table list is rendered once per burst for every socket of the process: once per language."""
    renders: list[str] = []

    def fake_render(template: str, context: dict) -> str:
        renders.append(translation.get_language())
        return f"list in {translation.get_language()}"

    monkeypatch.setattr(lobby_rendering, "render_to_string", fake_render)
    monkeypatch.setattr(lobby_rendering, "_shared", {})
    monkeypatch.setattr(lobby_rendering, "lobby_tables", lambda: [])
    with translation.override("de"):
        assert lobby_rendering.table_list_html(fresh_after=0.0) == "list in de"
    with translation.override("en"):
        assert lobby_rendering.table_list_html(fresh_after=0.0) == "list in en"
        assert lobby_rendering.table_list_html(fresh_after=0.0) == "list in en"  # taken, not rendered again
    assert renders == ["de", "en"]


async def test_the_language_of_a_socket(make_member) -> None:
    """Saved preference, else the handshake's cookie, else its Accept-Language, else the club's default."""
    saved, plain = await sync_to_async(make_member)("saved", language="de"), await sync_to_async(make_member)("plain")

    def scope(*headers: tuple[bytes, bytes], cookies: dict[str, str] | None = None) -> dict:
        return {"headers": list(headers), "cookies": cookies or {}}

    assert language_for(saved, scope((b"accept-language", b"en"))) == "de"
    assert language_for(plain, scope((b"accept-language", b"de-AT,de;q=0.9"))) == "de"
    assert language_for(plain, scope((b"accept-language", b"de"), cookies={"django_language": "en"})) == "en"
    assert language_for(plain, scope((b"accept-language", b"fr"))) == "en"
    assert language_for(plain, scope()) == "en"
    assert language_for(plain) == "en"
