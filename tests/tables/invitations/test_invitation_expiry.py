"""Invitations end on their own: after INVITATION_MINUTES, or when the table starts or closes. Marked on the server
whenever the invitations of that member or table are read or written, never by a browser."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.invitations.rendering import lobby_context, panel_context
from tables.invitations.selectors import open_for
from tables.invitations.services.invitations import AlreadyAnswered, accept, expire_stale, invite
from tables.models import Invitation, Seat
from tables.play.services.tables import add_bot, leave_table
from tests.tables.invitations.support import private_table
from tests.tables.play.table_life import fake_time

pytestmark = pytest.mark.django_db
Status = Invitation.Status


@pytest.fixture
def alice(make_member):
    return make_member("alice")


@pytest.fixture
def bob(make_member):
    return make_member("bob")


def test_an_invitation_lasts_the_configured_minutes(alice, bob, settings, monkeypatch) -> None:
    settings.INVITATION_MINUTES = 10
    time = fake_time(monkeypatch)
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    assert invitation.expires_at == time.now + timedelta(minutes=10)
    time.to(time.now + timedelta(minutes=9, seconds=59))
    assert open_for(bob) == [invitation]
    assert expire_stale() == 0
    time.to(invitation.expires_at)
    assert open_for(bob) == []  # the list is right before anything is marked
    assert Invitation.objects.get(pk=invitation.pk).status == Status.PENDING
    lobby_context(bob)  # the member's lobby reads their invitations: the ended one is marked
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED and invitation.answered_at == time.now


def test_accepting_too_late_is_refused_and_the_invitation_marked(alice, bob, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    time.to(time.now + timedelta(minutes=31))
    with pytest.raises(AlreadyAnswered, match="has ended"):
        accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED  # marked, though the accept was refused
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_an_expired_invitation_does_not_block_a_new_one(alice, bob, monkeypatch) -> None:
    time = fake_time(monkeypatch)
    table = private_table(alice, game="hawk", players=4)
    first = invite(table_id=table.pk, inviter=alice, member=bob)
    time.to(time.now + timedelta(minutes=45))
    second = invite(table_id=table.pk, inviter=alice, member=bob)
    first.refresh_from_db()
    assert first.status == Status.EXPIRED and second.status == Status.PENDING


def test_the_table_starting_ends_its_invitations(alice, bob) -> None:
    table = private_table(alice, game="hawk", players=3)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice)  # full: the match starts
    assert open_for(bob) == []
    context = panel_context(table, alice)  # the creator's panel reads them: marked
    assert context["cannot"] and not context["pending"]
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED


def test_the_table_closing_ends_its_invitations(alice, bob) -> None:
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    leave_table(table_id=table.pk, user=alice)  # the last member left the open table: it closes
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED  # in the same transaction (tables.invitations.receivers)
    assert expire_stale(user_id=bob.pk) == 0
