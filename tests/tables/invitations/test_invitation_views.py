"""The pages: the creator's panel and form on the table page, suggestions, and the member's answers from the lobby."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.invitations.rendering import render_notice
from tables.invitations.services.invitations import invite
from tables.models import Invitation, Seat, Table
from tests.tables.helpers import client_for
from tests.tables.invitations.support import private_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
Status = Invitation.Status


@pytest.fixture
def alice(make_member):
    return make_member("alice", display_name="Alice")


@pytest.fixture
def bob(make_member):
    return make_member("bob", display_name="Bobby <b>Tables</b>")


@pytest.fixture
def table(alice) -> Table:
    return private_table(alice, game="hawk", players=4)


def test_the_table_page_loads_the_panel_for_its_creator_only(alice, bob, table) -> None:
    url = reverse("table_invitations", args=[table.code])
    assert f'hx-get="{url}"' in client_for(alice).get(reverse("table", args=[table.code])).content.decode()
    assert url not in client_for(bob).get(reverse("table", args=[table.code])).content.decode()
    panel = client_for(alice).get(url).content.decode()
    assert 'id="invite-form"' in panel and 'list="invite-suggestions"' in panel
    assert 'id="invite-form"' not in client_for(bob).get(url).content.decode()  # another member: nothing


def test_a_public_tables_page_has_no_invitations(alice, make_member) -> None:
    public = private_table(alice, private=False)
    assert "/invitations/" not in client_for(alice).get(reverse("table", args=[public.code])).content.decode()


def test_inviting_by_display_name_shows_the_answer_awaited(alice, bob, table) -> None:
    answer = client_for(alice).post(reverse("invite", args=[table.code]), {"member": "bobby <b>tables</b>"}, **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert Invitation.objects.get(table=table, invited=bob).status == Status.PENDING
    assert 'data-invited="bob" data-status="pending"' in html and "Withdraw" in html
    assert "<b>Tables</b>" not in html and "&lt;b&gt;Tables&lt;/b&gt;" in html  # names are text
    assert 'hx-trigger="every 5s"' in html  # the list looks again while an answer is awaited


def test_a_name_that_is_not_one_member_is_refused_in_place(alice, table) -> None:
    answer = client_for(alice).post(reverse("invite", args=[table.code]), {"member": "nobody-here"}, **HTMX)
    assert answer.status_code == 400 and answer["HX-Retarget"] == "#invitations-panel"
    assert "No member is called “nobody-here”" in answer.content.decode()
    assert not Invitation.objects.exists()


def test_a_non_creator_cannot_invite(alice, bob, table, make_member) -> None:
    make_member("carol")
    answer = client_for(bob).post(reverse("invite", args=[table.code]), {"member": "carol"}, **HTMX)
    assert answer.status_code == 400
    assert not Invitation.objects.exists()


def test_posts_need_the_csrf_token(alice, bob, table) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.post(reverse("invite", args=[table.code]), {"member": "bob"}).status_code == 403
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    browser.force_login(bob)
    assert browser.post(reverse("invitation_accept", args=[invitation.pk])).status_code == 403
    assert not Seat.objects.filter(user=bob).exists()


def test_suggestions_as_one_types(alice, bob, table, make_member) -> None:
    make_member("bobcat")
    seated = make_member("bobseated")
    Seat.objects.filter(table=table, position=1).update(user=seated)
    html = client_for(alice).get(reverse("invite_suggestions", args=[table.code]), {"member": "bo"}).content.decode()
    assert '<option value="bob">' in html and '<option value="bobcat">' in html
    assert "bobseated" not in html and 'value="alice"' not in html
    assert "<b>" not in html
    assert client_for(bob).get(reverse("invite_suggestions", args=[table.code]), {"member": "bo"}).status_code == 404


def test_the_lobby_lists_the_members_invitations(alice, bob, table) -> None:
    assert 'id="invitations"' in client_for(bob).get(reverse("lobby")).content.decode()  # there, hidden, for the socket
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    html = client_for(bob).get(reverse("lobby")).content.decode()
    assert f'data-invitation="{invitation.pk}"' in html and "Take the seat" in html and "Decline" in html
    assert f'data-invitation="{invitation.pk}"' not in client_for(alice).get(reverse("lobby")).content.decode()


def test_taking_the_seat_moves_the_member_to_the_table(alice, bob, table) -> None:
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = client_for(bob).post(reverse("invitation_accept", args=[invitation.pk]), **HTMX)
    assert answer.status_code == 204 and answer["HX-Redirect"] == reverse("table", args=[table.code])
    assert Seat.objects.filter(table=table, user=bob).exists()
    again = client_for(bob).post(reverse("invitation_accept", args=[invitation.pk]), **HTMX)
    assert again.status_code == 409 and again["HX-Retarget"] == "#invitations"
    assert "already accepted; nothing changed" in again.content.decode()


def test_without_javascript_taking_the_seat_redirects(alice, bob, table) -> None:
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = client_for(bob).post(reverse("invitation_accept", args=[invitation.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("table", args=[table.code])


def test_someone_elses_invitation_is_not_found(alice, bob, table, make_member) -> None:
    mallory = make_member("mallory")
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = client_for(mallory).post(reverse("invitation_accept", args=[invitation.pk]), **HTMX)
    assert answer.status_code == 404 and "There is no such invitation" in answer.content.decode()
    assert client_for(mallory).post(reverse("invitation_withdraw", args=[invitation.pk])).status_code == 302
    assert Invitation.objects.get(pk=invitation.pk).status == Status.PENDING


def test_declining_from_the_lobby(alice, bob, table) -> None:
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = client_for(bob).post(reverse("invitation_decline", args=[invitation.pk]), **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and "You declined Alice" in html
    assert f'id="invitation-notice-{invitation.pk}" hx-swap-oob="delete"' in html  # a pushed notice goes too
    assert Invitation.objects.get(pk=invitation.pk).status == Status.DECLINED
    panel = client_for(alice).get(reverse("table_invitations", args=[table.code])).content.decode()
    assert 'data-invited="bob" data-status="declined"' in panel and "every 5s" not in panel


def test_the_creator_withdraws(alice, bob, table) -> None:
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = client_for(alice).post(reverse("invitation_withdraw", args=[invitation.pk]), **HTMX)
    assert answer.status_code == 200 and 'data-status="withdrawn"' in answer.content.decode()
    again = client_for(alice).post(reverse("invitation_withdraw", args=[invitation.pk]), **HTMX)
    assert again.status_code == 409 and "was withdrawn; nothing changed" in again.content.decode()


def test_notices_render_from_the_event_alone() -> None:
    assert render_notice("invited", {"invitation": "x", "table": "abc"}) == ""
    assert render_notice("invited", {"invitation": 3, "table": "a/b"}) == ""
    html = render_notice("invited", {"invitation": 3, "table": "abc", "name": "N", "by": "B"})
    assert "B invites you to N" in html and "sr-only" in html
    assert "hx-swap-oob=\"delete\"" in render_notice("answered", {"invitation": 3, "table": "abc"})


def _without(html: str, typed: str) -> str:
    """The answer with what was typed and the form's (per-response) CSRF token taken out."""
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "TOKEN", html.replace(typed, "TYPED"))


@pytest.mark.parametrize("htmx", [True, False])
def test_inviting_by_email_answers_the_same_for_a_members_address_and_a_strangers(alice, bob, table, htmx) -> None:
    """Issue 39: the form was an oracle (a member's email invited them, a stranger's was "no member"). Both now get
    the same refusal, and nobody is invited."""
    creator = client_for(alice)
    answers = []
    for typed in (bob.email, "stranger@example.org"):
        answer = creator.post(reverse("invite", args=[table.code]), {"member": typed}, **(HTMX if htmx else {}))
        followed = creator.get(answer.url).content.decode() if answer.status_code == 302 else ""
        answers.append((answer.status_code, _without(answer.content.decode(), typed), _without(followed, typed)))
    assert answers[0] == answers[1]
    assert answers[0][0] == (400 if htmx else 302)
    assert "No member is called" in answers[0][1 if htmx else 2]
    assert not Invitation.objects.exists()
