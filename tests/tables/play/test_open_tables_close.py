"""A table still filling that nobody attends closes by itself (issue 40, item 6): once every member seated there has
been away for TABLE_OPEN_IDLE_CLOSE_MINUTES (no page of the table open, not in the lobby), the table clock closes it
with its reason, it leaves the lobby (the lobby's sockets are told), its seats hold nobody any more and its creator's
share of open tables is free. The table's `due_at` says when, so the clock comes exactly then, and not before."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from tables.invitations.services.invitations import invite
from tables.lobby.selectors import lobby_tables, my_tables
from tables.models import Invitation, Presence, Table
from tables.play import push
from tables.play.services import clock, presence
from tables.play.services.open_tables import IDLE_CLOSED
from tables.play.services.table_limits import TooManyTables
from tables.play.services.tables import create_table, ensure_free_to_sit, join_table, leave_table
from tables.seeding import seed_open_tables
from tests.tables.play.table_life import TICK, FakeTime, channel, close_page, due, fake_time, open_page, seat_of

pytestmark = pytest.mark.django_db

IDLE = timedelta(minutes=30)


@pytest.fixture(autouse=True)
def _idle_time(settings) -> None:
    settings.TABLE_OPEN_IDLE_CLOSE_MINUTES = 30


@pytest.fixture
def time(monkeypatch) -> FakeTime:
    return fake_time(monkeypatch)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict[str, Any]]]:
    """Every message that really leaves for the channel layer (pushes go out only after commit)."""
    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(push, "_send_all", lambda batch: messages.extend(batch))
    return messages


def sweep_at(time: FakeTime, when: Any, capture: Any) -> None:
    """The clock's pass at `when` (the time every service reads then), its pushes sent as after a commit."""
    time.to(when)
    with capture(execute=True):
        clock.sweep(now=when)


def status_of(table: Table) -> str:
    table.refresh_from_db()
    return table.status


def still_alive(table: Table, member: User) -> None:
    """The member's open page says it is alive (as its socket does every 25 s), at the time it is now."""
    assert presence.socket_seen(channel_name=channel(table, member))


def assert_closed_for_idleness(table: Table, members: list[User], sent: list[tuple[str, dict[str, Any]]]) -> None:
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert table.close_reason == IDLE_CLOSED and table.closed_by is None
    assert table.finished_at is not None and table.due_at is None
    assert table not in lobby_tables()
    assert (push.LOBBY_GROUP, {"type": "lobby.changed"}) in sent
    assert (push.table_group(table.pk), {"type": "table.changed", "version": table.version}) in sent
    for member in members:
        assert table not in my_tables(member)
        ensure_free_to_sit(member, refuse_open_seat=True)  # no seat held at an open table any more


def test_an_open_table_its_creator_left_closes_after_the_idle_time_and_frees_the_share(
        make_member, settings, time, sent, django_capture_on_commit_callbacks) -> None:
    settings.TABLES_OPEN_PER_MEMBER = 1
    alice = make_member("alice", display_name="Alice")
    table = create_table(creator=alice, game="hawk", players=4)
    open_page(table, alice)
    close_page(table, alice)
    gone = seat_of(table, alice).gone_at
    sweep_at(time, gone, django_capture_on_commit_callbacks)  # she is shown offline from now
    assert seat_of(table, alice).offline_since == gone
    assert due(table) == gone + IDLE  # the clock comes back exactly when the table would close
    with pytest.raises(TooManyTables):
        create_table(creator=alice, game="hawsker", players=2)  # her one open table is still waiting

    sent.clear()
    sweep_at(time, gone + IDLE - TICK, django_capture_on_commit_callbacks)  # a pass a moment early does nothing
    assert status_of(table) == Table.Status.OPEN and table in lobby_tables() and not sent
    assert due(table) == gone + IDLE

    sweep_at(time, gone + IDLE, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice], sent)
    assert table.finished_at == gone + IDLE
    create_table(creator=alice, game="hawsker", players=2)  # her share is free again


def test_a_creator_who_never_opened_the_tables_page_is_away_from_its_creation(
        make_member, time, sent, django_capture_on_commit_callbacks) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="sheepshead", players=5)
    table.refresh_from_db()
    assert due(table) == table.created_at + IDLE
    sweep_at(time, table.created_at + IDLE - TICK, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN
    sweep_at(time, table.created_at + IDLE, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice], sent)


def test_a_member_with_the_page_open_keeps_the_table_open_and_the_idle_time_runs_from_the_last_to_go(
        make_member, time, sent, django_capture_on_commit_callbacks) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4)
    join_table(table_id=table.pk, user=bob)
    open_page(table, bob)  # Alice never opens it: Bob waits at the table
    later = time.now + 3 * IDLE
    time.to(later)
    still_alive(table, bob)
    sweep_at(time, later, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN and table in lobby_tables()
    assert due(table) is None  # nothing to look at while someone is there: their page closing says when

    close_page(table, bob)
    gone = seat_of(table, bob).gone_at
    assert due(table) == gone
    sweep_at(time, gone, django_capture_on_commit_callbacks)
    assert due(table) == gone + IDLE  # from Bob's going, not from Alice's long absence
    sweep_at(time, gone + IDLE - TICK, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN
    sweep_at(time, gone + IDLE, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice, bob], sent)


def test_a_member_in_the_lobby_puts_the_close_off_by_the_idle_time_from_when_the_clock_saw_them(
        make_member, time, sent, django_capture_on_commit_callbacks) -> None:
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4)
    table.refresh_from_db()
    closes = table.created_at + IDLE
    time.to(closes)
    Presence.objects.create(channel_name="lobby-alice", user=alice, last_seen=closes)  # her lobby is open
    sweep_at(time, closes, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN
    assert due(table) == closes + IDLE
    Presence.objects.filter(channel_name="lobby-alice").delete()  # she closes the lobby
    sweep_at(time, closes + IDLE, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice], sent)


def test_the_last_member_here_leaving_lets_the_table_close_for_those_long_away(
        make_member, time, sent, django_capture_on_commit_callbacks) -> None:
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawk", players=4)
    join_table(table_id=table.pk, user=bob)
    open_page(table, bob)
    later = time.now + 2 * IDLE
    time.to(later)
    still_alive(table, bob)
    sweep_at(time, later, django_capture_on_commit_callbacks)
    assert due(table) is None
    leave_table(table_id=table.pk, user=bob)  # Alice, who never came, is all that is left
    assert due(table) is not None and due(table) <= later
    sweep_at(time, later, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice], sent)


def test_a_pending_invitation_keeps_the_table_waiting_until_it_ends(
        make_member, settings, time, sent, django_capture_on_commit_callbacks) -> None:
    settings.INVITATION_MINUTES = 120  # longer than the idle time: the table waits for the answer
    alice, bob = make_member("alice"), make_member("bob")
    table = create_table(creator=alice, game="hawsker", players=2, private=True)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    table.refresh_from_db()
    sweep_at(time, table.created_at + IDLE, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN
    assert due(table) == invitation.expires_at
    sweep_at(time, invitation.expires_at, django_capture_on_commit_callbacks)
    assert_closed_for_idleness(table, [alice], sent)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.EXPIRED


def test_with_the_setting_at_zero_an_open_table_waits_for_ever(
        make_member, settings, time, django_capture_on_commit_callbacks) -> None:
    settings.TABLE_OPEN_IDLE_CLOSE_MINUTES = 0
    alice = make_member("alice")
    table = create_table(creator=alice, game="hawk", players=4)
    assert due(table) is None
    open_page(table, alice)
    close_page(table, alice)
    gone = seat_of(table, alice).gone_at
    sweep_at(time, gone, django_capture_on_commit_callbacks)
    assert seat_of(table, alice).offline_since == gone and due(table) is None
    Table.objects.filter(pk=table.pk).update(due_at=gone + 10 * IDLE)  # even if the clock looks
    sweep_at(time, gone + 10 * IDLE, django_capture_on_commit_callbacks)
    assert status_of(table) == Table.Status.OPEN and due(table) is None


def test_the_closed_tables_page_says_why_in_english_and_german(make_member) -> None:
    alice = make_member("alice", display_name="Alice")
    table = create_table(creator=alice, game="hawk", players=4)
    Table.objects.filter(pk=table.pk).update(due_at=timezone.now())
    table.seats.filter(user=alice).update(joined_at=timezone.now() - 2 * IDLE)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - 2 * IDLE)
    assert clock.advance(table_id=table.pk)
    assert status_of(table) == Table.Status.ABANDONED
    url = reverse("table", args=[table.code])
    for language in ("en", "de"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(alice)
        html = client.get(url).content.decode()
        with translation.override(language):
            reason = translation.gettext(IDLE_CLOSED)
        assert reason in html.replace("&#x27;", "'").replace("&#39;", "'")
        if language == "de":
            assert reason != IDLE_CLOSED  # translated
        assert reverse("join", args=[table.code]) not in html  # no seat offered at a closed table


def test_the_clubs_own_open_tables_wait_for_ever(make_member, time, django_capture_on_commit_callbacks) -> None:
    """The demo's tables (`manage.py seed`) have no member seated, only bots waiting: nobody's absence to count."""
    tables = seed_open_tables()
    assert tables
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(due_at=time.now)  # as the migration leaves them
    sweep_at(time, time.now + 10 * IDLE, django_capture_on_commit_callbacks)
    for table in tables:
        assert status_of(table) == Table.Status.OPEN and due(table) is None
