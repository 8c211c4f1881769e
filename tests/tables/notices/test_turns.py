"""'Your turn' emails at correspondence tables: one per turn to the member to act, none to bots, none twice; the
next member gets theirs after a move; members who chose the daily summary get one a day at their hour instead;
live tables send nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tables.models import Notice, Round, Seat
from tables.notices import events
from tables.notices.job import NoticeJob
from tables.notices.sending import send_due
from tables.play.services import play
from tests.tables.helpers import current_round, full_table, legal_for, seat_to_act, watching
from tests.tables.notices.conftest import correspondence, member_moves, run_job, text_of

pytestmark = pytest.mark.django_db


def two_members(make_member, **extra):
    alice = make_member("alice", display_name="Alice", **extra.get("alice", {}))
    bob = make_member("bob", display_name="Bob", **extra.get("bob", {}))
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    return table, {0: alice, 1: bob}


def test_the_member_to_act_gets_one_email_and_a_second_look_sends_none(make_member, smtp,
                                                                       django_capture_on_commit_callbacks) -> None:
    table, members = two_members(make_member)
    now = timezone.now()
    correspondence(table, now=now)
    to_act = members[seat_to_act(table)]
    job = NoticeJob()
    run_job(job, now, django_capture_on_commit_callbacks)
    [message] = smtp.inbox.messages
    assert message["To"] == to_act.email
    assert str(message["Subject"]) == f"[The Card Club] Your turn at {table}"
    body = text_of(message)
    assert f"https://club.example/t/{table.code}/" in body and "Hello " + to_act.display_name in body
    assert "about 24 hours" in body
    # The next looks (a fresh job too, as another process or a restart would be) find the notice there.
    run_job(job, now + timedelta(minutes=1), django_capture_on_commit_callbacks)
    run_job(NoticeJob(), now + timedelta(minutes=2), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 1
    assert Notice.objects.get().sent_at is not None


def test_after_a_move_the_next_member_is_told(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, members = two_members(make_member)
    now = timezone.now()
    correspondence(table, now=now)
    first = seat_to_act(table)
    job = NoticeJob()
    run_job(job, now, django_capture_on_commit_callbacks)
    moved = 0
    while seat_to_act(table) == first:  # a Hawsker turn may be two moves (a draw, then the play)
        member_moves(table, members[first], legal_for(table, first)[0])
        moved += 1
        run_job(job, now + timedelta(minutes=moved), django_capture_on_commit_callbacks)
    second = seat_to_act(table)
    assert second is not None and second != first
    # The first member was not told again between the moves of their one turn; the second was told once.
    assert [m["To"] for m in smtp.inbox.messages] == [members[first].email, members[second].email]


def test_bots_and_away_members_are_not_told(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    alice = make_member("alice", display_name="Alice")
    table = full_table("hawk", [alice], bots=3)
    now = timezone.now()
    correspondence(table, now=now)
    assert seat_to_act(table) == 0  # instant bots: they moved up to the member's turn at once
    Seat.objects.filter(table=table, position=0).update(away=True)
    run_job(NoticeJob(), now, django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == [] and not Notice.objects.exists()
    Seat.objects.filter(table=table, position=0).update(away=False)
    run_job(NoticeJob(), now, django_capture_on_commit_callbacks)
    assert [m["To"] for m in smtp.inbox.messages] == [alice.email]


def test_a_live_table_sends_nothing(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, _members = two_members(make_member)
    assert table.move_hours == 0
    run_job(NoticeJob(), timezone.now(), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == [] and not Notice.objects.exists()


def test_a_member_who_said_never_gets_none(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, _members = two_members(make_member, alice={"turn_emails": "never"}, bob={"turn_emails": "never"})
    correspondence(table)
    run_job(NoticeJob(), timezone.now(), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []


def test_a_turn_gone_by_before_its_email_went_is_not_sent(make_member, smtp) -> None:
    """Found, then the member moved before the outbox was sent (a server that was down): no stale "your turn"."""
    table, members = two_members(make_member)
    now = timezone.now()
    correspondence(table, now=now)
    first = seat_to_act(table)
    assert events.scan(now=now) == 1
    play.play_move(table_id=table.pk, user=members[first], move_text=legal_for(table, first)[0],
                   expected_version=table.version)
    assert send_due(now=now) == 0
    notice = Notice.objects.get()
    assert notice.sent_at is None and notice.given_up_at is not None and "no longer" in notice.last_error
    assert smtp.inbox.messages == []


BERLIN = ZoneInfo("Europe/Berlin")


def test_the_daily_summary_comes_once_at_the_members_hour_and_no_turn_email(
        make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, members = two_members(make_member, alice={"turn_emails": "daily", "time_zone": "Europe/Berlin"},
                                 bob={"turn_emails": "daily", "time_zone": "Europe/Berlin"})
    today = timezone.now().astimezone(BERLIN).date()
    before = datetime(today.year, today.month, today.day, 7, 59, tzinfo=BERLIN) + timedelta(days=1)
    current = current_round(table)
    Round.objects.filter(pk=current.pk).update(moved_at=before - timedelta(hours=3))  # the turn came in the night
    correspondence(table, now=before - timedelta(hours=3))
    to_act = members[seat_to_act(table)]
    job = NoticeJob()
    run_job(job, before, django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []  # no per-turn email, and not yet the hour
    run_job(job, before + timedelta(minutes=1), django_capture_on_commit_callbacks)
    [digest] = smtp.inbox.messages
    assert digest["To"] == to_act.email and str(digest["Subject"]) == "[The Card Club] Your turn at 1 table"
    assert str(table) in text_of(digest) and f"https://club.example/t/{table.code}/" in text_of(digest)
    run_job(job, before + timedelta(hours=5), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 1  # one a day
    run_job(job, before + timedelta(days=1, minutes=1), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 2  # the next morning, the turn still waiting
    assert Notice.objects.filter(kind=Notice.Kind.TURN).count() == 0


def test_a_turn_that_came_after_the_hour_waits_for_the_next_summary(make_member, smtp,
                                                                      django_capture_on_commit_callbacks) -> None:
    table, members = two_members(make_member, alice={"turn_emails": "daily", "time_zone": "Europe/Berlin"},
                                 bob={"turn_emails": "daily", "time_zone": "Europe/Berlin"})
    today = timezone.now().astimezone(BERLIN).date()
    nine = datetime(today.year, today.month, today.day, 9, 0, tzinfo=BERLIN) + timedelta(days=1)
    Round.objects.filter(pk=current_round(table).pk).update(moved_at=nine)  # the turn came at 9:00
    correspondence(table, hours=72, now=nine)
    job = NoticeJob()
    run_job(job, nine + timedelta(hours=1), django_capture_on_commit_callbacks)
    run_job(job, nine + timedelta(hours=14), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []
    run_job(job, nine + timedelta(hours=23, minutes=1), django_capture_on_commit_callbacks)  # 8:01 the next day
    assert [m["To"] for m in smtp.inbox.messages] == [members[seat_to_act(table)].email]
