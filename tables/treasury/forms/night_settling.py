"""The form that records a payment made at the table for a club night: who paid whom, how much, on which day.

It only parses (players chosen from the night's own, dollars and cents in the reader's format); whether the payment
makes sense for the night is the service's business (tables.treasury.services.night_payments)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tables.ledger.selectors import club_today
from tables.play.request_dates import ClubDayField


def new_token() -> str:
    return secrets.token_urlsafe(24)


class NightPaymentForm(forms.Form):
    payer = forms.TypedChoiceField(label=_("Who paid"), coerce=int)
    payee = forms.TypedChoiceField(label=_("To whom"), coerce=int)
    amount = forms.DecimalField(label=_("Amount ($)"), max_digits=9, decimal_places=2, localize=True,
                                widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}))
    paid_on = ClubDayField(label=_("Paid on"), widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(label=_("Note (optional)"), max_length=200, required=False)
    token = forms.CharField(max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: Sequence[User], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"paid_on": club_today(), "token": new_token()})
        super().__init__(*args, **kwargs)
        choices = [("", "---------"), *((member.pk, member.shown_name) for member in players)]
        self.fields["payer"].choices = choices
        self.fields["payee"].choices = choices

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"payer_id": data["payer"], "payee_id": data["payee"], "amount": int(data["amount"] * 100),
                "paid_on": data["paid_on"], "token": data["token"], "note": data["note"]}
