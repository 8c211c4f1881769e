"""Every account flow a member uses, through the real pages."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-password-77"


def signup(client: Client, **fields: str):
    data = {"username": "newbie", "email": "newbie@example.org", "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "New Bie"}
    data.update(fields)
    return client.post(reverse("account_signup"), data)


def test_signup_creates_a_member_with_display_name_who_confirms_the_email_and_logs_in() -> None:
    client = Client()
    response = signup(client)
    assert response.status_code == 302 and response.url == reverse("account_email_verification_sent")
    user = User.objects.get(username="newbie")
    assert user.display_name == "New Bie"
    assert user.check_password(PASSWORD)
    # Not in until the address is confirmed (the same answer as for a member's address: test_no_email_oracle).
    assert client.get(reverse("lobby")).status_code == 302
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", mail.outbox[0].body).group(1)
    assert client.post(link).status_code == 302
    response = client.post(reverse("account_login"), {"login": "newbie", "password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("lobby")
    assert client.get(reverse("lobby")).status_code == 200


def test_signup_refuses_a_duplicate_username(member: User) -> None:
    response = signup(Client(), username=member.username)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


def test_signup_refuses_mismatched_passwords_and_a_blank_display_name_of_symbols() -> None:
    response = signup(Client(), password2="not-the-same-password", display_name="!!!")
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not User.objects.filter(username="newbie").exists()


@pytest.mark.parametrize("login", ["alice", "alice@example.org"])
def test_login_with_username_or_email(member: User, login: str) -> None:
    client = Client()
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("lobby")
    assert client.get(reverse("lobby")).context["user"] == member


def test_wrong_password_is_refused_with_a_message(member: User) -> None:
    client = Client()
    response = client.post(reverse("account_login"), {"login": "alice", "password": "wrong-password"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert client.get(reverse("lobby")).status_code == 302


def test_failed_logins_are_rate_limited_even_for_the_right_password(member: User) -> None:
    client = Client()
    for _ in range(5):
        client.post(reverse("account_login"), {"login": "alice", "password": "wrong-password"})
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code in {200, 429}
    assert "Too many failed login attempts" in response.content.decode()
    assert client.get(reverse("lobby")).status_code == 302


def test_logout_ends_the_session(member_client: Client) -> None:
    assert member_client.get(reverse("lobby")).status_code == 200
    response = member_client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert member_client.get(reverse("lobby")).status_code == 302


def test_profile_changes_the_display_name_and_refuses_nonsense(member_client: Client, member: User) -> None:
    response = member_client.post(reverse("profile"), {"display_name": "  Alice   Liddell "})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.display_name == "Alice Liddell"
    response = member_client.post(reverse("profile"), {"display_name": "x" * 41})
    assert response.status_code == 400
    member.refresh_from_db()
    assert member.display_name == "Alice Liddell"


def test_password_change_needs_the_old_password(member_client: Client, member: User) -> None:
    url = reverse("account_change_password")
    bad = member_client.post(url, {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert bad.status_code == 200
    member.refresh_from_db()
    assert member.check_password(PASSWORD)
    good = member_client.post(url, {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert good.status_code == 302
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)


def test_password_reset_by_email_link(member: User) -> None:
    client = Client()
    response = client.post(reverse("account_reset_password"), {"email": member.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    page = client.get(link, follow=True)
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)
    # The link works once only.
    again = client.get(link, follow=True)
    assert "bad token" in again.content.decode().lower() or "invalid" in again.content.decode().lower()


@pytest.mark.parametrize("name", ["home", "rules_index", "account_login", "account_signup"])
def test_public_pages_need_no_login(name: str) -> None:
    assert Client().get(reverse(name)).status_code == 200


def test_each_rules_page_is_public() -> None:
    from rules.engine.registry import GAME_KEYS

    for key in GAME_KEYS:
        response = Client().get(reverse("rules_game", args=[key]))
        assert response.status_code == 200, key
    assert Client().get("/rules/poker/").status_code == 404


@pytest.mark.parametrize("path", ["/lobby/", "/accounts/profile/"])
def test_member_pages_send_strangers_to_login(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))
