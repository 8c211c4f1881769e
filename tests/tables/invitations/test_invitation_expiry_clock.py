"""An invitation that runs out of time is taken off the invited member's open lobby (issue 19): the table clock every
serving process runs (tables/play/background.py) does the invitations' job on each pass, with no page open; a pass
that fails is logged and the next one (a second later) tries again, and play's own sweep failing keeps nothing
else from running."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.invitations.services import invitations as services
from tables.invitations.services.invitations import EndedInvitations, invite
from tables.models import Invitation
from tables.play import background
from tables.play.services.tables import add_bot
from tests.sockets import communicator, session_cookie
from tests.tables.invitations.support import notices, private_table
from tests.tables.quickplay.test_quickplay_socket import receive_until

Status = Invitation.Status


def out_of_time(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))




@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_the_clock_s_pass_ends_an_invitation_out_of_time_and_tells_the_lobby(members, sent) -> None:
    alice, bob, carol = members
    table = private_table(alice, game="hawk", players=4)
    late = invite(table_id=table.pk, inviter=alice, member=bob)
    fresh = invite(table_id=table.pk, inviter=alice, member=carol)
    out_of_time(late)
    sent.clear()
    job = EndedInvitations()
    next_look = background.run_pass(lambda: None, jobs={"invitations": job})
    late.refresh_from_db()
    assert late.status == Status.EXPIRED and notices(sent, bob) == [("expired", late.pk)]
    assert Invitation.objects.get(pk=fresh.pk).status == Status.PENDING and notices(sent, carol) == []
    # It says when to look next: no later than the next expiry, nor than its regular look for other processes' ones.
    assert next_look is not None and next_look <= timezone.now() + services.LOOK_EVERY
    assert next_look <= Invitation.objects.get(pk=fresh.pk).expires_at
    sent.clear()
    background.run_pass(lambda: None, jobs={"invitations": job})
    assert notices(sent, bob) == []  # told once


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_a_failed_pass_is_logged_and_the_next_pass_ends_it(members, sent, monkeypatch, caplog) -> None:
    alice, bob, _ = members
    table = private_table(alice, game="hawk", players=4)
    invitation = invite(table_id=table.pk, inviter=alice, member=bob)
    out_of_time(invitation)
    sent.clear()
    real = services.end_invitations
    calls = {"n": 0}

    def fails_once(*args: Any, **kwargs: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("the database went away")
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "end_invitations", fails_once)
    job = EndedInvitations()
    ticks = {"n": 0}

    def play_sweep() -> None:  # play's own sweep still runs on the failing pass
        ticks["n"] += 1

    with caplog.at_level(logging.ERROR, logger="tables.play.background"):
        background.run_pass(play_sweep, jobs={"invitations": job})
    assert "table clock: invitations failed" in caplog.text and "the database went away" in caplog.text
    assert ticks["n"] == 1
    assert Invitation.objects.get(pk=invitation.pk).status == Status.PENDING and notices(sent, bob) == []
    background.run_pass(play_sweep, jobs={"invitations": job})  # the next pass: it looks again at once
    assert Invitation.objects.get(pk=invitation.pk).status == Status.EXPIRED
    assert notices(sent, bob) == [("expired", invitation.pk)] and ticks["n"] == 2


@pytest.mark.django_db(transaction=True)  # pushes leave on a real commit
def test_play_s_sweep_failing_does_not_keep_the_invitations_from_ending(members, sent, caplog) -> None:
    alice, bob, _ = members
    invitation = invite(table_id=private_table(alice, game="hawk", players=4).pk, inviter=alice, member=bob)
    out_of_time(invitation)

    def broken_sweep() -> None:
        raise RuntimeError("a table's step failed")

    with caplog.at_level(logging.ERROR, logger="tables.play.background"):
        background.run_pass(broken_sweep, jobs={"invitations": EndedInvitations()})
    assert "table clock: tables failed" in caplog.text
    assert Invitation.objects.get(pk=invitation.pk).status == Status.EXPIRED


def test_the_invitations_job_is_on_the_process_clock() -> None:
    """TablesConfig.ready registers it: the clock every serving process runs does it, with no page open."""
    assert isinstance(background.jobs().get("invitations"), EndedInvitations)


# --- on the invited member's open lobby socket ----------------------------------------------------------------


async def lobby_of(user):
    comm = communicator("/ws/lobby/", cookie=await sync_to_async(session_cookie)(user))
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_drops_take_the_seat_when_the_table_starts_and_when_time_runs_out(members) -> None:
    alice, bob, carol = members
    started = await sync_to_async(private_table)(alice, game="hawk", players=3)
    waiting = await sync_to_async(private_table)(carol, game="hawk", players=4)
    first = await sync_to_async(invite)(table_id=started.pk, inviter=alice, member=bob)
    second = await sync_to_async(invite)(table_id=waiting.pk, inviter=carol, member=bob)
    to_bob = await lobby_of(bob)
    listed = await receive_until(to_bob, r'id="invitations"')
    assert f'data-invitation="{first.pk}"' in listed and f'data-invitation="{second.pk}"' in listed

    await sync_to_async(add_bot)(table_id=started.pk, user=alice)
    await sync_to_async(add_bot)(table_id=started.pk, user=alice)  # full: it starts without Bob
    notice = await receive_until(to_bob, r'data-notice="invitation-table_started"')
    assert "has started without you" in notice
    listed = await receive_until(to_bob, r'id="invitations"')
    assert f'data-invitation="{first.pk}"' not in listed and f'data-invitation="{second.pk}"' in listed

    await sync_to_async(out_of_time)(second)
    await sync_to_async(background.run_pass)(lambda: None, jobs={"invitations": EndedInvitations()})
    notice = await receive_until(to_bob, r'data-notice="invitation-expired"')
    assert "ran out of time" in notice
    listed = await receive_until(to_bob, r'id="invitations"')
    assert "Take the seat" not in listed and 'data-invitation="' not in listed
    await to_bob.disconnect()
