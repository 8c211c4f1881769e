"""Choosing the member: a name means exactly one member or says why not; suggestions leave out the wrong people."""

from __future__ import annotations

import pytest

from accounts.models import User
from tables.invitations.forms import InviteForm
from tables.invitations.selectors import resolve, suggestions
from tables.invitations.services.invitations import invite
from tests.tables.invitations.support import private_table, seat_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_member):
    alice = make_member("alice", display_name="Alice")
    bob = make_member("bob", display_name="Bobby Tables")
    make_member("kim1", display_name="Kim")
    make_member("kim2")  # "kim" reads like "Kim": no longer saved (accounts.names), but a member from before has it
    User.objects.filter(username="kim2").update(display_name="kim")
    table = private_table(alice, game="hawk", players=4)
    return alice, bob, table


@pytest.mark.parametrize("typed", ["bob", "BOB", "Bobby Tables", "  bobby   tables "])
def test_a_username_or_display_name_finds_the_member(club, typed) -> None:
    alice, bob, table = club
    found = resolve(table, alice, typed)
    assert found.member == bob and found.problem == ""


@pytest.mark.parametrize("typed", ["bob@example.org", "Bob@Example.org"])
def test_an_email_finds_nobody_even_a_members(club, typed) -> None:
    """Any member may invite: an email that found its member would tell members' addresses from strangers'."""
    alice, _, table = club
    found = resolve(table, alice, typed)
    assert found.member is None
    assert found.problem == resolve(table, alice, typed.replace("bob", "nobody")).problem.replace("nobody", typed[:3])


def test_unknown_names_are_refused_not_guessed(club) -> None:
    alice, _, table = club
    for typed in ("bobb", "Bobby", "tables"):  # partial or misspelt: no member, whatever the suggestions say
        found = resolve(table, alice, typed)
        assert found.member is None and "No member is called" in found.problem
    assert "Type the member's" in resolve(table, alice, "   ").problem


def test_a_name_two_members_answer_to_is_a_question_back(club) -> None:
    alice, _, table = club
    found = resolve(table, alice, "Kim")
    assert found.member is None
    assert "Several members" in found.problem and "kim1, kim2" in found.problem
    assert resolve(table, alice, "kim2").member.username == "kim2"  # the username settles it


def test_a_username_wins_over_someone_elses_display_name(club, make_member) -> None:
    alice, bob, table = club
    make_member("robert", display_name="bob")
    assert resolve(table, alice, "bob").member == bob


def test_inactive_members_yourself_seated_and_invited_are_refused(club, make_member) -> None:
    alice, bob, table = club
    make_member("gone", is_active=False)
    assert "No member" in resolve(table, alice, "gone").problem
    assert "That is you" in resolve(table, alice, "alice").problem
    carol = make_member("carol")
    seat_at(table, carol)
    assert "already has a seat" in resolve(table, alice, "carol").problem
    invite(table_id=table.pk, inviter=alice, member=bob)
    assert "already invited" in resolve(table, alice, "Bobby Tables").problem


def test_the_form_says_why_and_cleans_to_the_member(club) -> None:
    alice, bob, table = club
    form = InviteForm({"member": "Kim"}, table=table, inviter=alice)
    assert not form.is_valid() and "Several members" in form.errors["member"][0]
    form = InviteForm({"member": "Bobby Tables"}, table=table, inviter=alice)
    assert form.is_valid() and form.cleaned_data["member"] == bob


def test_suggestions_leave_out_the_inviter_seated_invited_and_inactive(club, make_member) -> None:
    alice, _, table = club
    make_member("bobcat", display_name="Cat")
    make_member("bobo", is_active=False)
    seated = make_member("bobseated")
    seat_at(table, seated)
    invited = make_member("bobinvited")
    invite(table_id=table.pk, inviter=alice, member=invited)
    names = [m.username for m in suggestions(table, alice, "bo")]
    assert set(names) == {"bob", "bobcat"}
    assert [m.username for m in suggestions(table, alice, "tabl")] == ["bob"]  # inside a display name
    assert [m.username for m in suggestions(table, alice, "ali")] == []  # the inviter
    assert suggestions(table, alice, "b") == []  # one letter is too little to go on


def test_suggestions_are_few(club, make_member) -> None:
    alice, _, table = club
    for n in range(12):
        make_member(f"zed{n}")
    assert len(suggestions(table, alice, "zed")) == 6
