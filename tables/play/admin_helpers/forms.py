"""The form of the admin's table actions (close a table, void a round): the reason kept with the record."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.play.services.admin_actions import REASON_MAX


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept with the table or round, with your name and the time, and shown in the admin's history."),
    )
