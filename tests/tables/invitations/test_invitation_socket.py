"""The invited member's lobby socket: the notice arrives live with the list, only after commit, only to them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction

from tables.invitations.services.invitations import decline, invite, withdraw
from tests.sockets import communicator, session_cookie
from tests.tables.invitations.support import private_table
from tests.tables.quickplay.test_quickplay_socket import receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user):
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(user))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)  # the online count and quick play's panel
    return comm


@pytest.fixture
def members(make_member):
    return make_member("alice", display_name="Alice <i>A</i>"), make_member("bob"), make_member("carol")


async def test_the_invited_member_is_told_live_and_nobody_else(members) -> None:
    alice, bob, carol = members
    table = await sync_to_async(private_table)(alice, game="hawk", players=4)
    to_bob, to_carol = await connect(bob), await connect(carol)
    invitation = await sync_to_async(invite)(table_id=table.pk, inviter=alice, member=bob)
    notice = await receive_until(to_bob, r'data-notice="invitation-invited"')
    assert 'hx-swap-oob="beforeend"' in notice and f'data-invitation="{invitation.pk}"' in notice
    assert "sr-only" in notice and "Take the seat" not in notice  # said once; shown once, in the list below
    assert "Alice &lt;i&gt;A&lt;/i&gt;" in notice and "<i>" not in notice
    listed = await receive_until(to_bob, r'id="invitations"')
    assert 'hx-swap-oob="true"' in listed and f'data-invitation="{invitation.pk}"' in listed
    assert f'hx-post="/invitations/{invitation.pk}/accept/"' in listed and "Take the seat" in listed
    assert await to_carol.receive_nothing(timeout=0.3)
    await sync_to_async(withdraw)(invitation_id=invitation.pk, user=alice)
    gone = await receive_until(to_bob, r'data-notice="invitation-withdrawn"')
    assert "withdrew the invitation" in gone
    listed = await receive_until(to_bob, r'id="invitations"')
    assert f'data-invitation="{invitation.pk}"' not in listed
    await to_bob.disconnect()
    await to_carol.disconnect()


async def test_an_answer_in_one_tab_clears_the_others(members) -> None:
    alice, bob, _ = members
    table = await sync_to_async(private_table)(alice, game="hawk", players=4)
    invitation = await sync_to_async(invite)(table_id=table.pk, inviter=alice, member=bob)
    other_tab = await connect(bob)
    await sync_to_async(decline)(invitation_id=invitation.pk, user=bob)
    message = await receive_until(other_tab, rf'id="invitation-notice-{invitation.pk}" hx-swap-oob="delete"')
    assert "invites you" not in message
    listed = await receive_until(other_tab, r'id="invitations"')
    assert f'data-invitation="{invitation.pk}"' not in listed
    await other_tab.disconnect()


async def test_nothing_is_pushed_for_an_invitation_that_rolled_back(members) -> None:
    alice, bob, _ = members
    table = await sync_to_async(private_table)(alice, game="hawk", players=4)
    to_bob = await connect(bob)

    def invite_then_roll_back() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            invite(table_id=table.pk, inviter=alice, member=bob)
            raise RuntimeError("something later in the same transaction failed")

    await sync_to_async(invite_then_roll_back)()
    assert await to_bob.receive_nothing(timeout=0.5)
    await to_bob.disconnect()



async def test_a_socket_that_opens_later_brings_the_invitations_made_meanwhile(members) -> None:
    alice, bob, _ = members
    table = await sync_to_async(private_table)(alice, game="hawk", players=4)
    invitation = await sync_to_async(invite)(table_id=table.pk, inviter=alice, member=bob)
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(bob))
    connected, _ = await comm.connect()
    assert connected
    listed = await receive_until(comm, r'id="invitations"')
    assert f'data-invitation="{invitation.pk}"' in listed and 'hx-swap-oob="true"' in listed
    await comm.disconnect()
