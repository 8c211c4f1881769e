"""The creator's "invite a member" form: one name field that must come to exactly one member."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tables.invitations.selectors import resolve
from tables.models import Table


class InviteForm(forms.Form):
    member = forms.CharField(
        label=_("Invite a member"), max_length=254, strip=True,
        help_text=_("Their username or display name; suggestions appear as you type."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "list": "invite-suggestions", "spellcheck": "false",
                                      "autocapitalize": "none"}),
    )

    def __init__(self, *args: Any, table: Table, inviter: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.inviter = inviter

    def clean_member(self) -> User:
        found = resolve(self.table, self.inviter, self.cleaned_data["member"])
        if found.member is None:
            raise forms.ValidationError(found.problem)
        return found.member
