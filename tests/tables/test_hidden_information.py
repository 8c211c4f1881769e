"""No fragment a viewer receives holds a card that viewer may not see, nor the seed, before the end.

Every seat of seeded games of all four games is a member; after each move the board is rendered
for every seat and for a spectator (the page, the POST reply and the socket all use that render),
and for one game every message that really went down each socket is checked the same way.
"""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async

from rules.engine import registry
from rules.engine.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, card
from tables.models import Table
from tables.rendering import render_board
from tests.rules.contract import cards_in
from tests.sockets import communicator, session_cookie
from tests.tables.helpers import current_round, full_table, play_one

_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")
_NAME = re.compile(r"\b(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)\b")
_SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])(?:</span><span class=\"suit\" aria-hidden=\"true\">)?([♣♦♥♠])")
_RANK_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()}
_SUIT_BY_NAME = {name: suit for suit, name in SUIT_NAMES.items()}
_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def cards_shown(html: str) -> set:
    found = {card(r + s) for r, s in _TOKEN.findall(html)}
    found |= {card(_RANK_BY_NAME[r] + _SUIT_BY_NAME[s]) for r, s in _NAME.findall(html)}
    found |= {card(r + _SUIT_BY_SYMBOL[s]) for r, s in _SYMBOL.findall(html)}
    return found


def check_views(table: Table, viewers: dict[int | None, object], html_for) -> int:
    """Compare what each viewer was sent with what the engine lets that seat see now."""
    rnd = current_round(table)
    if rnd is None or rnd.over:
        return 0
    game = registry.game(table.game)
    state = game.from_json(rnd.state)
    hands = {seat: set(map(card, game.view(state, seat)["hand"])) for seat in range(table.seat_count)}
    checked = 0
    for seat, user in viewers.items():
        html = html_for(seat, user)
        shown = cards_shown(html)
        allowed = cards_in(game.view(state, seat))
        others = set().union(*(cards for s, cards in hands.items() if s != seat))
        assert not shown & others, f"seat {seat} was sent another hand's cards {shown & others}"
        assert shown <= allowed, f"seat {seat} was sent {shown - allowed}, which its view does not hold"
        assert rnd.seed not in html
        checked += 1
    return checked


@pytest.mark.django_db
@pytest.mark.parametrize("game", registry.GAME_KEYS)
@pytest.mark.parametrize("seed", [1, 2])
def test_rendered_boards_hide_what_they_must(make_member, game, seed) -> None:
    players = registry.spec(game).default_players
    members = [make_member(f"m{i}") for i in range(players)]
    watcher = make_member("watcher")
    table = full_table(game, members)
    viewers: dict[int | None, object] = {i: m for i, m in enumerate(members)}
    viewers[None] = watcher
    rng = random.Random(seed)
    checked = 0
    for _ in range(400):
        checked += check_views(table, viewers, lambda seat, user: render_board(table, user))
        if not play_one(table, dict(enumerate(members)), rng):
            break
    assert checked > players * 5


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
