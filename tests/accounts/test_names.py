"""Names that read alike are one name (issue 39): no member may be shown, or sign up, under a name reading like
another member's (in any case, or with look-alike letters), under a name kept for the club, or under a name
holding hidden characters; the database decides between two members saving at once."""

from __future__ import annotations

import itertools
import random

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts import forms as account_forms
from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# Each reads like "Alice" (or "alice"): capitals, a Cyrillic A (U+0410), a capital I for the l, fullwidth
# letters, a digit one for the l, a zero-width space inside.
ALICE_ALIKES = ["ALICE", "alice", "\u0410lice", "AIice", "\uff21\uff4c\uff49\uff43\uff45", "A1ice", "Al\u200bice"]
KEPT = ["treasurer", "Treasurer 2", "ADMIN", "The House", "Strong bot", "Starker Bot", "easy-bot", "You", "Staff",
        "tr\u0435asurer"]  # the last with a Cyrillic e (U+0435)
ADDRESSES = itertools.count(random.randrange(10_000))
HIDDEN = ["\u202eecilA", "Bob\u200d", "\u2066Carl\u2069", "Da\u00advid"]


def signup(**fields: str):
    """Each from an address of its own: allauth limits sign-ups per address, and a shared cache (Redis) keeps the
    count from test to test."""
    data = {"username": "newbie", "email": "newbie@example.org", "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "New Bie"}
    data.update(fields)
    number = next(ADDRESSES)
    address = f"10.39.{number // 250 % 250}.{number % 250 + 1}"
    return Client(REMOTE_ADDR=address).post(reverse("account_signup"), data)


@pytest.fixture
def alice(make_member) -> User:
    return make_member("alice", display_name="Alice")


@pytest.mark.parametrize("name", ALICE_ALIKES)
def test_a_display_name_reading_like_another_members_is_refused_at_sign_up_and_on_the_profile(
        alice: User, make_member, name: str) -> None:
    answer = signup(display_name=name)
    assert answer.status_code == 200
    errors = " ".join(answer.context["form"].errors["display_name"])
    assert "reads like" in errors or "invisible" in errors
    assert not User.objects.filter(username="newbie").exists()

    bob = make_member("bob")
    client = Client()
    client.force_login(bob)
    answer = client.post(reverse("profile"), {"display_name": name, "time_zone": bob.time_zone})
    assert answer.status_code == 400 and answer.context["form"].errors["display_name"]
    bob.refresh_from_db()
    assert bob.display_name == ""


@pytest.mark.parametrize("name", KEPT)
def test_names_kept_for_the_club_are_refused_as_display_names_and_usernames(name: str) -> None:
    answer = signup(display_name=name)
    assert "is kept for the club" in " ".join(answer.context["form"].errors["display_name"])
    username = "".join(ch for ch in name if ch.isalnum())
    answer = signup(username=username, display_name="")
    assert answer.context["form"].errors["username"]
    assert User.objects.count() == 0


@pytest.mark.parametrize("name", HIDDEN)
def test_display_names_with_invisible_or_direction_changing_characters_are_refused(name: str) -> None:
    answer = signup(display_name=name)
    assert "invisible or direction-changing" in " ".join(answer.context["form"].errors["display_name"])
    assert User.objects.count() == 0


@pytest.mark.parametrize("username", ["ALICE", "AIice", "\u0430lice", "\uff41lice"])
def test_a_username_reading_like_another_members_name_is_refused_at_sign_up(alice: User, username: str) -> None:
    answer = signup(username=username)
    assert answer.status_code == 200 and answer.context["form"].errors["username"]
    assert User.objects.count() == 1


def test_a_username_reading_like_another_members_display_name_is_refused_too(make_member) -> None:
    make_member("robert", display_name="Bob")
    answer = signup(username="bob", display_name="Someone Else")
    assert "reads like" in " ".join(answer.context["form"].errors["username"])


def test_other_names_pass_and_a_member_may_change_the_case_of_their_own(alice: User) -> None:
    assert signup(display_name="Alina").status_code == 302
    assert User.objects.get(username="newbie").display_name == "Alina"
    client = Client()
    client.force_login(alice)
    assert client.post(reverse("profile"), {"display_name": "ALICE", "time_zone": alice.time_zone}).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"


def test_clearing_a_display_name_is_refused_when_the_username_would_read_like_another_members_name(
        make_member) -> None:
    make_member("ann", display_name="Bob")
    bob = make_member("bob", display_name="Robert")  # "bob" is shown as "Robert" for now
    client = Client()
    client.force_login(bob)
    answer = client.post(reverse("profile"), {"display_name": "", "time_zone": bob.time_zone})
    assert answer.status_code == 400 and "keep a display name" in answer.context["form"].errors["display_name"][0]


def test_the_database_decides_when_two_members_save_alike_names_at_once(alice: User, make_member) -> None:
    """The forms' look-up and the save are two steps; the keys' unique columns refuse the second name."""
    bob = make_member("bob")
    bob.display_name = "\u0410LICE"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("AIice", "other@example.org", PASSWORD)


def test_a_profile_save_that_loses_the_race_says_so_and_saves_nothing(alice: User, make_member,
                                                                      monkeypatch) -> None:
    bob = make_member("bob")
    # As if Alice had taken the name between the form's check and Bob's save.
    monkeypatch.setattr(account_forms.names, "display_name_problem", lambda name, member_id: "")
    client = Client()
    client.force_login(bob)
    answer = client.post(reverse("profile"), {"display_name": "alice", "time_zone": bob.time_zone})
    assert answer.status_code == 409
    assert "has just taken a name that reads like this one" in answer.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == "" and User.objects.filter(display_name__iexact="alice").count() == 1


def test_the_admin_says_a_name_is_taken_instead_of_failing(alice: User, make_member) -> None:
    bob = make_member("bob")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(boss)
    page = client.get(f"/admin/accounts/user/{bob.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update({"display_name": "ALICE", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00",
                 "language": "", "groups": [], "user_permissions": []})
    data = {k: v for k, v in data.items() if k not in ("date_joined", "last_login")}
    answer = client.post(f"/admin/accounts/user/{bob.pk}/change/", data)
    assert answer.status_code == 200
    assert "reads like this one" in str(answer.context["adminform"].form.errors["display_name"])
    bob.refresh_from_db()
    assert bob.display_name == ""
