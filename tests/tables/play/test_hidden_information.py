"""No board a viewer receives holds a card that viewer may not know, nor a seed, before its time.

Every seat of seeded games of all four games is a member. After each move every viewer (each seat and a
spectator) is checked on what they receive: their board (the page, the fragment and the sockets all send
that render), the whole table page and the board fragment over HTTP (one viewer in
turn), the mover's POST reply, the result panel, the replies to "ready" and the next deal, and (for two
games) every message that went down each socket. All of it is read, every text: the prompt, the last-move
line, the game's facts line, the trick, the hand, the result panel.

What a viewer may know is read off the engine's whole state (`secret_from`), not off its view: a view
that leaked a card (a buried card named in the last-move line, say) would otherwise vouch for it.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from rules.engine import registry
from rules.engine.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, Card, card
from tables.models import Match, Seat, Table
from tables.play import move_log
from tables.play.rendering import render_board
from tables.play.services import clock
from tests.rules.contract import cards_in
from tests.sockets import communicator, session_cookie
from tests.tables.helpers import current_round, full_table, legal_for, play_one, seat_to_act, watching

_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")
_NAME = re.compile(r"\b(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)\b")
_SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])(?:</span><span class=\"suit\" aria-hidden=\"true\">)?([♣♦♥♠])")
# A card named in German, as the board names it for a German reader ("Herz Dame", "Kreuz 10").
_GERMAN_NAME = re.compile(r"\b(Kreuz|Karo|Herz|Pik) (Ass|König|Dame|Bube|10|[2-9])\b")
_GERMAN_RANK = {"Ass": "A", "König": "K", "Dame": "Q", "Bube": "J", **{str(n): str(n) for n in range(2, 11)}}
_GERMAN_SUIT = {"Kreuz": "C", "Karo": "D", "Herz": "H", "Pik": "S"}
_RANK_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()}
_SUIT_BY_NAME = {name: suit for suit, name in SUIT_NAMES.items()}
_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def cards_shown(html: str) -> set:
    found = {card(r + s) for r, s in _TOKEN.findall(html)}
    found |= {card(_RANK_BY_NAME[r] + _SUIT_BY_NAME[s]) for r, s in _NAME.findall(html)}
    found |= {card(r + _SUIT_BY_SYMBOL[s]) for r, s in _SYMBOL.findall(html)}
    found |= {card(_GERMAN_RANK[r] + _GERMAN_SUIT[s]) for s, r in _GERMAN_NAME.findall(html)}
    return found


def secret_from(game: str, state: Any, seat: int | None) -> set[Card]:
    """The cards `seat` (None: a spectator) may not know while the round goes on, from the whole state:
    every other hand and each game's face-down cards, less whatever has been played face up."""
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    if game == "sheepshead":
        played = {*state.trick, *(c for _leader, _winner, cards in state.tricks for c in cards)}
        picker_only = set() if seat is not None and seat == state.picker else {*state.blind, *state.buried}
        return (others | picker_only) - played
    if game == "hawk":
        played = {*state.table, *(c for trick in state.tricks for c in trick.cards)}
        return (others | set(state.out)) - played
    if game == "hawsker":
        played = {*state.table, *(c for _seat, cards in state.history for c in cards)}
        their_discards = {c for s, cards in enumerate(state.discards) if s != seat for c in cards}
        kept = {*state.kept[0], *state.kept[1]}  # scored face up at the end of the last round: public
        return (others | set(state.stock) | their_discards) - played - kept
    if game == "puskiyon":
        return others | set(state.stock)
    raise AssertionError(f"no rule for what {game} hides: add one to secret_from")


def check_views(table: Table, viewers: dict[int | None, User], html_for) -> int:
    """Compare what each viewer was sent with what that seat may know now; returns the boards checked."""
    rnd = current_round(table)
    if rnd is None:
        return 0
    match = Match.objects.get(pk=rnd.match_id)
    checked = 0
    if rnd.over:  # the round's cards and seed are public now; the match's seed is not while it goes on
        for seat, user in viewers.items():
            html = html_for(seat, user)
            assert 'class="result"' in html, f"seat {seat} was sent no result panel at the end of the round"
            assert match.over or match.seed not in html
            checked += 1
        return checked
    game = registry.game(table.game)
    state = game.from_json(rnd.state)
    for seat, user in viewers.items():
        html = html_for(seat, user)
        shown = cards_shown(html)
        secret = secret_from(table.game, state, seat)
        assert not shown & secret, f"seat {seat} was sent {shown & secret}, which it may not know"
        # What the view holds, and the cards the round's log names to this viewer (played face up this round,
        # or their own draws and burials): the log's own texts are checked against the secrets just above.
        allowed = cards_in(game.view(state, seat)) | cards_in(move_log.lines_for(rnd.log, seat))
        assert shown <= allowed, f"seat {seat} was sent {shown - allowed}, which its view does not hold"
        assert rnd.seed not in html and match.seed not in html
        checked += 1
    return checked


def logged_in(user: User, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def htmx_post(client: Client, url: str, data: dict[str, Any]) -> str:
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content.decode()
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_every_page_fragment_and_reply_hides_what_it_must(make_member, game, language) -> None:
    """A round played to its end by POSTs, the result panel, everyone's "ready" and the next deal; in English
    and in German (a German board names cards in other words: "Herz Dame", which the scan reads too)."""
    with translation.override(language):
        _play_and_check_every_reply(make_member, game, language)


def _play_and_check_every_reply(make_member: Any, game: str, language: str) -> None:
    players = registry.spec(game).default_players
    members = [make_member(f"m{i}") for i in range(players)]
    viewers: dict[int | None, User] = {**dict(enumerate(members)), None: make_member("watcher")}
    table = full_table(game, members, rounds=2) if game == "hawk" else full_table(game, members)
    clients = {seat: logged_in(user, language) for seat, user in viewers.items()}
    page, fragment = reverse("table", args=[table.code]), reverse("board", args=[table.code])
    move_url, ready_url = reverse("move", args=[table.code]), reverse("ready", args=[table.code])
    rng = random.Random(1)
    checked = results = 0
    order = list(viewers)
    for step in range(2000):
        # Every viewer's board as the page, the socket and the fragment build it; and, one viewer in turn,
        # the whole page and the fragment as htmx fetches them (the same board, inside what else they carry).
        checked += check_views(table, viewers, lambda _seat, user: render_board(table, user))
        for viewer, url in ((order[step % len(order)], page), (order[(step + 1) % len(order)], fragment)):
            html = clients[viewer].get(url).content.decode()
            checked += check_views(table, {viewer: viewers[viewer]}, lambda *_, got=html: got)
        table.refresh_from_db()
        rnd = current_round(table)
        if rnd.number > 1:  # the next deal has been read by everyone: done
            break
        if rnd.over:
            results += 1
            for seat, member in enumerate(members):  # every reply is read; the last one is the next deal
                table.refresh_from_db()
                reply = htmx_post(clients[seat], ready_url, {"version": table.version})
                checked += check_views(table, {seat: member}, lambda *_, got=reply: got)
            continue
        seat = seat_to_act(table)
        move = rng.choice(legal_for(table, seat))
        reply = htmx_post(clients[seat], move_url, {"move": move, "version": table.version})
        checked += check_views(table, {seat: viewers[seat]}, lambda *_, got=reply: got)
    assert results == 1 and current_round(table).number == 2
    assert checked > players * 20
    assert ("Deine Karten" in render_board(table, members[0])) == (language == "de")  # the board spoke it


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["sheepshead", "hawsker"])
async def test_every_socket_message_hides_what_it_must(make_member, game) -> None:
    players = registry.spec(game).default_players
    members = [await sync_to_async(make_member)(f"m{i}") for i in range(players)]
    watcher = await sync_to_async(make_member)("watcher")
    table = await sync_to_async(full_table)(game, members)
    viewers: dict[int | None, object] = {i: m for i, m in enumerate(members)}
    viewers[None] = watcher
    sockets = {}
    for seat, user in viewers.items():
        comm = communicator(f"/ws/table/{table.code}/", cookie=await sync_to_async(session_cookie)(user))
        assert (await comm.connect())[0]
        sockets[seat] = comm
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        received = {seat: await comm.receive_from(timeout=5) for seat, comm in sockets.items()}
        checked += await sync_to_async(check_views)(table, viewers, lambda seat, user, got=received: got[seat])
        moved = await sync_to_async(play_one)(table, dict(enumerate(members)), rng)
        if not moved:
            break
    for comm in sockets.values():
        await comm.disconnect()
    assert checked >= len(viewers) * 6


@pytest.mark.django_db
@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_the_move_log_and_presence_hide_what_they_must_while_the_bot_plays_for_the_offline(make_member,
                                                                                            game) -> None:
    """A member goes offline and the bot plays their turns (the clock's steps, each a version): every viewer's
    board, with its move log and everyone's presence, is checked after every step, and the log is there."""
    players = registry.spec(game).default_players
    members = [make_member(f"m{i}") for i in range(players)]
    viewers: dict[int | None, User] = {**dict(enumerate(members)), None: make_member("watcher")}
    table = full_table(game, members)
    watching(table, members[0])
    gone = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(table=table, user__in=members[1:]).update(offline_since=gone)
    rng = random.Random(2)
    checked, logged = 0, 0
    for _step in range(400):
        table.refresh_from_db()
        boards = {seat: render_board(table, user) for seat, user in viewers.items()}
        checked += check_views(table, viewers, lambda seat, _user, sent=boards: sent[seat])
        logged += sum("What happened this round" in html for html in boards.values())
        rnd = current_round(table)
        if rnd.over or table.status != Table.Status.RUNNING:
            break
        if seat_to_act(table) == 0:
            play_one(table, {0: members[0]}, rng)
        else:
            assert clock.advance(table_id=table.pk, now=max(timezone.now(), table.due_at))
    assert current_round(table).over, "the bot did not play the offline members' turns to the end of the round"
    offline = render_board(table, members[0])
    assert offline.count('data-presence="offline"') == players - 1
    assert checked > players and logged > players
