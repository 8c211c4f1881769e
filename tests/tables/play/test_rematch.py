"""A rematch at a finished table, and "Play again" at a practice table (issue 41, item 5): the same table again as a
new one (seats, bots and house rules kept), made once every member has accepted, or with the seats of those who did
not free; the finished table's record untouched; one rematch a table however members click; the club's limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from tables.models import LedgerEntry, Match, Rematch, Round, Seat, Table
from tables.play import privacy
from tables.play.rendering import render_board
from tables.play.services import clock
from tables.play.services.errors import NotAllowed, NotSeated, StaleVersion, TableError
from tables.play.services.rematch import ANSWER_TIME, answer_rematch
from tables.play.services.table_limits import TooManyTables
from tables.play.services.tables import add_bot, create_table, join_table
from tests.tables.helpers import client_for, full_table
from tests.tables.ledger_support import play_until_round_over

pytestmark = pytest.mark.django_db


def finished(members: list[User], *, bots: int, **options: object) -> Table:
    """A Hawk table of one round, played to its end: the match is over."""
    table = full_table("hawk", members, bots=bots, rounds=1, **options)
    play_until_round_over(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def seats_of(table: Table) -> list[tuple[int, str | None, bool, str]]:
    return [(s.position, s.user.username if s.user else None, s.is_bot, s.bot_level)
            for s in Seat.objects.filter(table=table).select_related("user").order_by("position")]


def record_of(table: Table) -> tuple[object, ...]:
    """What the finished table's match left behind: its rows as they stand."""
    return (list(Match.objects.filter(table=table).values()), list(Round.objects.filter(match__table=table).values()),
            list(LedgerEntry.objects.filter(round__match__table=table).values()),
            Table.objects.filter(pk=table.pk).values("status", "finished_at", "name", "options").get())


def test_play_again_at_a_practice_table_starts_the_same_table_anew_at_once(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, options={"rounds": 1}, turn_seconds=45,
                         bot_speed="instant")
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice, bot_level="easy")
    table.refresh_from_db()
    play_until_round_over(table)  # easy bots, who play at once here; the levels below are what the rematch copies
    Table.objects.filter(pk=table.pk).update(bot_level="normal")
    Seat.objects.filter(table=table, position=1).update(bot_level="strong")
    table.refresh_from_db()
    before = record_of(table)

    answered = answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)

    new = Table.objects.get(code=answered.go_to)
    assert new.pk != table.pk and new.status == Table.Status.RUNNING  # one click: it plays
    assert (new.game, new.options, new.seat_count, new.turn_seconds, new.bot_speed, new.bot_level) == (
        table.game, table.options, 4, 45, "instant", "normal")
    # another table: the club's name for it is her next one, never the finished table's (names unique over time)
    assert (table.name, new.name) == ("alice's Hawk table", "alice's Hawk table 2")
    assert seats_of(new) == [(0, "alice", False, ""), (1, None, True, "strong"), (2, None, True, ""),
                             (3, None, True, "easy")]
    assert new.created_by == alice  # it counts against her, as a table she opened
    assert Rematch.objects.get(table=table).new_table == new
    assert record_of(table) == before  # the finished match's record is as it was
    assert answered.version > table.version
    old_board = render_board(table, alice)
    assert "Go to the new table" in old_board and "data-rematch-go" in old_board


def test_a_rematch_of_a_table_its_member_named_keeps_the_name(make_member) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4, options={"rounds": 1}, name="Friday night",
                         bot_speed="instant")
    for _ in range(3):
        add_bot(table_id=table.pk, user=alice)
    table.refresh_from_db()
    play_until_round_over(table)
    answered = answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    assert Table.objects.get(code=answered.go_to).name == "Friday night"  # the member's choice, carried on


def test_a_rematch_starts_once_every_member_has_accepted_and_keeps_the_seats(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished([alice, bob], bots=2)
    before = record_of(table)
    assert "Rematch" in render_board(table, alice) and 'data-rematch="none"' in render_board(table, alice)
    assert "data-rematch-answer" not in render_board(table, carol)  # a spectator has nothing to answer

    asked = answer_rematch(table_code=table.code, user=bob, accept=True, offer=None)
    assert asked.go_to is None
    offer = Rematch.objects.get(table=table)
    assert (offer.state, offer.asked_by, offer.accepted, offer.new_table) == ("asked", bob, [bob.pk], None)
    table.refresh_from_db()
    assert table.due_at == offer.expires_at  # the clock comes when the wait is over
    board = render_board(table, alice)
    assert "bob asked for a rematch" in board and "Accept the rematch" in board and "not answered yet" in board

    accepted = answer_rematch(table_code=table.code, user=alice, accept=True, offer=offer.pk)

    offer.refresh_from_db()
    new = offer.new_table
    assert accepted.go_to == new.code and offer.state == "started"
    assert new.status == Table.Status.RUNNING and new.created_by == bob  # who asked
    assert seats_of(new) == [(0, "alice", False, ""), (1, "bob", False, ""), (2, None, True, ""), (3, None, True, "")]
    assert record_of(table) == before
    table.refresh_from_db()
    assert table.due_at is None
    # Every page of the finished table gets the link; the members' pages go there (data-rematch-go), a watcher's not.
    for member in (alice, bob):
        assert f'href="/t/{new.code}/" data-rematch-go' in render_board(table, member)
    watcher = render_board(table, carol)
    assert "Go to the rematch" in watcher and "data-rematch-go" not in watcher


def test_asking_twice_two_members_asking_at_once_and_accepting_again_make_one_rematch(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    first = answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    again = answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)  # a double click
    assert again.version == first.version  # nothing changed, not even the version
    # Bob clicked "Rematch" on a board that showed none yet: his asking accepts Alice's.
    both = answer_rematch(table_code=table.code, user=bob, accept=True, offer=None)
    tables = Table.objects.count()
    late = answer_rematch(table_code=table.code, user=bob, accept=True, offer=None)  # his second click
    assert late.go_to == both.go_to is not None
    assert Table.objects.count() == tables and Rematch.objects.count() == 1


def test_refusals_change_nothing(make_member) -> None:
    alice, bob, carol, dave = make_member("alice"), make_member("bob"), make_member("carol"), make_member("dave")
    running = full_table("hawk", [dave], bots=3, rounds=2)
    with pytest.raises(TableError, match="once the match is over"):
        answer_rematch(table_code=running.code, user=dave, accept=True, offer=None)
    play_until_round_over(running)  # the first of two rounds: the match goes on
    with pytest.raises(TableError, match="once the match is over"):
        answer_rematch(table_code=running.code, user=dave, accept=True, offer=None)

    table = finished([alice, bob], bots=2)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(NotSeated):
        answer_rematch(table_code=table.code, user=carol, accept=True, offer=None)
    with pytest.raises(TableError, match="Nobody has asked"):
        answer_rematch(table_code=table.code, user=bob, accept=False, offer=None)
    with pytest.raises(StaleVersion):  # an offer this table never had
        answer_rematch(table_code=table.code, user=bob, accept=True, offer=10_000)
    assert Rematch.objects.count() == 0 and Table.objects.get(pk=table.pk).version == version

    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    answer_rematch(table_code=table.code, user=bob, accept=False, offer=offer.pk)  # opens with bob's seat free
    offer.refresh_from_db()
    assert offer.state == "opened"
    with pytest.raises(TableError, match="without waiting for you"):  # a late accept, on the board he had
        answer_rematch(table_code=table.code, user=bob, accept=True, offer=offer.pk)
    with pytest.raises(TableError, match="begun already"):
        answer_rematch(table_code=table.code, user=alice, accept=False, offer=offer.pk)


def test_a_decline_opens_the_rematch_with_that_seat_free_and_the_member_may_still_take_it(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished([alice, bob, carol], bots=1)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    answer_rematch(table_code=table.code, user=carol, accept=True, offer=offer.pk)
    assert Rematch.objects.get(pk=offer.pk).state == "asked"  # bob has not answered yet
    declined = answer_rematch(table_code=table.code, user=bob, accept=False, offer=offer.pk)
    assert declined.go_to is None
    offer.refresh_from_db()
    new = offer.new_table
    assert offer.state == "opened" and new.status == Table.Status.OPEN and new.due_at is not None
    assert seats_of(new) == [(0, "alice", False, ""), (1, None, False, ""), (2, "carol", False, ""),
                             (3, None, True, "")]
    board = render_board(table, bob)
    assert "free seats for bob" in board and "Go to the rematch" in board and "data-rematch-go" not in board
    assert "data-rematch-go" in render_board(table, carol)
    join_table(table_id=new.pk, user=bob)  # he changed his mind: his seat is still there
    new.refresh_from_db()
    assert new.status == Table.Status.RUNNING


def test_the_clock_opens_the_rematch_when_the_wait_is_over(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    assert not clock.advance(table_id=table.pk, now=offer.expires_at - timedelta(seconds=1))
    assert Rematch.objects.get(pk=offer.pk).state == "asked"
    version = Table.objects.get(pk=table.pk).version
    assert clock.advance(table_id=table.pk, now=offer.expires_at)
    offer.refresh_from_db()
    assert offer.state == "opened" and offer.expires_at - offer.created_at == ANSWER_TIME
    assert seats_of(offer.new_table) == [(0, "alice", False, ""), (1, None, False, ""), (2, None, True, ""),
                                         (3, None, True, "")]
    table.refresh_from_db()
    assert table.version == version + 1 and table.due_at is None
    assert not clock.advance(table_id=table.pk, now=offer.expires_at + timedelta(minutes=5))  # nothing more to do


def test_a_rematch_nobody_accepts_is_cancelled(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    answer_rematch(table_code=table.code, user=alice, accept=False, offer=offer.pk)  # she changed her mind
    tables = Table.objects.count()
    answer_rematch(table_code=table.code, user=bob, accept=False, offer=offer.pk)
    offer.refresh_from_db()
    assert (offer.state, offer.reason, offer.new_table) == ("cancelled", "nobody", None)
    assert Table.objects.count() == tables
    assert "The rematch was cancelled. Nobody accepted it." in render_board(table, bob)
    with pytest.raises(TableError, match="cancelled"):
        answer_rematch(table_code=table.code, user=bob, accept=True, offer=None)


def test_a_member_playing_elsewhere_cannot_accept_and_one_who_went_there_since_keeps_a_free_seat(
        make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = finished([alice, bob, carol], bots=1)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    offer = Rematch.objects.get(table=table)
    answer_rematch(table_code=table.code, user=bob, accept=True, offer=offer.pk)
    create_table(creator=bob, game="hawk", players=2, fill_with_bots=True)  # bob plays elsewhere meanwhile
    elsewhere = create_table(creator=carol, game="hawk", players=2, fill_with_bots=True)
    with pytest.raises(NotAllowed, match="already playing"):
        answer_rematch(table_code=table.code, user=carol, accept=True, offer=offer.pk)
    Seat.objects.filter(table=elsewhere, user=carol).update(away=True)  # carol left that table
    answer_rematch(table_code=table.code, user=carol, accept=True, offer=offer.pk)
    offer.refresh_from_db()
    assert offer.state == "opened" and offer.accepted == [alice.pk, carol.pk]
    assert seats_of(offer.new_table) == [(0, "alice", False, ""), (1, None, False, ""), (2, "carol", False, ""),
                                         (3, None, True, "")]


def test_the_rematch_counts_against_the_start_limit_of_the_member_who_asks(make_member, settings) -> None:
    settings.TABLE_STARTS_PER_MEMBER = 2
    settings.TABLES_OPEN_PER_MEMBER = 3
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)  # alice's first table
    practice = create_table(creator=alice, game="hawk", players=2, options={"rounds": 1}, fill_with_bots=True)
    play_until_round_over(practice)  # her second: she has started as many as the club allows
    with pytest.raises(TooManyTables):
        answer_rematch(table_code=practice.code, user=alice, accept=True, offer=None)  # "Play again"
    with pytest.raises(TooManyTables):
        answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    assert Rematch.objects.count() == 0
    answered = answer_rematch(table_code=table.code, user=bob, accept=True, offer=None)  # bob has started none
    offer = Rematch.objects.get(table=table)
    answered = answer_rematch(table_code=table.code, user=alice, accept=True, offer=offer.pk)
    assert Table.objects.get(code=answered.go_to).created_by == bob


def test_a_limit_reached_by_the_time_the_rematch_is_made_cancels_it(make_member, settings) -> None:
    settings.TABLES_OPEN_PER_MEMBER = 1
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    create_table(creator=alice, game="hawk", players=4)  # an open table of hers: as many as she may hold
    offer = Rematch.objects.get(table=table)
    answer_rematch(table_code=table.code, user=bob, accept=False, offer=offer.pk)  # would open with bob's seat free
    offer.refresh_from_db()
    assert (offer.state, offer.reason, offer.new_table) == ("cancelled", "limit", None)
    assert "has as many tables as the club allows" in render_board(table, alice)


def test_a_private_tables_rematch_is_for_the_members_who_played_there(make_member) -> None:
    alice, bob, carol = make_member("alice"), make_member("bob"), make_member("carol")
    table = create_table(creator=alice, game="hawk", players=2, options={"rounds": 1}, private=True)
    Table.objects.filter(pk=table.pk).update(private=False)  # bob sits down (as if invited), then it is private
    join_table(table_id=table.pk, user=bob)
    Table.objects.filter(pk=table.pk).update(private=True)
    table.refresh_from_db()
    play_until_round_over(table)
    answer_rematch(table_code=table.code, user=alice, accept=True, offer=None)
    answer_rematch(table_code=table.code, user=bob, accept=False, offer=Rematch.objects.get(table=table).pk)
    new = Rematch.objects.get(table=table).new_table
    assert new.private and new.status == Table.Status.OPEN
    assert privacy.may_sit(new, bob) and privacy.may_watch(new, bob)
    assert not privacy.may_sit(new, carol) and not privacy.may_watch(new, carol)
    join_table(table_id=new.pk, user=bob)
    assert Table.objects.get(pk=new.pk).status == Table.Status.RUNNING


HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_page_asks_answers_and_sends_the_members_to_the_new_table(make_member) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = finished([alice, bob], bots=2)
    url = reverse("rematch", args=[table.code])
    page = client_for(alice).get(reverse("table", args=[table.code])).content.decode()
    assert f'hx-post="{url}"' in page and "js/rematch.js" in page

    asked = client_for(alice).post(url, {"answer": "yes", "offer": ""}, **HTMX)
    assert asked.status_code == 200
    assert "alice asked for a rematch" in asked.content.decode() and 'id="board"' in asked.content.decode()
    offer = Rematch.objects.get(table=table)
    answered = client_for(bob).post(url, {"answer": "yes", "offer": str(offer.pk)}, **HTMX)
    new = Rematch.objects.get(pk=offer.pk).new_table
    # The answer is the board with the link the page's script follows (as it follows the same board pushed over the
    # socket): no HX-Redirect besides, which would start a second navigation and abort the first.
    assert answered.status_code == 200 and "HX-Redirect" not in answered
    assert f'href="{reverse("table", args=[new.code])}" data-rematch-go' in answered.content.decode()
    # Without htmx: a redirect there too (a double click of a page without its script).
    again = client_for(bob).post(url, {"answer": "yes", "offer": str(offer.pk)})
    assert again.status_code == 302 and again["Location"] == reverse("table", args=[new.code])


@pytest.mark.parametrize("fields", [{"answer": "maybe", "offer": ""}, {"answer": "yes", "offer": "first"}, {}])
def test_the_page_refuses_what_is_no_answer_in_words(make_member, fields) -> None:
    alice = make_member("alice")
    table = finished([alice], bots=3)
    response = client_for(alice).post(reverse("rematch", args=[table.code]), fields, **HTMX)
    assert response.status_code == 400 and response["HX-Retarget"] == "#table-error"
    assert "not an answer to a rematch" in response.content.decode()
    assert Rematch.objects.count() == 0


def test_a_watcher_is_refused_in_words(make_member) -> None:
    alice, carol = make_member("alice"), make_member("carol")
    table = finished([alice], bots=3)
    response = client_for(carol).post(reverse("rematch", args=[table.code]), {"answer": "yes", "offer": ""}, **HTMX)
    assert response.status_code == 403 and "Only the players of this match" in response.content.decode()
    assert Rematch.objects.count() == 0
