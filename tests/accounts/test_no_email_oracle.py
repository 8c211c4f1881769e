"""Issue 39: nobody learns from the account pages whether an email address is a member's. Signing up with a member's
address answers as a new address does (and mails that member instead of making a second account); a password reset
answers the same for any address."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _answer(path: str, data: dict[str, str], typed: str) -> tuple[int, str, str]:
    """(status, where it sends the browser, the page there), with what was typed and the CSRF tokens (masked anew
    for every page) taken out."""
    client = Client()
    response = client.post(path, data)
    where = response.get("Location", "")
    page = client.get(where).content.decode() if where else response.content.decode()
    page = re.sub(r"\b[A-Za-z0-9]{64}\b", "TOKEN", page.replace(typed, "TYPED"))
    return response.status_code, where, page


def test_signing_up_with_a_members_email_answers_as_a_new_email_does(member: User) -> None:
    def signup(username: str, email: str) -> tuple[int, str, str]:
        return _answer(reverse("account_signup"), {
            "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD,
            "display_name": username.capitalize()}, email)

    taken = signup("mallory", member.email)
    fresh = signup("newbie", "newbie@example.org")
    assert taken == fresh
    assert taken[0] == 302 and "already" not in taken[2]
    # The member is told someone tried; no second account holds their address.
    to_member = [message for message in mail.outbox if message.to == [member.email]]
    assert len(to_member) == 1 and "already" in to_member[0].body
    assert not User.objects.filter(username="mallory").exists()
    assert User.objects.filter(email__iexact=member.email).count() == 1


def test_a_password_reset_answers_the_same_for_a_members_email_and_a_strangers(member: User) -> None:
    known = _answer(reverse("account_reset_password"), {"email": member.email}, member.email)
    unknown = _answer(reverse("account_reset_password"), {"email": "stranger@example.org"}, "stranger@example.org")
    assert known == unknown
    assert known[0] == 302
    assert [message.to for message in mail.outbox if "/password/reset/key/" in message.body] == [[member.email]]
