"""Quick play as HTML: the lobby page, the views' replies and the lobby socket render the same partials.

One place builds the panel's context, so a member sees the same place and wait whether the panel
came with the page, as the answer to their own click, or pushed over their socket.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from accounts.time_zones import member_zone
from rules.engine import registry
from tables.models import QueueRequest
from tables.quickplay.forms import QuickPlayForm
from tables.quickplay.selectors import GameQueue, QuickStatus, quick_status
from tables.quickplay.services.matchmaking import EXPIRES_AFTER

PANEL = "tables/quickplay/panel.html"


def panel_context(user: User, *, form: QuickPlayForm | None = None, error: str = "",
                  status: QuickStatus | None = None) -> dict[str, Any]:
    status = status or quick_status(user)
    if form is None:
        last = None
        if status.mine is None and user.is_authenticated:
            last = QueueRequest.objects.filter(user=user).order_by("-created_at", "-id").values_list(
                "game", flat=True
            ).first()
        form = QuickPlayForm(game=status.mine.game if status.mine else last)
    return {"quick": status, "quick_form": form, "quick_error": error}


def render_counts(counts: list[GameQueue]) -> str:
    return render_to_string(f"{PANEL}#quick-counts", {"quick": {"counts": counts}, "oob": True})


def render_update(user: User, status: QuickStatus, *, with_mine: bool) -> str:
    """The socket's refresh: the counts for everyone and, when asked, this member's own panel (its times in the
    member's zone, as the page showed them: a socket has no request for the middleware to set it)."""
    html = render_to_string(f"{PANEL}#quick-counts", {"quick": status, "oob": True})
    if with_mine:
        with timezone.override(member_zone(user)):
            html += render_to_string(f"{PANEL}#quick-mine", {**panel_context(user, status=status), "oob": True})
    return html


def render_notice(kind: str, data: Mapping[str, Any]) -> str:
    """A notice pushed to one member, from the event alone (no database: it goes out at once, even
    when the process is busy). Unknown kinds and malformed events render nothing."""
    game = str(data.get("game", ""))
    context: dict[str, Any] = {
        "kind": kind,
        "game_title": registry.spec(game).title if registry.known(game) else "",
        "minutes": int(EXPIRES_AFTER.total_seconds() // 60),
    }
    if kind == "table_ready":
        code = str(data.get("table", ""))
        if not code.isalnum():
            return ""
        context["code"] = code
        context["name"] = str(data.get("name", ""))
    elif kind not in {"queue_expired", "queue_dropped"}:
        return ""
    return render_to_string("tables/quickplay/notice.html", context)
