"""Members' history, standings and replays, and the admin's review of rounds: who may see what, and when."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine import registry
from rules.engine.cards import card
from tables.ledger.selectors import replay_step
from tables.models import LedgerEntry, Move, Round
from tests.tables.helpers import current_round, full_table
from tests.tables.ledger_support import finished_table, staff_playing_an_unfinished_round
from tests.tables.play.test_hidden_information import cards_shown as cards_on_page

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_tables(make_member):
    """Ann and Ben finished a Sheepshead hand together; Cat finished a Hawk round alone with bots."""
    ann, ben, cat = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben"), make_member("cat")
    shared = finished_table("sheepshead", [ann, ben], bots=3)
    alone = finished_table("hawk", [cat], bots=3)
    return ann, ben, cat, shared, alone


def test_my_history_lists_my_rounds_with_money_in_dollars_and_a_running_balance(two_tables) -> None:
    ann, _ben, _cat, shared, alone = two_tables
    page = client_for(ann).get(reverse("my_history")).content.decode()
    mine = LedgerEntry.objects.get(member=ann)
    amount = f"{'-' if mine.amount < 0 else '+'}${abs(mine.amount) / 100:.2f}" if mine.amount else "$0.00"
    assert f"{escape(shared.name)}, round 1" in page  # by its name, "Ann's Sheepshead table"
    assert amount in page
    assert escape(alone.name) not in page
    assert reverse("round_replay", args=[mine.round_id]) in page
    assert reverse("fair_deal", args=[mine.round_id]) in page
    assert 'data-game="sheepshead"' in page and 'data-game="hawsker"' in page


def test_my_history_filters_by_game_and_period(two_tables) -> None:
    ann = two_tables[0]
    client = client_for(ann)
    shared = escape(two_tables[3].name)
    assert shared in client.get(reverse("my_history")).content.decode()
    assert shared not in client.get(reverse("my_history"), {"game": "hawk"}).content.decode()
    assert shared not in client.get(reverse("my_history"), {"start": "2999-01-01"}).content.decode()
    bad = client.get(reverse("my_history"), {"start": "2020-02-02", "end": "2020-01-01"}).content.decode()
    assert "ends before it starts" in bad


def test_standings_show_every_member_per_game_and_the_house(two_tables) -> None:
    ann, _ben, cat, _shared, _alone = two_tables
    page = client_for(cat).get(reverse("standings"), {"game": "sheepshead"}).content.decode()
    assert "Ann" in page and "Ben" in page and "Easy bot" in page
    rows = re.findall(r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>', page)
    assert sorted(rows) == sorted(["Ann", "Ben", "Easy bot"])
    # Each member's name leads to their profile (two members may share a display name); the house has none.
    assert f'href="{reverse("member_profile", args=[ann.username])}">Ann</a>' in page
    assert '<tr class="house" data-bot-level="easy">' in page and "Easy bot</th>" in page
    counts = re.findall(r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>\s*<td class="num">(\d+)</td>', page)
    assert dict(counts) == {"Ann": "1", "Ben": "1", "Easy bot": "1"}  # rounds, not seats
    hawk = client_for(ann).get(reverse("standings"), {"game": "hawk"}).content.decode()
    assert re.findall(r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>', hawk) == ["cat", "Easy bot"]
    mine = client_for(cat).get(reverse("standings"), {"game": "hawk"}).content.decode()
    assert re.findall(r'<th scope="row">(?:<a [^>]*>)?([^<]*)(?:</a>)?</th>', mine)[0] == "cat (you)"
    assert "fewer points are better" in client_for(ann).get(reverse("standings"), {"game": "puskiyon"}).content.decode()


def test_a_member_cannot_see_another_members_history_or_rounds(two_tables) -> None:
    ann, _ben, cat, _shared, alone = two_tables
    cats_round = Round.objects.get(match__table=alone, number=1)
    client = client_for(ann)
    assert client.get(reverse("round_replay", args=[cats_round.pk])).status_code == 404
    assert client.get(reverse("round_replay", args=[cats_round.pk]), {"step": "3"}, **HTMX).status_code == 404
    # There is no URL for someone else's history: the page is always the viewer's own.
    assert client.get(reverse("my_history"), {"member": str(cat.pk)}).content.decode().count(alone.code) == 0
    assert client_for(cat).get(reverse("round_replay", args=[cats_round.pk])).status_code == 200


def test_an_unfinished_round_is_never_replayed_even_for_its_player(make_member) -> None:
    ann = make_member("ann")
    table = full_table("sheepshead", [ann], bots=4)
    rnd = current_round(table)
    response = client_for(ann).get(reverse("round_replay", args=[rnd.pk]))
    assert response.status_code == 404
    assert rnd.seed not in response.content.decode()


def test_the_replay_steps_forward_and_back_and_shows_every_hand(two_tables) -> None:
    _ann, ben, _cat, shared, _alone = two_tables
    rnd = Round.objects.get(match__table=shared, number=1)
    total = rnd.moves.count()
    client = client_for(ben)
    url = reverse("round_replay", args=[rnd.pk])
    start = client.get(url).content.decode()
    assert 'data-step="0"' in start and "The deal." in start
    assert "?step=1" in start and 'rel="next"' in start and 'rel="prev"' not in start
    record = registry.game("sheepshead").view(registry.game("sheepshead").from_json(rnd.state), None)["record"]
    panel = client.get(url, {"step": "0"}, **HTMX).content.decode()
    assert panel.lstrip().startswith('<section id="replay-panel"')
    shown = panel.count('<span class="card')
    assert shown == 5 * 6 + len(record["blind"]) + len(record["bury"])  # every hand, the blind and the bury
    for hand in record["hands"]:
        assert {card(c) for c in hand} <= cards_on_page(panel)
    step = client.get(url, {"step": "3"}, **HTMX).content.decode()
    assert 'data-step="3"' in step and "?step=2" in step and "?step=4" in step
    first = Move.objects.get(round=rnd, seq=1)
    after_one = client.get(url, {"step": "1"}, **HTMX).content.decode()
    prompt = re.search(r'<p class="prompt" aria-live="polite">(.*?)</p>', after_one).group(1)
    assert prompt.startswith("1. ") and ["Ann", "Ben", "Bot 3", "Bot 4", "Bot 5"][first.seat] in prompt
    end = client.get(url, {"step": str(total + 50)}).content.decode()
    assert f'data-step="{total}"' in end and 'rel="next"' not in end and 'rel="prev"' in end


def test_replay_states_follow_the_recorded_moves(two_tables) -> None:
    _ann, _ben, _cat, shared, _alone = two_tables
    rnd = Round.objects.get(match__table=shared, number=1)
    total = rnd.moves.count()
    dealt = replay_step(round=rnd, step=0)
    assert sum(len(s.hand) for s in dealt.seats) == 30 and len(dealt.blind) == 2
    over = replay_step(round=rnd, step=total)
    assert sum(len(s.hand) for s in over.seats) == 0
    assert all(s.delta_text for s in over.seats)
    assert [s.name for s in over.seats][:2] == ["Ann", "Ben"] and over.seats[2].is_bot


def test_the_admin_hides_seed_state_hands_and_moves_of_a_round_not_over(make_member) -> None:
    boss, _ann, table, live = staff_playing_an_unfinished_round(make_member)
    done = Round.objects.get(match__table=table, number=1)
    client = client_for(boss)
    page = client.get(reverse("admin:tables_round_change", args=[live.pk])).content.decode()
    assert live.seed not in page and "hidden until the round is over" in page
    hands = registry.game("sheepshead").from_json(live.state).hands
    assert not {str(c) for hand in hands for c in hand} & cards_on_page(page)
    replay = client.get(reverse("admin:tables_round_replay", args=[live.pk])).content.decode()
    assert live.seed not in replay and 'data-hidden="true"' in replay
    assert not cards_on_page(replay)
    assert client.get(reverse("admin:tables_round_replay", args=[live.pk]), {"step": "1"}).status_code == 404
    moves = client.get(reverse("admin:tables_move_changelist"), {"round__id__exact": live.pk}).content.decode()
    for move in live.moves.all():
        assert f">{move.text}<" not in moves
    finished = client.get(reverse("admin:tables_round_change", args=[done.pk])).content.decode()
    assert done.seed in finished
    full = client.get(reverse("admin:tables_round_replay", args=[done.pk])).content.decode()
    assert done.seed in full and "Every hand as dealt" in full and "Blind" in full
    assert full.count("<tr><td>") >= done.moves.count()
    match_page = client.get(reverse("admin:tables_match_change", args=[table.match.pk])).content.decode()
    assert table.match.seed not in match_page


def test_admin_filters_by_game_member_and_date_and_exports_rounds(two_tables, make_member) -> None:
    ann, _ben, cat, shared, alone = two_tables
    boss = make_member("boss", is_staff=True, is_superuser=True)
    client = client_for(boss)
    by_game = client.get(reverse("admin:tables_round_changelist"), {"match__table__game__exact": "hawk"})
    listed = by_game.content.decode()
    assert escape(str(Round.objects.get(match__table=alone, number=1))) in listed
    assert escape(str(Round.objects.get(match__table=shared, number=1))) not in listed
    by_member = client.get(reverse("admin:tables_ledgerentry_changelist"), {"member": str(cat.pk)}).content.decode()
    results = by_member.split('id="result_list"', 1)[1].split("</table>", 1)[0]
    assert "Ann" not in results and "cat" in results
    rows = client.get(reverse("admin:tables_round_changelist"), {"member": str(ann.pk)}).content.decode()
    rows = rows.split('id="result_list"', 1)[1].split("</table>", 1)[0]
    assert escape(str(Round.objects.get(match__table=shared, number=1))) in rows
    assert escape(str(Round.objects.get(match__table=alone, number=1))) not in rows
    today = Round.objects.first().started_at
    dated = client.get(reverse("admin:tables_move_changelist"), {
        "created_at__year": today.year, "created_at__month": today.month, "member": str(ann.pk)})
    assert dated.status_code == 200
    export = client.get(reverse("admin:tables_round_export"))
    lines = b"".join(export.streaming_content).decode().strip().splitlines()
    assert lines[0].startswith("id,table,game,round")
    assert any(shared.code in line for line in lines)
    live = current_round(full_table("hawsker", [make_member("dora")], bots=1))
    lines = b"".join(client.get(reverse("admin:tables_round_export")).streaming_content).decode().splitlines()
    line = next(line for line in lines if line.startswith(f"{live.pk},"))
    assert live.seed not in line and "hidden until the round is over" in line
