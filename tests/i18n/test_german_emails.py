"""The account emails in German: in the recipient's saved language whatever browser asked for them, else in the
language of the request that sent them (allauth's own German texts, signed with the club's name)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_member_who_chose_german_gets_german_mail_from_an_english_browser(make_member) -> None:
    greta = make_member("greta", language="de")
    Client().post(reverse("account_reset_password"), {"email": greta.email}, HTTP_ACCEPT_LANGUAGE="en")
    [message] = mail.outbox
    assert message.subject == "[The Card Club] E-Mail zum Zurücksetzen des Passworts"
    assert "Hallo von The Card Club!" in message.body and "Hello" not in message.body


def test_a_member_who_chose_english_gets_english_mail_from_a_german_browser(make_member) -> None:
    ed = make_member("ed", language="en")
    Client().post(reverse("account_reset_password"), {"email": ed.email}, HTTP_ACCEPT_LANGUAGE="de")
    [message] = mail.outbox
    assert message.subject == "[The Card Club] Password Reset Email"


def test_signing_up_from_a_german_browser_brings_german_mail(db: None) -> None:
    Client().post(reverse("account_signup"), {"username": "neu", "email": "neu@example.org", "password1": PASSWORD,
                                              "password2": PASSWORD, "display_name": "Neu"}, HTTP_ACCEPT_LANGUAGE="de")
    [message] = mail.outbox
    assert "Hallo von The Card Club!" in message.body and "Hello" not in message.body
    assert User.objects.get(username="neu").language == ""  # the browser chose, nothing was saved
