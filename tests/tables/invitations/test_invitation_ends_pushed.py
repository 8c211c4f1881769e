"""An invitation whose table starts without the invited member, or closes, is taken off their open lobby at once
(issue 19): play sends `table_stopped_waiting` in the transaction that starts or closes the table, and the
invitations' receiver ends its pending invitations there, pushed after commit to each invited member alone.
(Running out of time: test_invitation_expiry_clock.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from tables.invitations.services.invitations import accept, invite
from tables.models import Invitation, Seat, Table
from tables.play.services.admin_actions import close_table
from tables.play.services.tables import add_bot, join_table, leave_table
from tests.tables.invitations.support import notices, private_table

Status = Invitation.Status


# --- the table starts or closes: pushed in the same commit ----------------------------------------------------


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_a_table_that_starts_without_the_invited_member_ends_it_on_their_lobby(members, sent) -> None:
    alice, bob, _ = members
    table = private_table(alice, game="hawk", players=3)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    sent.clear()
    add_bot(table_id=table.pk, user=alice)
    assert notices(sent, bob) == []
    add_bot(table_id=table.pk, user=alice)  # full: the match starts without Bob
    assert notices(sent, bob) == [("table_started", invitation.pk)]
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED and invitation.answered_at is not None


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
@pytest.mark.parametrize("how", ["the last member leaves", "an admin closes it"])
def test_a_table_that_closes_ends_it_on_their_lobby(members, sent, make_member, how) -> None:
    alice, bob, carol = members
    table = private_table(alice, game="hawk", players=4)
    first = invite(table_id=table.pk, inviter=alice, member=bob)
    second = invite(table_id=table.pk, inviter=alice, member=carol)
    sent.clear()
    if how == "the last member leaves":
        leave_table(table_id=table.pk, user=alice)
    else:
        close_table(table_id=table.pk, admin=make_member("boss", is_staff=True), reason="not tonight")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABANDONED
    assert notices(sent, bob) == [("table_closed", first.pk)] and notices(sent, carol) == [("table_closed", second.pk)]
    assert set(Invitation.objects.values_list("status", flat=True)) == {Status.EXPIRED}


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_the_seat_that_fills_the_table_accepts_its_own_invitation_and_ends_the_others(members, sent) -> None:
    alice, bob, carol = members
    table = private_table(alice, game="hawsker", players=2)
    taken = invite(table_id=table.pk, inviter=alice, member=bob)
    other = invite(table_id=table.pk, inviter=alice, member=carol)
    sent.clear()
    accept(invitation_id=taken.pk, user=bob)  # fills the table: it starts
    taken.refresh_from_db()
    other.refresh_from_db()
    assert (taken.status, other.status) == (Status.ACCEPTED, Status.EXPIRED)
    assert notices(sent, bob) == [("answered", taken.pk)]  # once: the start did not end Bob's own as "expired"
    assert notices(sent, carol) == [("table_started", other.pk)]


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_a_member_who_sat_down_by_the_link_has_their_invitation_answered_when_the_table_starts(members, sent) -> None:
    alice, bob, _ = members
    table = private_table(alice, game="hawsker", players=2)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    sent.clear()
    join_table(table_id=table.pk, user=bob)  # by the table's link, not the invitation's button
    invitation.refresh_from_db()
    assert invitation.status == Status.ACCEPTED
    assert notices(sent, bob) == [("answered", invitation.pk)]


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_nothing_is_pushed_when_the_start_rolls_back(members, sent, monkeypatch) -> None:
    alice, bob, _ = members
    table = private_table(alice, game="hawsker", players=2)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    sent.clear()

    def deal_fails(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the deal failed")

    monkeypatch.setattr("tables.play.services.play._deal", deal_fails)
    with pytest.raises(RuntimeError):
        add_bot(table_id=table.pk, user=alice)
    invitation.refresh_from_db()
    assert invitation.status == Status.PENDING and notices(sent, bob) == []
    assert not Seat.objects.filter(table=table, is_bot=True).exists()
