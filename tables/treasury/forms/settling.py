"""The settling page's inputs: which game and period to look at, and the treasurer's confirmation."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.ledger.forms import PeriodForm
from tables.models import game_choices
from tables.play.request_numbers import LARGEST_INT, WholeNumberField


class BooksForm(PeriodForm):
    """A game (one at a time: balances in different units never add up) and, optionally, a period of the club's
    days; no period means "since the last settlement"."""

    game = forms.ChoiceField(choices=game_choices)


class SettleForm(forms.Form):
    """The confirmation: the game and the books as the page showed them (last entry, number of entries)."""

    game = forms.ChoiceField(choices=game_choices)
    through = WholeNumberField(min_value=1, max_value=LARGEST_INT, widget=forms.HiddenInput)
    seen = WholeNumberField(min_value=1, widget=forms.HiddenInput)
    note = forms.CharField(max_length=200, required=False, label=_("Note (optional)"),
                           widget=forms.TextInput(attrs={"placeholder": _("e.g. paid at the March meeting")}))

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"game": data["game"], "through": data["through"], "seen": data["seen"], "note": data["note"]}
