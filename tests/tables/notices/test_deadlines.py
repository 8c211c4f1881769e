"""The other notices at correspondence tables: the reminder NOTICE_REMINDER_HOURS before a member's deadline (once
per turn, not after it passed), the word that time ran out and the bot moved for them, and "the match is over"
once to each member."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Move, Notice, Table
from tables.notices.job import NoticeJob
from tables.play.services import clock
from tables.play.services.admin_actions import close_table
from tests.tables.helpers import current_round, full_table, seat_to_act, watching
from tests.tables.ledger_support import play_until_round_over
from tests.tables.notices.conftest import correspondence, run_job, text_of

pytestmark = pytest.mark.django_db


def hawsker(make_member, **extra):
    alice = make_member("alice", display_name="Alice", **extra)
    bob = make_member("bob", display_name="Bob", **extra)
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    return table, {0: alice, 1: bob}


def test_the_reminder_comes_once_n_hours_before_the_deadline(make_member, smtp, settings,
                                                             django_capture_on_commit_callbacks) -> None:
    settings.NOTICE_REMINDER_HOURS = 6
    table, members = hawsker(make_member, turn_emails="never")
    now = timezone.now()
    deadline = correspondence(table, hours=24, now=now).deadline
    to_act = members[seat_to_act(table)]
    job = NoticeJob()
    run_job(job, deadline - timedelta(hours=6, minutes=1), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []  # not yet
    run_job(job, deadline - timedelta(hours=5, minutes=59), django_capture_on_commit_callbacks)
    [reminder] = smtp.inbox.messages
    assert reminder["To"] == to_act.email
    assert str(reminder["Subject"]) == f"[The Card Club] Your time at {table} runs out in about 6 hours"
    run_job(job, deadline - timedelta(hours=1), django_capture_on_commit_callbacks)
    run_job(NoticeJob(), deadline - timedelta(minutes=10), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 1  # once per turn
    assert Notice.objects.get().kind == Notice.Kind.REMINDER


def test_no_reminder_once_the_deadline_passed_or_for_a_member_who_said_no(make_member, smtp,
                                                                          django_capture_on_commit_callbacks) -> None:
    table, members = hawsker(make_member, turn_emails="never")
    deadline = correspondence(table, hours=24).deadline
    run_job(NoticeJob(), deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []
    type(members[0]).objects.update(deadline_emails=False)
    run_job(NoticeJob(), deadline - timedelta(hours=1), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == [] and not Notice.objects.exists()


def test_a_short_table_is_reminded_at_half_its_hours(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, _members = hawsker(make_member, turn_emails="never")
    deadline = correspondence(table, hours=4).deadline
    run_job(NoticeJob(), deadline - timedelta(hours=2, minutes=5), django_capture_on_commit_callbacks)
    assert smtp.inbox.messages == []
    run_job(NoticeJob(), deadline - timedelta(hours=1, minutes=55), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 1


def test_time_ran_out_is_told_once_without_the_card(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    table, members = hawsker(make_member, turn_emails="never")
    deadline = correspondence(table, hours=24).deadline
    seat = seat_to_act(table)
    assert clock.advance(table_id=table.pk, now=deadline + timedelta(seconds=1))
    timed_out = Move.objects.get(round__match__table=table, actor=Move.Actor.TIMEOUT)
    assert timed_out.seat == seat
    job = NoticeJob()
    run_job(job, deadline + timedelta(minutes=1), django_capture_on_commit_callbacks)
    run_job(job, deadline + timedelta(minutes=2), django_capture_on_commit_callbacks)
    [told] = [m for m in smtp.inbox.messages if "ran out" in str(m["Subject"])]
    assert told["To"] == members[seat].email
    assert str(told["Subject"]) == f"[The Card Club] Your time ran out at {table}"
    assert "the bot made that move for you" in text_of(told)
    assert timed_out.text not in text_of(told)  # the move's text names the card: never in an email
    assert Notice.objects.filter(kind=Notice.Kind.TIMEOUT).count() == 1


def test_the_end_of_a_match_is_told_once_to_each_member_and_never_to_a_live_table(
        make_member, smtp, django_capture_on_commit_callbacks) -> None:
    alice = make_member("alice", display_name="Alice", turn_emails="never", deadline_emails=False)
    table = full_table("hawk", [alice], bots=3, rounds=1)
    Table.objects.filter(pk=table.pk).update(move_hours=24)
    play_until_round_over(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    job = NoticeJob()
    now = timezone.now()
    run_job(job, now, django_capture_on_commit_callbacks)
    run_job(job, now + timedelta(minutes=1), django_capture_on_commit_callbacks)
    [over] = smtp.inbox.messages
    assert over["To"] == alice.email and str(over["Subject"]) == f"[The Card Club] The match at {table} is over"
    assert "The match is over" in text_of(over)


def test_a_closed_correspondence_table_is_a_match_over_and_a_live_one_sends_nothing(
        make_member, smtp, django_capture_on_commit_callbacks) -> None:
    staff = make_member("staff", is_staff=True)
    alice = make_member("alice", turn_emails="never")
    bob = make_member("bob", turn_emails="never")
    live = full_table("hawk", [alice], bots=3)
    post = full_table("hawk", [bob], bots=3)
    Table.objects.filter(pk=post.pk).update(move_hours=48)
    for table in (live, post):
        close_table(table_id=table.pk, admin=staff, reason="the club closes early")
    run_job(NoticeJob(), timezone.now(), django_capture_on_commit_callbacks)
    assert [m["To"] for m in smtp.inbox.messages] == [bob.email]
    assert current_round(post) is not None
