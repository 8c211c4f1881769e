"""Invitation spam (issue 39, item 5): limits per inviter, per invited member, and a cool-down after a withdrawal or a
refusal, all counted from the database; a refused invitation changes nothing and notifies nobody."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.invitations.services.invitations import InvitationLimit, decline, invite, withdraw
from tables.models import Invitation
from tests.tables.helpers import client_for
from tests.tables.invitations.support import notices, private_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
Status = Invitation.Status


@pytest.fixture
def limits(settings):
    settings.INVITATIONS_SENT_PER_HOUR = 30
    settings.INVITATIONS_RECEIVED_PER_HOUR = 10
    settings.INVITATION_COOLDOWN_MINUTES = 10
    return settings


def test_inviting_and_withdrawing_one_member_forty_times_makes_one_notice_of_each(
        limits, members, sent, django_capture_on_commit_callbacks) -> None:
    alice, bob, _ = members
    table = private_table(alice, game="hawk", players=4)
    creator = client_for(alice)
    refusals = []
    for _ in range(40):
        with django_capture_on_commit_callbacks(execute=True):
            answer = creator.post(reverse("invite", args=[table.code]), {"member": "bob"}, **HTMX)
        if answer.status_code != 200:
            refusals.append(answer)
            continue
        made = Invitation.objects.get(status=Status.PENDING)
        with django_capture_on_commit_callbacks(execute=True):
            assert creator.post(reverse("invitation_withdraw", args=[made.pk]), **HTMX).status_code == 200
    kinds = [kind for kind, _ in notices(sent, bob)]
    assert kinds == ["invited", "withdrawn"]
    assert Invitation.objects.count() == 1
    assert len(refusals) == 39
    assert {answer.status_code for answer in refusals} == {429}
    assert "You withdrew your invitation to bob recently; you can invite them again in 10 minutes." in (
        refusals[0].content.decode())


def test_the_cool_down_after_a_withdrawal_or_a_refusal_lifts(limits, members) -> None:
    alice, bob, carol = members
    table = private_table(alice, game="hawk", players=4)
    withdraw(invitation_id=invite(table_id=table.pk, inviter=alice, member=bob).pk, user=alice)
    decline(invitation_id=invite(table_id=table.pk, inviter=alice, member=carol).pk, user=carol)
    with pytest.raises(InvitationLimit, match="You withdrew your invitation to bob recently"):
        invite(table_id=table.pk, inviter=alice, member=bob)
    with pytest.raises(InvitationLimit, match="carol declined your invitation recently"):
        invite(table_id=table.pk, inviter=alice, member=carol)
    assert Invitation.objects.filter(status=Status.PENDING).count() == 0
    Invitation.objects.update(answered_at=timezone.now() - timedelta(minutes=10, seconds=1))
    assert invite(table_id=table.pk, inviter=alice, member=bob).status == Status.PENDING
    assert invite(table_id=table.pk, inviter=alice, member=carol).status == Status.PENDING


def test_an_inviter_sends_at_most_the_hours_allowance(limits, make_member, members, sent,
                                                      django_capture_on_commit_callbacks) -> None:
    limits.INVITATIONS_SENT_PER_HOUR = 3
    alice = members[0]
    table = private_table(alice, game="hawk", players=4)
    invited = [make_member(f"guest{n}") for n in range(4)]
    for member in invited[:3]:
        invite(table_id=table.pk, inviter=alice, member=member)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(
            InvitationLimit, match="You have sent 3 invitations in the last hour, as many as the club allows; you can "
                                   "send the next in 60 minutes"):
        invite(table_id=table.pk, inviter=alice, member=invited[3])
    assert not Invitation.objects.filter(invited=invited[3]).exists()
    assert notices(sent, invited[3]) == []
    # The hour slides: once the oldest is an hour old, one more may go.
    oldest = Invitation.objects.order_by("created_at", "pk").first()
    Invitation.objects.filter(pk=oldest.pk).update(created_at=timezone.now() - timedelta(hours=1, seconds=1))
    assert invite(table_id=table.pk, inviter=alice, member=invited[3]).status == Status.PENDING


def test_a_member_receives_at_most_the_hours_allowance_from_everyone_together(limits, make_member, members) -> None:
    limits.INVITATIONS_RECEIVED_PER_HOUR = 2
    bob = members[1]
    inviters = [make_member(f"host{n}") for n in range(3)]
    tables = [private_table(host, game="hawk", players=4) for host in inviters]
    invite(table_id=tables[0].pk, inviter=inviters[0], member=bob)
    invite(table_id=tables[1].pk, inviter=inviters[1], member=bob)
    with pytest.raises(InvitationLimit, match="bob has had as many invitations in the last hour as the club allows"):
        invite(table_id=tables[2].pk, inviter=inviters[2], member=bob)
    assert Invitation.objects.filter(invited=bob).count() == 2


def test_a_limit_of_zero_is_no_limit(limits, members) -> None:
    limits.INVITATION_COOLDOWN_MINUTES = 0
    alice, bob, _ = members
    table = private_table(alice, game="hawk", players=4)
    for _ in range(3):
        withdraw(invitation_id=invite(table_id=table.pk, inviter=alice, member=bob).pk, user=alice)
    assert Invitation.objects.filter(status=Status.WITHDRAWN).count() == 3
