"""Whose statement, which game (or every game) and which days: the statement pages' query string."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts.fields import MemberField
from tables.ledger.forms import PeriodForm


class StatementForm(PeriodForm):
    """A member (by username, display name or email, suggested as one types), a game or all, and a period of the
    club's days (either end may be open)."""

    member = MemberField(label=_("Member"), help_text=_("Username, display name or email."))

    field_order = ["member", "game", "start", "end"]

    def query(self) -> dict[str, Any]:
        """The statement's arguments; only call once the form is valid."""
        return {"member": self.cleaned_data["member"], **self.period()}
