"""Correspondence tables (issue 44): what a member reads about them, wherever it is shown (the new-table form, the
lobby, the board's house rules, the page of the member's tables), kept free of imports so any of them may use it."""

from __future__ import annotations

from django.utils.translation import ngettext


def move_hours_text(hours: int) -> str:
    """A correspondence table's time for a move, as the form and the lobby say it ("a move every 2 days")."""
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("a move a day", "a move every %(count)s days", days) % {"count": days}
    return ngettext("a move every hour", "a move every %(count)s hours", hours) % {"count": hours}
