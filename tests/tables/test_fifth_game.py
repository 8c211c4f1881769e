"""A game registered only here (tests/tables/fifth_game.py) is offered, played, quick-played, settled and
ranked through the real web layer: `tables/` asks the engine's registry and the game's spec, never a name."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rules.engine.cards import RANK_NAMES, SUIT_NAMES
from tables.models import LedgerEntry, QueueRequest, Round, Table
from tables.play.amounts import points_text
from tests.sockets import communicator, session_cookie
from tests.tables import fifth_game
from tests.tables.helpers import current_round, full_table

KEY = fifth_game.KEY
HTMX = {"HTTP_HX_REQUEST": "true"}

ROW_NAME = r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>'  # a standings row's name, linked or not


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def version_and_moves(html: str) -> tuple[int, list[str]]:
    version = re.search(r'id="board"[^>]*data-version="(\d+)"', html)
    assert version, html[:300]
    return int(version.group(1)), re.findall(r'data-move="([^"]+)"', html)


def play_out_by_post(table: Table, clients: list[Client]) -> int:
    """Every member moves by POST (the first card the board offers) until the table has finished."""
    posted = 0
    for _ in range(100):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            return posted
        for client in clients:
            board = client.get(reverse("board", args=[table.code])).content.decode()
            version, moves = version_and_moves(board)
            if moves:
                answer = client.post(reverse("move", args=[table.code]), {"move": moves[0], "version": version},
                                     **HTMX)
                assert answer.status_code == 200, answer.content.decode()[:300]
                posted += 1
    raise AssertionError("the table did not finish")


def test_the_fifth_game_is_offered_created_played_and_settled_through_the_web(fifth, make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    client = client_for(alice)
    home = client.get(reverse("home")).content.decode()
    assert "Little Tricks" in home
    rules = client.get(reverse("rules_game", args=[KEY]))
    assert rules.status_code == 200 and fifth_game.SPEC.blurb in rules.content.decode()

    lobby = client.get(reverse("lobby"), {"game": KEY}).content.decode()
    assert f'<option value="{KEY}" selected>Little Tricks</option>' in lobby
    assert 'name="opt_hand_size"' in lobby and 'name="opt_rounds"' in lobby  # its house rules, from its spec
    created = client.post(reverse("create_table"), {
        "game": KEY, "players": "2", "turn_seconds": "60", "fill_with_bots": "on", "opt_hand_size": "4",
        "opt_rounds": "1",
    })
    table = Table.objects.get(game=KEY)
    assert created.status_code == 302 and created["Location"] == reverse("table", args=[table.code])
    assert table.status == Table.Status.RUNNING and table.options == {"hand_size": 4, "rounds": 1}

    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert "Little Tricks" in page and 'class="prompt"' in page and 'class="cards hand"' in page
    assert 'class="trick"' in page  # the generic fragment shows the (empty) trick
    state = fifth_game.from_json(current_round(table).state)
    for card in state.hands[1]:  # the bot's cards are nowhere on Alice's board
        assert f"{RANK_NAMES[card.rank]} of {SUIT_NAMES[card.suit]}" not in page

    assert play_out_by_post(table, [client]) == 4  # Alice leads every trick she wins, follows every other
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    finished = client.get(reverse("table", args=[table.code])).content.decode()
    assert "the result" in finished and "took the most tricks" in finished and "The match is over" in finished
    assert '<table class="summary">' in finished and '<th scope="col" class="num">Tricks</th>' in finished

    round_ = Round.objects.get(match__table=table)
    entries = {e.seat: e for e in LedgerEntry.objects.filter(round=round_)}
    assert {e.unit for e in entries.values()} == {"points"}
    assert sorted(e.amount for e in entries.values()) == sorted(round_.result["deltas"])
    assert sum(e.amount for e in entries.values()) == 4  # one point a trick
    mine = entries[0].amount
    assert entries[0].member == alice

    history = client.get(reverse("my_history"), {"game": KEY}).content.decode()
    assert f'data-game="{KEY}"' in history and 'data-game="sheepshead"' not in history
    assert "<td>Little Tricks</td>" in history  # the entry's game, by its spec's title
    assert f'<td class="num balance">{points_text(mine, signed=True)}</td>' in history
    standings = client.get(reverse("standings"), {"game": KEY}).content.decode()
    assert "Standings: Little Tricks" in standings
    assert re.findall(ROW_NAME, standings) == ["Alice (you)", "Normal bot"]  # the form's bots: normal
    assert client.get(reverse("round_replay", args=[round_.pk])).status_code == 200
    fair = client.get(reverse("fair_deal", args=[round_.pk]))
    assert fair.status_code == 200


def test_two_members_quick_play_the_fifth_game_and_the_standings_rank_them_by_its_spec(fifth, make_member) -> None:
    bob, carol = make_member("bob", display_name="Bob"), make_member("carol", display_name="Carol")
    lobby = client_for(bob).get(reverse("lobby")).content.decode()
    assert f'data-game="{KEY}" data-waiting="0"' in lobby
    form = client_for(bob).get(reverse("quick_form"), {"game": KEY}).content.decode()
    assert '<option value="short">One round</option>' in form and ">Length:</label>" in form  # its spec's bands
    assert 'name="quick_opt_hand_size"' in form and 'name="quick_opt_rounds"' not in form  # a band sets the rounds
    waiting = client_for(bob).post(reverse("quick_join"), {"game": KEY, "players": "2", "band": "short"}, **HTMX)
    assert "Little Tricks · 2 players · One round" in waiting.content.decode()
    seated = client_for(carol).post(reverse("quick_join"), {"game": KEY, "players": "any", "band": ""}, **HTMX)
    table = Table.objects.get(game=KEY)
    assert seated.status_code == 204 and seated["HX-Redirect"] == reverse("table", args=[table.code])
    assert table.options == {"hand_size": 4, "rounds": 1}
    assert set(QueueRequest.objects.values_list("state", flat=True)) == {QueueRequest.State.MATCHED}

    play_out_by_post(table, [client_for(bob), client_for(carol)])
    totals = dict(LedgerEntry.objects.filter(game=KEY).values_list("member__display_name", "amount"))
    assert sum(totals.values()) == 4
    standings = client_for(bob).get(reverse("standings"), {"game": KEY}).content.decode()
    ranked = [name.removesuffix(" (you)") for name in re.findall(ROW_NAME, standings)]
    assert ranked == sorted(totals, key=lambda name: (-totals[name], name.lower()))  # more tricks is better


@pytest.mark.django_db(transaction=True)
async def test_the_table_socket_sends_the_fifth_games_board(fifth, make_member) -> None:
    @sync_to_async
    def table_and_cookie() -> tuple[Table, str]:
        alice = make_member("alice")
        return full_table(KEY, [alice], bots=1), session_cookie(alice)

    table, cookie = await table_and_cookie()
    comm = communicator(f"/ws/table/{table.code}/", cookie=cookie)
    assert (await comm.connect())[0]
    board = await comm.receive_from(timeout=5)
    version, moves = version_and_moves(board)
    assert version == table.version and moves and all(m.startswith("play ") for m in moves)
    await comm.disconnect()


def test_every_page_names_the_club_and_its_games_with_the_registered_one(fifth: None, db: None) -> None:
    page = Client().get(reverse("home")).content.decode()
    assert "Sheepshead, Hawk, Hawsker, Puskiyon and Little Tricks" in page
