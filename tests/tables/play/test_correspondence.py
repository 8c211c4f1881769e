"""Correspondence tables (issue 44): a move every few hours or days. Offline is how their members wait, so nobody's
absence plays their turn, closes the table or hands a round to the house: only a turn's deadline passes it to the bot.
A member may hold several such tables beside one live table, up to the club's cap."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from tables.models import Move, Round, Seat, Table
from tables.play import pace
from tables.play.member_tables import member_tables
from tables.play.rendering import board_html
from tables.play.services import clock, play
from tables.play.services.errors import NotAllowed, PlayingElsewhere, TableError
from tables.play.services.tables import create_table, join_table, leave_table
from tests.tables.helpers import client_for, current_round, full_table, legal_for, new_table_data, seat_to_act
from tests.tables.play.table_life import close_page, due, fake_time, moves_at, open_page, seat_of

pytestmark = pytest.mark.django_db

DAY = timedelta(hours=24)


def hawsker_by_post(alice, bob, hours: int = 24) -> Table:
    """Alice's correspondence Hawsker table, Bob seated: the match has started."""
    table = create_table(creator=alice, game="hawsker", players=2, move_hours=hours)
    join_table(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    return table


def members_move_until_bots(table: Table, members: dict[int, object], rng: random.Random) -> None:
    """The members move at random while one of them is to act (the bots of a correspondence table move at once)."""
    for _ in range(100):
        table.refresh_from_db()
        seat = seat_to_act(table)
        if seat not in members:
            return
        play.play_move(table_id=table.pk, user=members[seat], move_text=rng.choice(legal_for(table, seat)),
                       expected_version=table.version)


def test_a_turn_has_the_tables_hours_and_offline_members_keep_it_until_then(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = hawsker_by_post(alice, bob)
    seat = seat_to_act(table)
    late = [alice, bob][seat]
    deadline = current_round(table).deadline
    assert deadline == time.now + DAY  # the hours of the table, not its seconds per turn

    # Both close their pages and stay away for most of a day: offline, and nothing is played for them.
    open_page(table, alice)
    open_page(table, bob)
    close_page(table, alice)
    close_page(table, bob)
    time.now += timedelta(hours=23)
    clock.sweep(now=time.now)
    assert seat_of(table, late).offline_since is not None  # shown offline, as at any table
    assert not moves_at(table).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING  # everyone offline for hours does not close it
    assert due(table) == deadline

    # The day runs out: the bot plays that one move, as the time-out, and the next turn has a day again.
    time.now = deadline
    clock.sweep(now=time.now)
    assert [(m.seat, m.actor) for m in moves_at(table)] == [(seat, Move.Actor.TIMEOUT)]
    assert current_round(table).deadline == deadline + DAY
    time.now += timedelta(hours=20)
    clock.sweep(now=time.now)
    assert moves_at(table).count() == 1


def test_a_live_table_hands_the_same_offline_member_to_the_bot_after_its_grace(make_member, monkeypatch) -> None:
    """The other side of the rule above, so the test above cannot pass for a reason of its own."""
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    seat = seat_to_act(table)
    late = [alice, bob][seat]
    open_page(table, late)
    close_page(table, late)
    time.now += pace.OFFLINE_AFTER + timedelta(seconds=table.grace_seconds + 1)
    clock.sweep(now=time.now)
    clock.sweep(now=time.now + timedelta(seconds=5))
    assert [m.actor for m in moves_at(table)][:1] == [Move.Actor.ABSENT]


def test_rounds_dealt_while_members_are_offline_are_theirs_not_the_houses(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = hawsker_by_post(alice, bob, hours=12)
    rng = random.Random(3)
    for _ in range(400):  # the members play the first round out, each move from a page closed at once
        if current_round(table).number > 1:
            break
        if current_round(table).over:
            # the clock comes an hour after the pause ended: both show offline by then, and the next round is dealt
            time.now = current_round(table).deadline + timedelta(hours=1)
            clock.sweep(now=time.now)
            continue
        members_move_until_bots(table, {0: alice, 1: bob}, rng)
    for member in (alice, bob):
        assert seat_of(table, member).offline_since is not None
    second = current_round(table)
    assert second.number == 2
    assert second.house_seats == []  # offline at the deal, still their own round
    assert second.deadline is not None and second.deadline - time.now <= timedelta(hours=12)


def test_bots_at_a_correspondence_table_move_at_once(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="sheepshead", players=5, fill_with_bots=True, move_hours=48,
                         bot_speed=Table.BotSpeed.SLOW, bot_level=Table.BotLevel.EASY)
    table.refresh_from_db()
    assert table.bot_speed == Table.BotSpeed.INSTANT  # whatever was asked: nobody sits there to watch them
    rng = random.Random(1)
    for _ in range(30):
        members_move_until_bots(table, {0: alice}, rng)
        if current_round(table).over:
            break
        assert seat_to_act(table) == 0  # after each of her moves the bots have played up to her again
    assert current_round(table).deadline is not None


def test_hours_that_are_not_offered_are_refused_and_make_no_table(make_member) -> None:
    alice = make_member("alice")
    with pytest.raises(TableError):
        create_table(creator=alice, game="hawsker", players=2, move_hours=5)
    assert not Table.objects.exists()


def test_a_live_player_may_hold_correspondence_tables_and_they_do_not_count_as_playing(make_member, settings) -> None:
    settings.CORRESPONDENCE_TABLES_PER_MEMBER = 2
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    hawsker_by_post(alice, bob)
    hawsker_by_post(alice, carol)  # a second correspondence table: allowed
    live = full_table("hawsker", [alice, bob])  # and a live one beside them
    assert live.status == Table.Status.RUNNING
    # At a live table she may not start another live one...
    with pytest.raises(PlayingElsewhere):
        create_table(creator=alice, game="hawsker", players=2)
    # ...and a third correspondence table is over the club's cap, refused with the number, nothing made.
    tables_before = Table.objects.count()
    with pytest.raises(NotAllowed, match="2 correspondence tables"):
        create_table(creator=alice, game="hawsker", players=2, move_hours=24)
    third = create_table(creator=carol, game="hawsker", players=2, move_hours=24)
    with pytest.raises(NotAllowed):
        join_table(table_id=third.pk, user=alice)
    assert Table.objects.count() == tables_before + 1
    # Leaving one frees a place under the cap.
    first = Table.objects.filter(move_hours__gt=0, seats__user=alice).order_by("pk").first()
    leave_table(table_id=first.pk, user=alice)
    join_table(table_id=third.pk, user=alice)


def test_an_open_correspondence_table_waits_days_for_players(make_member, monkeypatch, settings) -> None:
    settings.TABLE_OPEN_IDLE_CLOSE_MINUTES = 30
    settings.CORRESPONDENCE_OPEN_CLOSE_DAYS = 7
    time = fake_time(monkeypatch)
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawsker", players=2, move_hours=24)
    live = create_table(creator=alice, game="hawk", players=4)
    start = time.now
    time.now = start + timedelta(hours=2)
    clock.sweep(now=time.now)
    table.refresh_from_db()
    live.refresh_from_db()
    assert live.status == Table.Status.ABANDONED  # a live table nobody attends closes within the hour
    assert table.status == Table.Status.OPEN
    time.now = start + timedelta(days=7, minutes=1)
    clock.sweep(now=time.now)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED


def test_the_board_says_by_when_in_the_viewers_zone_and_the_rules_say_the_pace(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    time.now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    alice, bob = make_member("alice", time_zone="Europe/Berlin"), make_member("bob", time_zone="America/Chicago")
    table = hawsker_by_post(alice, bob)
    html_alice = board_html(table, alice).html
    html_bob = board_html(table, bob).html
    # 12:00 UTC plus a day: 13:00 in Berlin, 06:00 in Chicago
    assert "Move by Tue 8 Dec, 13:00 CET" in html_alice
    assert "Move by Tue 8 Dec, 06:00 CST" in html_bob
    assert "data-deadline" not in html_alice  # no seconds counting down for a day
    assert "A move a day" in html_alice


def test_my_tables_lists_where_it_is_my_turn_first_soonest_first(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    slow = hawsker_by_post(alice, bob, hours=72)
    time.now += timedelta(minutes=5)
    quick = hawsker_by_post(alice, carol, hours=12)
    waiting = create_table(creator=alice, game="hawsker", players=2, move_hours=24)
    for table in (slow, quick):  # make it Alice's turn at both
        other = bob if table == slow else carol
        for _ in range(10):
            if seat_to_act(table) == 0:
                break
            table.refresh_from_db()
            play.play_move(table_id=table.pk, user=other, move_text=legal_for(table, 1)[0],
                           expected_version=table.version)
        assert seat_to_act(table) == 0
    rows = member_tables(alice)
    assert [row.table.pk for row in rows] == [quick.pk, slow.pk, waiting.pk]
    assert [row.my_turn for row in rows] == [True, True, False]
    assert [row.my_turn for row in member_tables(bob)] == [False]
    assert member_tables(bob)[0].to_act == alice.shown_name

    page = client_for(alice).get(reverse("my_tables"))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.index(f'data-table="{quick.code}"') < text.index(f'data-table="{slow.code}"')
    assert text.count("data-my-turn") == 2
    assert "a move every 12 hours" in text and "a move every 3 days" in text


def test_the_lobby_form_makes_a_correspondence_table_and_refuses_nonsense(make_member) -> None:
    alice = make_member("alice")
    client = client_for(alice)
    for nonsense in ("abc", "5", "-24"):
        response = client.post(reverse("create_table"), {**new_table_data("hawsker"), "move_hours": nonsense})
        assert response.status_code == 400 and not Table.objects.exists()
        assert "Select a valid choice" in response.content.decode()
    response = client.post(reverse("create_table"), {**new_table_data("hawsker"), "move_hours": "48"})
    table = Table.objects.get()
    assert response.status_code == 302 and table.move_hours == 48 and table.correspondence
    lobby = client.get(reverse("lobby")).content.decode()
    assert "correspondence, a move every 2 days" in lobby


def test_the_deadline_survives_presence_changes_and_a_round_row_keeps_it(make_member, monkeypatch) -> None:
    """A page opened or closed makes a new version but no move: the turn's time runs on from the last move."""
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = hawsker_by_post(alice, bob)
    deadline = current_round(table).deadline
    time.now += timedelta(hours=5)
    open_page(table, alice)
    close_page(table, alice)
    time.now += timedelta(minutes=1)
    clock.sweep(now=time.now)
    assert Round.objects.get(pk=current_round(table).pk).deadline == deadline


def test_a_missed_move_can_be_leaving_the_seat_and_the_member_takes_it_back(make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2, move_hours=12,
                         missed_move=Table.MissedMove.LEAVES)
    join_table(table_id=table.pk, user=bob)
    seat = seat_to_act(table)
    late, other = ([alice, bob][seat], [alice, bob][1 - seat])
    time.now = current_round(table).deadline
    clock.sweep(now=time.now)
    assert [m.actor for m in moves_at(table)][:1] == [Move.Actor.TIMEOUT]
    assert seat_of(table, late).away  # as if they had clicked "Leave"
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING  # the other member plays on against the bot
    # From now on the bot plays the seat whenever it is to act, with no deadline to wait for.
    rng = random.Random(2)
    members_move_until_bots(table, {1 - seat: other}, rng)
    clock.sweep(now=time.now + timedelta(seconds=1))
    assert seat_to_act(table) in (1 - seat, None)
    # Between rounds (or now, for the next one) the member takes the seat back.
    join_table(table_id=table.pk, user=late)
    assert not seat_of(table, late).away


def test_a_missed_move_is_only_the_bots_move_by_default_and_everyone_missing_closes_a_leaving_table(
        make_member, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    alice, bob = make_member("alice"), make_member("bob")
    kept = hawsker_by_post(alice, bob)
    time.now = current_round(kept).deadline
    clock.sweep(now=time.now)
    assert not Seat.objects.filter(table=kept, away=True).exists()  # the default: the bot's move, nothing more

    carol, dave = make_member("carol"), make_member("dave")
    leaving = create_table(creator=carol, game="hawsker", players=2, move_hours=12,
                           missed_move=Table.MissedMove.LEAVES)
    join_table(table_id=leaving.pk, user=dave)
    for _ in range(10):  # both let their time run out, one after the other
        leaving.refresh_from_db()
        if leaving.status != Table.Status.RUNNING:
            break
        time.now = max(time.now, current_round(leaving).deadline or time.now) + timedelta(seconds=1)
        clock.sweep(now=time.now)
    leaving.refresh_from_db()
    assert leaving.status == Table.Status.ABANDONED
    assert "let their time run out" in leaving.close_reason
    with pytest.raises(TableError):
        create_table(creator=carol, game="hawsker", players=2, move_hours=12, missed_move="shrug")
