"""Invitations as HTML: the lobby's list (with the page, as a view's answer, or pushed over the lobby socket), the
notice the socket pushes, and the creator's panel on the table page. Lists are read after marking what ended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from accounts.time_zones import member_zone
from tables.invitations.forms import InviteForm
from tables.invitations.selectors import has_ended, of_table, pending_for
from tables.invitations.services.invitations import InvitationError, ensure_may_invite, expire_stale, mark_ended
from tables.models import Invitation, Table

LOBBY = "tables/invitations/lobby.html"
PANEL = "tables/invitations/panel.html"
NOTICE = "tables/invitations/notice.html"
NOTICE_KINDS = {"invited", "withdrawn", "table_started", "table_closed", "expired"}


def lobby_context(user: User, *, error: str = "", done: str = "") -> dict[str, Any]:
    """The member's open invitations; those that ended unanswered are marked as they are read, and their end pushed
    like any other (one query, and an UPDATE only when something ended)."""
    pending = pending_for(user)
    mark_ended([invitation for invitation in pending if has_ended(invitation)])
    shown = [invitation for invitation in pending if not has_ended(invitation)]
    return {"invitations": shown, "invitation_error": error, "invitation_done": done}


def lobby_list_html(user: User, *, oob: bool = False, error: str = "", done: str = "",
                    answered: int | None = None) -> str:
    """The member's list; `answered`: the invitation just answered, whose pushed notice (if shown) goes too."""
    with timezone.override(member_zone(user)):
        html = render_to_string(f"{LOBBY}#list", {**lobby_context(user, error=error, done=done), "oob": oob})
    if answered is not None:
        html += render_to_string(f"{NOTICE}#gone", {"invitation": answered})
    return html


def render_notice(kind: str, data: Mapping[str, Any]) -> str:
    """The notice for one pushed event, from the event alone (no database: it goes out at once). Malformed events
    and kinds that only refresh the list render nothing but the removal of that invitation's earlier notice."""
    try:
        invitation = int(data.get("invitation", ""))
    except (TypeError, ValueError):
        return ""
    code = str(data.get("table", ""))
    if not code.isalnum():
        return ""
    if kind not in NOTICE_KINDS:
        return render_to_string(f"{NOTICE}#gone", {"invitation": invitation})
    return render_to_string(NOTICE, {
        "kind": kind, "invitation": invitation, "code": code, "name": str(data.get("name", ""))[:80],
        "by": str(data.get("by", ""))[:60],
    })


def _why_not(table: Table, user: User) -> str:
    try:
        ensure_may_invite(table, user)
    except InvitationError as error:
        return str(error)
    return ""


def panel_context(table: Table, user: User, *, form: InviteForm | None = None, error: str = "",
                  done: str = "") -> dict[str, Any]:
    """The creator's panel: who is invited and their answers, and the form while the table can take one more."""
    expire_stale(table_id=table.pk)
    table.refresh_from_db(fields=["status"])
    invitations = of_table(table)
    cannot = _why_not(table, user)
    return {
        "table": table, "invitations": invitations, "cannot": cannot, "error": error, "done": done,
        "form": form if form is not None else InviteForm(table=table, inviter=user),
        "pending": any(i.status == Invitation.Status.PENDING for i in invitations),
        "shown": table.created_by_id == user.pk and table.private and (not cannot or bool(invitations)),
    }
