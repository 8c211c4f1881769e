"""Sending the outbox: after commit, a failed try (the server down, or answering 451) retried later and the email
sent once when the server is back; two processes never send one notice twice; given up after the last try."""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Notice
from tables.notices import outbox
from tables.notices.job import LOOK_EVERY, NoticeJob
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
    assert smtp.inbox.messages == [] and len(callbacks) == 1  # the sending (pushes, then emails) waits for the commit
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


def test_a_relay_that_stops_answering_holds_up_no_clock_pass(monkeypatch, django_capture_on_commit_callbacks) -> None:
    """The clock's job sends on a thread of its own (tables.notices.off_the_pass): while a sending hangs, the pass
    returns, and the next looks start no second sending; once it ends, the next look sends again."""
    from tables.notices import job as job_module
    from tables.notices.off_the_pass import OffThePass

    started, release, calls = threading.Event(), threading.Event(), []

    def hanging(*, now) -> None:  # a relay that answers only when the test lets it
        calls.append(now)
        started.set()
        release.wait(timeout=30)

    monkeypatch.setattr(job_module, "send_all_due", hanging)
    sender = OffThePass(name="notices-sending-test")
    job = NoticeJob(send=sender)
    now = timezone.now()

    def look(at) -> None:  # a clock's look: the scan commits, then the sending starts (on its thread) and it returns
        with django_capture_on_commit_callbacks(execute=True):
            job(now=at)

    look(now)
    assert started.wait(timeout=30) and sender.busy()
    look(now + LOOK_EVERY)  # the next look returns too, and starts no second sending while one hangs
    assert calls == [now]
    release.set()
    wait_until_idle(sender)
    assert not sender.busy()
    started.clear()
    look(now + 2 * LOOK_EVERY)
    assert started.wait(timeout=30) and calls == [now, now + 2 * LOOK_EVERY]


def test_a_sending_that_fails_on_its_thread_is_logged_and_the_next_one_runs(caplog) -> None:
    from tables.notices.off_the_pass import OffThePass

    sender, done = OffThePass(name="notices-sending-test"), threading.Event()

    def broken() -> None:
        raise RuntimeError("the relay said no")

    with caplog.at_level(logging.ERROR, logger="tables.notices.off_the_pass"):
        assert sender(broken)
        wait_until_idle(sender)
    assert "notices: sending failed" in caplog.text and "the relay said no" in caplog.text
    assert sender(done.set) and done.wait(timeout=30)


def wait_until_idle(sender) -> None:
    for _ in range(300):  # polled, 30 s at most: nothing here is timed
        if not sender.busy():
            return
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_the_clocks_job_sends_on_its_own_thread_with_a_connection_of_its_own(waiting_turn, smtp) -> None:
    """As a serving process runs it: the job the clock was given sends off its pass, reading and writing the outbox
    on its thread's own database connection (closed after), and the member gets their email once."""
    from tables.notices.off_the_pass import OffThePass
    from tables.play import background

    assert isinstance(background.jobs()["notices"].send, OffThePass)  # the clock's job, as TablesConfig made it
    member, now = waiting_turn
    sender = OffThePass(name="notices-sending-test")
    job = NoticeJob(send=sender)
    job(now=now)  # no transaction around it, as on the clock's thread: the sending starts as the look ends
    wait_until_idle(sender)
    assert len(smtp.inbox.messages) == 1 and len(smtp.inbox.to(member.email)) == 1
    assert Notice.objects.get().sent_at is not None
