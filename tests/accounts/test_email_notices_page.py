"""The member's email settings page: linked from the profile, saves the three choices, refuses nonsense."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_profile_links_to_it_and_it_shows_the_choices(member_client) -> None:
    assert reverse("email_notices") in member_client.get(reverse("profile")).content.decode()
    page = member_client.get(reverse("email_notices")).content.decode()
    assert 'name="turn_emails"' in page and 'name="deadline_emails"' in page and 'name="match_emails"' in page
    assert " style=" not in page


def test_it_saves_the_choices(member, member_client) -> None:
    answer = member_client.post(reverse("email_notices"), {"turn_emails": "daily", "match_emails": "on"})
    assert answer.status_code == 302
    member.refresh_from_db()
    assert (member.turn_emails, member.deadline_emails, member.match_emails) == ("daily", False, True)


@pytest.mark.parametrize("turns", ["sometimes", "", "EACH"])
def test_it_refuses_nonsense_and_changes_nothing(member, member_client, turns) -> None:
    answer = member_client.post(reverse("email_notices"), {"turn_emails": turns, "deadline_emails": "on"})
    assert answer.status_code == 400
    member.refresh_from_db()
    assert member.turn_emails == User.TurnEmails.EACH and member.deadline_emails and member.match_emails


def test_it_asks_for_a_login(client) -> None:
    assert client.get(reverse("email_notices")).status_code == 302
