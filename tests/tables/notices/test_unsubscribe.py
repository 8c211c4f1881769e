"""The unsubscribe link of every email: one click (GET) turns that kind off at once, the page's button turns it back
on, a mail program's RFC 8058 POST turns it off, a tampered token changes nothing; the headers name the link."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tables.notices.job import NoticeJob
from tables.notices.tokens import unsubscribe_token
from tests.tables.helpers import full_table, watching
from tests.tables.notices.conftest import correspondence, run_job, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def turn_email(make_member, smtp, django_capture_on_commit_callbacks):
    alice, bob = make_member("alice", display_name="Alice"), make_member("bob", display_name="Bob")
    table = full_table("hawsker", [alice, bob])
    watching(table, alice, bob)
    correspondence(table)
    run_job(NoticeJob(), timezone.now(), django_capture_on_commit_callbacks)
    [message] = smtp.inbox.messages
    return User.objects.get(email=message["To"]), message


def path_of(url: str) -> str:
    assert url.startswith("https://club.example/")
    return url.removeprefix("https://club.example")


def test_the_headers_and_the_body_carry_one_signed_link(turn_email) -> None:
    _member, message = turn_email
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    [url] = re.findall(r"<(https://club\.example/emails/unsubscribe/[^>]+/)>", message["List-Unsubscribe"])
    assert url in text_of(message)
    assert "https://club.example/accounts/emails/" in text_of(message)  # the settings page


def test_one_click_turns_turn_emails_off_and_the_button_back_on(turn_email) -> None:
    member, message = turn_email
    url = re.search(r"<([^>]+)>", message["List-Unsubscribe"]).group(1)
    browser = Client(enforce_csrf_checks=True)  # not logged in, as from a mail program's link
    page = browser.get(path_of(url))
    assert page.status_code == 200 and "no more “your turn” emails" in page.content.decode()
    member.refresh_from_db()
    assert member.turn_emails == User.TurnEmails.NEVER
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    action = re.search(r'<form method="post" action="([^"]+)"', page.content.decode()).group(1)
    assert browser.post(action, {"was": "each"}).status_code == 403  # the button is CSRF-protected
    back = browser.post(action, {"was": "each", "csrfmiddlewaretoken": token})
    assert back.status_code == 200 and "on again" in back.content.decode()
    member.refresh_from_db()
    assert member.turn_emails == User.TurnEmails.EACH


def test_a_daily_member_gets_daily_back(make_member) -> None:
    dora = make_member("dora", turn_emails="daily")
    client = Client()
    url = f"/emails/unsubscribe/{unsubscribe_token(user_id=dora.pk, topic='turn')}/"
    assert 'value="daily"' in client.get(url).content.decode()
    client.post(url + "on/", {"was": "daily"})
    dora.refresh_from_db()
    assert dora.turn_emails == User.TurnEmails.DAILY


def test_rfc_8058_one_click_post_turns_it_off(turn_email) -> None:
    member, message = turn_email
    url = re.search(r"<([^>]+)>", message["List-Unsubscribe"]).group(1)
    answer = Client(enforce_csrf_checks=True).post(path_of(url), {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    member.refresh_from_db()
    assert member.turn_emails == User.TurnEmails.NEVER


def test_each_kind_turns_off_only_its_own(make_member) -> None:
    erin = make_member("erin")
    Client().get(f"/emails/unsubscribe/{unsubscribe_token(user_id=erin.pk, topic='deadline')}/")
    erin.refresh_from_db()
    assert (erin.turn_emails, erin.deadline_emails, erin.match_emails) == ("each", False, True)
    Client().get(f"/emails/unsubscribe/{unsubscribe_token(user_id=erin.pk, topic='match')}/")
    erin.refresh_from_db()
    assert (erin.turn_emails, erin.deadline_emails, erin.match_emails) == ("each", False, False)


@pytest.mark.parametrize("change", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # the signature changed
    lambda t: t.replace(t.split(":")[0], t.split(":")[0][:-1] + "x"),  # the payload changed
    lambda t: "garbage",
])
def test_a_tampered_token_gets_400_and_changes_nothing(make_member, change) -> None:
    frank = make_member("frank")
    token = change(unsubscribe_token(user_id=frank.pk, topic="turn"))
    for answer in (Client().get(f"/emails/unsubscribe/{token}/"),
                   Client().post(f"/emails/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"}),
                   Client().post(f"/emails/unsubscribe/{token}/on/", {"was": "daily"})):
        assert answer.status_code == 400 and "This link does not work" in answer.content.decode()
    frank.refresh_from_db()
    assert frank.turn_emails == User.TurnEmails.EACH


def test_a_token_signed_for_something_else_is_refused(make_member) -> None:
    from django.core import signing

    grace = make_member("grace")
    other = signing.dumps({"u": grace.pk, "t": "turn"}, salt="some.other.purpose")
    assert Client().get(f"/emails/unsubscribe/{other}/").status_code == 400
    grace.refresh_from_db()
    assert grace.turn_emails == User.TurnEmails.EACH


def test_a_post_without_the_one_click_field_changes_nothing(make_member) -> None:
    hank = make_member("hank")
    url = f"/emails/unsubscribe/{unsubscribe_token(user_id=hank.pk, topic='match')}/"
    assert Client().post(url, {}).status_code == 400
    hank.refresh_from_db()
    assert hank.match_emails is True


def test_a_member_who_unsubscribed_meanwhile_is_not_sent_what_was_waiting(
        make_member, smtp, django_capture_on_commit_callbacks) -> None:
    from tables.notices import events
    from tables.notices.sending import send_due

    ivy, jon = make_member("ivy"), make_member("jon")
    table = full_table("hawsker", [ivy, jon])
    watching(table, ivy, jon)
    now = timezone.now()
    correspondence(table, now=now)
    assert events.scan(now=now) == 1
    User.objects.update(turn_emails=User.TurnEmails.NEVER)
    assert send_due(now=now) == 0 and smtp.inbox.messages == []
