"""The member chooser every form that names a member uses: exact names only, suggestions as one types."""

from __future__ import annotations

import pytest
from django import forms

from accounts.fields import MemberField
from accounts.members import find_member, suggest_members
from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> dict[str, User]:
    members = {
        "alice": User.objects.create_user("alice", "alice@club.example", "pw", display_name="Alice Smith"),
        "alfred": User.objects.create_user("alfred", "al@club.example", "pw"),
        "al": User.objects.create_user("al", "other@club.example", "pw", display_name=""),
        "twin1": User.objects.create_user("twin1", "t1@club.example", "pw", display_name="Twin"),
        "twin2": User.objects.create_user("twin2", "t2@club.example", "pw"),
        "gone": User.objects.create_user("gone", "gone@club.example", "pw", is_active=False),
    }
    # Names reading alike can no longer be saved (accounts.names); members from before may still have them.
    User.objects.filter(username="alfred").update(display_name="Al")
    User.objects.filter(username="twin2").update(display_name="twin")
    for member in members.values():
        member.refresh_from_db()
    return members


class OneMember(forms.Form):
    member = MemberField()


def test_a_member_is_found_by_username_display_name_or_email_in_any_case(club: dict[str, User]) -> None:
    assert find_member("ALICE").member == club["alice"]
    assert find_member("  alice   smith ").member == club["alice"]
    assert find_member("Alice@Club.Example").member == club["alice"]
    assert find_member("alice@club.example", by_email=False).member is None


def test_a_username_wins_over_another_members_display_name_and_twins_are_a_question(club: dict[str, User]) -> None:
    assert find_member("al").member == club["al"]  # alfred's display name is "Al"; "al" is a username
    twins = find_member("twin")
    assert twins.member is None and "twin1, twin2" in twins.problem


def test_unknown_partial_and_inactive_names_are_refused_with_a_reason(club: dict[str, User]) -> None:
    for text in ("ali", "nobody", "gone", ""):
        found = find_member(text)
        assert found.member is None and found.problem


def test_the_field_cleans_to_the_member_and_reports_the_problem(club: dict[str, User]) -> None:
    form = OneMember({"member": "alice@club.example"})
    assert form.is_valid() and form.cleaned_data["member"] == club["alice"]
    form = OneMember({"member": "Twin"})
    assert not form.is_valid() and "type the username" in form.errors["member"][0]
    html = str(OneMember()["member"])
    assert 'list="id_member-members"' in html and '<datalist id="id_member-members"' in html
    assert "field=member" in html


def test_suggestions_leave_out_inactive_members_and_emails_unless_asked(club: dict[str, User]) -> None:
    assert {m.username for m in suggest_members("al")} == {"alice", "alfred", "al"}
    assert suggest_members("go") == []
    assert suggest_members("other@") == []
    assert [m.username for m in suggest_members("other@", by_email=True)] == ["al"]
    assert suggest_members("a") == []  # too short to mean anyone


def test_the_suggestions_view_answers_members_and_hides_emails_from_them(client, club: dict[str, User]) -> None:
    url = "/accounts/members/suggest/"
    assert client.get(url, {"field": "picker", "picker": "ali"}).status_code == 302  # members only
    client.force_login(club["alfred"])
    answer = client.get(url, {"field": "picker", "picker": "ali"})
    assert answer.status_code == 200 and 'value="alice"' in answer.content.decode()
    assert "<option" not in client.get(url, {"field": "picker", "picker": "other@"}).content.decode()
    assert "<option" not in client.get(url, {"picker": "ali"}).content.decode()  # no field named: nothing
    staff = User.objects.create_user("boss", "boss@club.example", "pw", is_staff=True)
    client.force_login(staff)
    assert 'value="al"' in client.get(url, {"field": "picker", "picker": "other@"}).content.decode()
