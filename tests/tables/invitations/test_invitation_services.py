"""Who may invite, and every answer: accept (seating, and starting a table it fills), decline, withdraw, repeats."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from tables.invitations.services.invitations import (
    AlreadyAnswered,
    InvitationError,
    NoSuchInvitation,
    accept,
    decline,
    invite,
    withdraw,
)
from tables.models import Invitation, Seat, Table
from tables.play.services.tables import add_bot
from tests.tables.helpers import full_table
from tests.tables.invitations.support import private_table, seat_at

pytestmark = pytest.mark.django_db

Status = Invitation.Status


@pytest.fixture
def alice(make_member):
    return make_member("alice", display_name="Alice")


@pytest.fixture
def bob(make_member):
    return make_member("bob", display_name="Bob")


def test_the_creator_of_a_private_open_table_invites_a_member(alice, bob) -> None:
    table = private_table(alice)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    assert invitation.status == Status.PENDING and invitation.invited_by == alice
    assert invitation.expires_at > invitation.created_at


def test_only_the_creator_may_invite(alice, bob, make_member) -> None:
    carol = make_member("carol")
    table = private_table(alice, game="hawk", players=4)
    seat_at(table, bob)  # seated, but not the creator
    with pytest.raises(InvitationError, match="Only the member who opened"):
        invite(table_id=table.pk, inviter=bob, member=carol)
    assert not Invitation.objects.exists()


def test_public_tables_take_no_invitations(alice, bob) -> None:
    table = private_table(alice, private=False)
    with pytest.raises(InvitationError, match="Only private tables"):
        invite(table_id=table.pk, inviter=alice, member=bob)


def test_running_and_full_tables_take_no_invitations(alice, bob, make_member) -> None:
    carol = make_member("carol")
    running = full_table("hawsker", [alice, bob])
    Table.objects.filter(pk=running.pk).update(private=True)
    with pytest.raises(InvitationError, match="no longer waiting"):
        invite(table_id=running.pk, inviter=alice, member=carol)
    dave = make_member("dave")
    table = private_table(dave, game="hawk", players=3)
    Seat.objects.filter(table=table, position__gt=0).update(is_bot=True)  # full, not started (as a refused start)
    with pytest.raises(InvitationError, match="no empty seat"):
        invite(table_id=table.pk, inviter=dave, member=carol)
    assert not Invitation.objects.exists()


def test_no_inviting_oneself_the_seated_or_the_invited_twice(alice, bob, make_member) -> None:
    carol = make_member("carol")
    table = private_table(alice, game="hawk", players=4)
    seat_at(table, carol)
    with pytest.raises(InvitationError, match="yourself"):
        invite(table_id=table.pk, inviter=alice, member=alice)
    with pytest.raises(InvitationError, match="already has a seat"):
        invite(table_id=table.pk, inviter=alice, member=carol)
    invite(table_id=table.pk, inviter=alice, member=bob)
    with pytest.raises(InvitationError, match="already invited"):
        invite(table_id=table.pk, inviter=alice, member=bob)
    assert Invitation.objects.count() == 1


def test_accepting_seats_the_member_and_marks_the_invitation(alice, bob, make_member) -> None:
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    answer = accept(invitation_id=invitation.pk, user=bob)
    assert answer.table == table
    assert Seat.objects.filter(table=table, user=bob).exists()
    invitation.refresh_from_db()
    assert invitation.status == Status.ACCEPTED and invitation.answered_at is not None
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN  # two of four seats taken: still waiting


def test_the_seat_that_fills_the_table_starts_the_match_and_ends_the_other_invitations(alice, bob, make_member):
    carol = make_member("carol")
    table = private_table(alice)  # Hawsker, two seats: bob's makes it full
    to_bob = invite(table_id=table.pk, inviter=alice, member=bob)
    to_carol = invite(table_id=table.pk, inviter=alice, member=carol)
    accept(invitation_id=to_bob.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and hasattr(table, "match")
    to_carol.refresh_from_db()
    assert to_carol.status == Status.EXPIRED
    with pytest.raises(AlreadyAnswered, match="has ended"):
        accept(invitation_id=to_carol.pk, user=carol)
    assert not Seat.objects.filter(user=carol).exists()


def test_a_second_accept_changes_nothing_and_says_so(alice, bob) -> None:
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    accept(invitation_id=invitation.pk, user=bob)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(AlreadyAnswered, match="already accepted; nothing changed"):
        accept(invitation_id=invitation.pk, user=bob)
    assert Table.objects.get(pk=table.pk).version == version
    assert Seat.objects.filter(table=table, user=bob).count() == 1


def test_nobody_else_may_answer_or_withdraw_an_invitation(alice, bob, make_member) -> None:
    mallory = make_member("mallory")
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    for answer in (accept, decline):
        with pytest.raises(NoSuchInvitation):
            answer(invitation_id=invitation.pk, user=mallory)
    with pytest.raises(NoSuchInvitation):
        withdraw(invitation_id=invitation.pk, user=bob)  # the invited member cannot withdraw it either
    with pytest.raises(NoSuchInvitation):
        accept(invitation_id=invitation.pk + 99, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.PENDING
    assert not Seat.objects.filter(table=table, user=mallory).exists()


def test_decline_then_a_stale_accept_or_repeated_decline_changes_nothing(alice, bob) -> None:
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    decline(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.DECLINED and invitation.answered_at is not None
    with pytest.raises(AlreadyAnswered, match="already declined"):
        decline(invitation_id=invitation.pk, user=bob)
    with pytest.raises(AlreadyAnswered, match="already declined"):
        accept(invitation_id=invitation.pk, user=bob)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    # Declined is an answer, not a ban: the creator may ask again once the cool-down (test_invitation_limits) is over.
    Invitation.objects.filter(pk=invitation.pk).update(
        answered_at=timezone.now() - timedelta(minutes=settings.INVITATION_COOLDOWN_MINUTES, seconds=1))
    again = invite(table_id=table.pk, inviter=alice, member=bob)
    assert again.status == Status.PENDING


def test_withdrawn_invitations_cannot_be_accepted(alice, bob) -> None:
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    withdraw(invitation_id=invitation.pk, user=alice)
    with pytest.raises(AlreadyAnswered, match="withdrawn"):
        withdraw(invitation_id=invitation.pk, user=alice)
    with pytest.raises(AlreadyAnswered, match="withdrawn"):
        accept(invitation_id=invitation.pk, user=bob)
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_a_member_busy_at_a_running_table_keeps_the_invitation_and_is_told(alice, bob, make_member) -> None:
    carol = make_member("carol")
    full_table("hawsker", [bob, carol])  # bob is playing
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    with pytest.raises(InvitationError, match="already playing"):
        accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.PENDING
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_a_table_filled_meanwhile_ends_the_invitation_with_a_clear_error(alice, bob, make_member) -> None:
    table = private_table(alice, game="hawk", players=3)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    add_bot(table_id=table.pk, user=alice)
    add_bot(table_id=table.pk, user=alice)  # the table is full, so it started
    with pytest.raises(AlreadyAnswered, match="has ended"):
        accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED


def test_a_full_table_that_has_not_started_ends_the_invitation(alice, bob) -> None:
    """Full but still open (its start was refused: a member is playing elsewhere): no seat is left to offer."""
    table = private_table(alice, game="hawk", players=3)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    Seat.objects.filter(table=table, position__gt=0).update(is_bot=True)
    with pytest.raises(InvitationError, match="full"):
        accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED
