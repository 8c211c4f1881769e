"""Invitations' messages, on play's primitives (tables.play.push): after commit, to the invited member only.

Each message carries what its notice shows (the table's code and name, who invited), so a lobby socket renders the
notice at once from the event; it then reads the member's list of invitations itself.
"""

from __future__ import annotations

from typing import Any

from tables.models import Invitation
from tables.play import push
from tables.play.push import batched

__all__ = ["answered", "batched", "invited"]

EVENT = "invitation.notice"  # handled by LobbyConsumer.invitation_notice


def _send(invitation: Invitation, kind: str) -> None:
    table = invitation.table
    data: dict[str, Any] = {
        "type": EVENT, "kind": kind, "invitation": invitation.pk, "table": table.code,
        "name": table.name or table.get_game_display(), "by": invitation.invited_by.shown_name,
    }
    push.send_on_commit(push.user_group(invitation.invited_id), data)


def invited(invitation: Invitation) -> None:
    """A new invitation: the member's lobby shows a notice with a button that seats them, and the list."""
    _send(invitation, "invited")


def answered(invitation: Invitation, *, kind: str = "answered") -> None:
    """The invitation ended (answered in some tab, withdrawn, or its table started): the member's lobbies refresh
    their list, and for `withdrawn` and `table_started` say so."""
    _send(invitation, kind)
