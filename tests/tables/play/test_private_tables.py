"""Private tables (issue 39, item 8): their seats are for the creator and the invited; their page, board, chat and
socket for them, the seated and staff. A link holder who is not invited gets 403 and whom to ask, over GET, POST and
the table socket, and nothing of the table (no board, no cards, no chat line)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tables.chat.services.chat import post_line
from tables.invitations.services.invitations import accept, invite, withdraw
from tables.models import ChatMessage, Seat, Table
from tables.play import sockets
from tables.play.privacy import PrivateTable
from tables.play.services.tables import join_table
from tests.sockets import communicator, refusal_code, session_cookie
from tests.tables.helpers import client_for, full_table, seat_to_act
from tests.tables.invitations.support import private_table

HTMX = {"HTTP_HX_REQUEST": "true"}
PRIVATE = "This table is private: ask Alice, who opened it, for an invitation."


@pytest.fixture
def club(make_member):
    """alice opens a private four-seat Hawk table and invites bob; mallory holds the link, invited by nobody."""
    alice = make_member("alice", display_name="Alice")
    bob, mallory = make_member("bob"), make_member("mallory")
    table = private_table(alice, game="hawk", players=4)
    invite(table_id=table.pk, inviter=alice, member=bob)
    return alice, bob, mallory, table


def _refused_privately(response) -> None:
    page = response.content.decode()
    assert response.status_code == 403
    assert PRIVATE in page
    assert 'id="board"' not in page and "data-cards" not in page and "ws-connect" not in page


@pytest.mark.django_db
def test_a_link_holder_who_is_not_invited_cannot_take_the_seat_meant_for_the_invited(club) -> None:
    _, bob, mallory, table = club
    _refused_privately(client_for(mallory).post(reverse("join", args=[table.code])))
    htmx = client_for(mallory).post(reverse("join", args=[table.code]), **HTMX)
    assert htmx.status_code == 403 and PRIVATE in htmx.content.decode()
    with pytest.raises(PrivateTable, match="This table is private"):
        join_table(table_id=table.pk, user=mallory)
    assert not Seat.objects.filter(user=mallory).exists()
    # The invited member takes it, by the link or by the invitation.
    assert client_for(bob).post(reverse("join", args=[table.code])).status_code == 302
    assert Seat.objects.filter(table=table, user=bob).exists()


@pytest.mark.django_db
def test_a_link_holder_who_is_not_invited_sees_whom_to_ask_and_nothing_of_the_table(club) -> None:
    alice, bob, mallory, table = club
    _refused_privately(client_for(mallory).get(reverse("table", args=[table.code])))
    _refused_privately(client_for(mallory).get(reverse("board", args=[table.code])))
    for member in (alice, bob):
        assert client_for(member).get(reverse("table", args=[table.code])).status_code == 200


@pytest.mark.django_db
def test_staff_may_watch_but_only_the_invited_may_sit(club, make_member) -> None:
    _, _, _, table = club
    staff = make_member("steward", is_staff=True)
    assert client_for(staff).get(reverse("table", args=[table.code])).status_code == 200
    with pytest.raises(PrivateTable):
        join_table(table_id=table.pk, user=staff)


@pytest.mark.django_db
def test_a_withdrawn_invitation_closes_the_table_again(club, make_member) -> None:
    alice, _, _, table = club
    carol = make_member("carol")
    withdraw(invitation_id=invite(table_id=table.pk, inviter=alice, member=carol).pk, user=alice)
    _refused_privately(client_for(carol).get(reverse("table", args=[table.code])))
    with pytest.raises(PrivateTable):
        join_table(table_id=table.pk, user=carol)


@pytest.mark.django_db
def test_a_public_tables_link_still_seats_anyone(make_member) -> None:
    alice, mallory = make_member("alice"), make_member("mallory")
    table = private_table(alice, game="hawk", players=4, private=False)
    assert client_for(mallory).post(reverse("join", args=[table.code])).status_code == 302
    assert Seat.objects.filter(table=table, user=mallory).exists()


def _running_private(alice, bob) -> Table:
    table = full_table("hawsker", [alice, bob])
    Table.objects.filter(pk=table.pk).update(private=True, created_by=alice)
    table.refresh_from_db()
    return table


@pytest.mark.django_db
def test_moves_bots_and_leaving_by_post_are_refused_to_a_link_holder(make_member) -> None:
    alice, bob, mallory = make_member("alice", display_name="Alice"), make_member("bob"), make_member("mallory")
    table = _running_private(alice, bob)
    version = table.version
    fields = {"kind": "move", "table": table.code, "version": str(version), "move": "x"}
    for name, data in (("move", fields), ("ready", {**fields, "kind": "ready"}), ("leave", {}),
                       ("add_bot", {}), ("remove_bot", {"position": "1"})):
        _refused_privately(client_for(mallory).post(reverse(name, args=[table.code]), data))
        htmx = client_for(mallory).post(reverse(name, args=[table.code]), data, **HTMX)
        assert htmx.status_code == 403 and PRIVATE in htmx.content.decode(), name
    table.refresh_from_db()
    assert table.version == version
    assert seat_to_act(table) is not None  # the round goes on, untouched


@pytest.mark.django_db
def test_the_chat_of_a_private_table_is_for_those_it_is_for(make_member) -> None:
    alice, bob, mallory = make_member("alice", display_name="Alice"), make_member("bob"), make_member("mallory")
    table = _running_private(alice, bob)
    post_line(author=alice, table_id=table.pk, text="the secret handshake")
    answer = client_for(mallory).post(reverse("chat_table", args=[table.code]), {"text": "hello"}, **HTMX)
    assert answer.status_code == 403 and PRIVATE in answer.content.decode()
    assert not ChatMessage.objects.filter(author=mallory).exists()
    # Nor may the chat be read through another of its doors (muting answers with the chat's body).
    muted = client_for(mallory).post(reverse("chat_mute", args=[bob.pk]), {"room": table.code}, **HTMX)
    assert "the secret handshake" not in muted.content.decode()
    assert "the secret handshake" in client_for(bob).post(
        reverse("chat_mute", args=[mallory.pk]), {"room": table.code}, **HTMX).content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_refuses_a_link_holder_with_the_private_code(make_member) -> None:
    make = sync_to_async(make_member)
    alice, bob, mallory = await make("alice", display_name="Alice"), await make("bob"), await make("mallory")
    table = await sync_to_async(_running_private)(alice, bob)
    comm = communicator(f"/ws/table/{table.code}/", cookie=await sync_to_async(session_cookie)(mallory))
    assert await refusal_code(comm) == sockets.CLOSE_PRIVATE
    await comm.disconnect()
    seated = communicator(f"/ws/table/{table.code}/", cookie=await sync_to_async(session_cookie)(bob))
    assert (await seated.connect())[0]
    assert 'id="board"' in await seated.receive_from(timeout=5)
    await seated.disconnect()


@pytest.mark.django_db
def test_an_invited_member_who_accepted_and_left_may_come_back(club) -> None:
    _, bob, _, table = club
    invitation = table.invitations.get(invited=bob)
    accept(invitation_id=invitation.pk, user=bob)
    assert client_for(bob).post(reverse("leave", args=[table.code])).status_code == 302
    assert client_for(bob).post(reverse("join", args=[table.code])).status_code == 302
    assert Seat.objects.filter(table=table, user=bob).exists()
