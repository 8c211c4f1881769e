"""Sending the outbox: after commit, a failed try (the server down, or answering 451) retried later and the email
sent once when the server is back; two processes never send one notice twice; given up after the last try."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Notice
from tables.notices import outbox
from tables.notices.job import NoticeJob
from tables.notices.sending import send_due
from tests.tables.notices.conftest import run_job

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_turn(make_member, smtp):
    """A member whose turn is waiting at a correspondence table, with their 'your turn' notice in the outbox."""
    from tables.notices import events
    from tests.tables.helpers import full_table, seat_to_act, watching
    from tests.tables.notices.conftest import correspondence

    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    now = timezone.now()
    correspondence(table, now=now)
    assert events.scan(now=now) == 1
    return [alice, bob][seat_to_act(table)], now


def test_adding_a_notice_twice_adds_one_and_leaves_the_transaction_usable(make_member) -> None:
    alice = make_member("alice")
    now = timezone.now()
    assert outbox.add_notice(key="k:1", kind=Notice.Kind.TURN, user=alice, now=now)
    assert not outbox.add_notice(key="k:1", kind=Notice.Kind.TURN, user=alice, now=now)
    assert Notice.objects.filter(key="k:1").count() == 1  # and the test's transaction still answers


def test_nothing_is_sent_before_the_scan_commits(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    from tests.tables.helpers import full_table, watching
    from tests.tables.notices.conftest import correspondence

    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    correspondence(table)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        NoticeJob()(now=timezone.now())
    assert smtp.inbox.messages == [] and len(callbacks) == 2  # the sending (pushes, emails) waits for the commit
    for callback in callbacks:
        callback()
    assert len(smtp.inbox.messages) == 1


def test_a_server_that_is_down_gets_the_email_once_it_is_back(waiting_turn, smtp) -> None:
    member, now = waiting_turn
    smtp.stop()
    assert send_due(now=now) == 0
    notice = Notice.objects.get()
    assert notice.sent_at is None and notice.attempts == 1 and notice.last_error
    assert notice.next_try_at > now and notice.claimed_until is None
    assert send_due(now=now + timedelta(seconds=10)) == 0  # not before its time
    assert Notice.objects.get().attempts == 1
    smtp.start()
    assert send_due(now=notice.next_try_at) == 1
    assert [m["To"] for m in smtp.inbox.messages] == [member.email]
    assert send_due(now=notice.next_try_at + timedelta(days=1)) == 0
    assert len(smtp.inbox.messages) == 1


def test_a_451_is_retried_later_with_a_longer_wait_each_time(waiting_turn, smtp) -> None:
    member, now = waiting_turn
    smtp.inbox.refuse = 2
    assert send_due(now=now) == 0
    first = Notice.objects.get()
    assert first.attempts == 1 and "451" in first.last_error
    assert send_due(now=first.next_try_at) == 0
    second = Notice.objects.get()
    assert second.attempts == 2 and second.next_try_at - first.next_try_at > first.next_try_at - now
    assert send_due(now=second.next_try_at) == 1
    assert smtp.inbox.refused == 2 and [m["To"] for m in smtp.inbox.messages] == [member.email]
    assert Notice.objects.get().sent_at is not None


def test_a_notice_is_given_up_after_the_last_try(waiting_turn, smtp, caplog) -> None:
    _member, now = waiting_turn
    smtp.stop()
    for _ in range(outbox.MAX_ATTEMPTS):
        notice = Notice.objects.get()
        assert notice.next_try_at is not None
        send_due(now=notice.next_try_at)
    notice = Notice.objects.get()
    assert notice.attempts == outbox.MAX_ATTEMPTS and notice.given_up_at is not None and notice.next_try_at is None
    assert "gave up" in caplog.text
    smtp.start()
    assert send_due(now=now + timedelta(days=30)) == 0 and smtp.inbox.messages == []


def test_a_notice_claimed_by_another_process_is_not_sent_here(waiting_turn, smtp) -> None:
    _member, now = waiting_turn
    notice = Notice.objects.get()
    theirs = outbox.claim(notice.pk, now=now)  # another process claimed it and is talking to the server
    assert theirs is not None
    assert outbox.claim(notice.pk, now=now) is None  # a second claim loses
    assert send_due(now=now) == 0 and smtp.inbox.messages == []
    assert outbox.mark_sent(notice.pk, claimed_until=theirs, now=now)
    assert send_due(now=now + outbox.CLAIM + timedelta(minutes=1)) == 0  # sent: nobody sends it again
    assert smtp.inbox.messages == []


def test_a_claim_that_ran_out_lets_another_process_send_it(waiting_turn, smtp) -> None:
    """A sender that died holding a claim: the notice goes out once the claim has run out, and the dead sender's
    late mark changes nothing."""
    member, now = waiting_turn
    notice = Notice.objects.get()
    dead = outbox.claim(notice.pk, now=now)
    assert send_due(now=now + timedelta(minutes=1)) == 0
    assert send_due(now=now + outbox.CLAIM + timedelta(seconds=1)) == 1
    assert [m["To"] for m in smtp.inbox.messages] == [member.email]
    assert not outbox.mark_sent(notice.pk, claimed_until=dead, now=now)


def test_two_jobs_interleaved_send_each_notice_once(make_member, smtp, django_capture_on_commit_callbacks) -> None:
    """Two processes' jobs (each its own NoticeJob) look at the same moments: each scan finds the turn, one notice
    is there, one email goes."""
    from tests.tables.helpers import full_table, watching
    from tests.tables.notices.conftest import correspondence

    alice, bob = make_member("alice"), make_member("bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    now = timezone.now()
    correspondence(table, now=now)
    first, second = NoticeJob(), NoticeJob()
    with django_capture_on_commit_callbacks(execute=False) as one:
        first(now=now)
    with django_capture_on_commit_callbacks(execute=False) as two:
        second(now=now)
    for callback in (*two, *one):
        callback()
    assert len(smtp.inbox.messages) == 1 and Notice.objects.count() == 1
    run_job(first, now + timedelta(minutes=1), django_capture_on_commit_callbacks)
    run_job(second, now + timedelta(minutes=1), django_capture_on_commit_callbacks)
    assert len(smtp.inbox.messages) == 1


def test_the_job_looks_again_only_after_its_interval(make_member) -> None:
    job = NoticeJob()
    now = timezone.now()
    assert job(now=now) == now + timedelta(seconds=30)
    assert job(now=now + timedelta(seconds=10)) == now + timedelta(seconds=30)
