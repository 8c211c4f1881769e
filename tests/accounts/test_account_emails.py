"""The account emails speak for the club by its name, whatever host name the request came in on."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def assert_signed_by(message: mail.EmailMessage, club: str) -> None:
    assert club in message.subject
    assert f"Hello from {club}!" in message.body and f"Thank you for using {club}!" in message.body
    for host in ("testserver", "example.com"):
        assert f"[{host}]" not in message.subject
        assert f"from {host}" not in message.body and f"using {host}" not in message.body


def test_the_password_reset_email_names_the_club(member: User) -> None:
    Client().post(reverse("account_reset_password"), {"email": member.email})
    [message] = mail.outbox
    assert message.subject.startswith("[The Card Club] ")
    assert_signed_by(message, "The Card Club")


def test_the_confirmation_email_after_signing_up_names_the_club() -> None:
    Client().post(reverse("account_signup"), {"username": "newbie", "email": "newbie@example.org",
                                              "password1": PASSWORD, "password2": PASSWORD, "display_name": "New"})
    [message] = mail.outbox
    assert message.to == ["newbie@example.org"]
    assert_signed_by(message, "The Card Club")


def test_the_clubs_name_is_a_setting(member: User, settings) -> None:
    settings.CLUB_NAME = "The Riverside Card Club"
    Client().post(reverse("account_reset_password"), {"email": member.email})
    assert_signed_by(mail.outbox[0], "The Riverside Card Club")
