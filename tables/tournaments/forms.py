"""The organiser's forms: a new tournament (its house-rule fields made as the new-table form makes them, from the
game's spec), and the small ones the detail page's controls post (a reason, a member's username).

Forms only read and check what was typed; every rule about what a tournament may be is the services' (a form that
passes can still be refused there, and the page says why)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.engine.api import GameSpec
from tables.models import Tournament
from tables.play.forms import OPTION_PREFIX, NewTableForm, choose_game
from tables.play.request_numbers import WholeNumberField
from tables.tournaments.controls import MAX_NO_SHOW_MINUTES
from tables.tournaments.services import NAME_LENGTH, REASON_LENGTH, ROUNDS_OPTION, TARGET_OPTION, plays_to_target


def parse_prize_shares(text: str) -> list[int]:
    """"50, 30, 20" (commas, semicolons or spaces between) as [50, 30, 20]; anything else is a ValidationError."""
    parts = [part for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    try:
        shares = [int(part) for part in parts]
    except ValueError:
        raise forms.ValidationError(gettext("Write the shares as whole percentages, e.g. 50, 30, 20.")) from None
    if any(share < 1 for share in shares):
        raise forms.ValidationError(gettext("Prize shares are whole percentages above 0."))
    if sum(shares) > 100:
        raise forms.ValidationError(gettext("The prize shares add up to more than 100 percent."))
    return shares


class NewTournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_LENGTH)
    game = forms.ChoiceField(label=_("Game"), choices=[])
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices,
        help_text=_("Sessions are for games at tables of three or more; Swiss rounds and round robins for "
                    "two-player games."))
    rounds = WholeNumberField(label=_("Sessions or rounds"), min_value=1, max_value=30, required=False,
        help_text=_("Leave empty for a round robin: its rounds follow from the entries."))
    hands_per_session = WholeNumberField(label=_("Hands per session"), min_value=1, max_value=100, required=False,
        help_text=_("Sessions only; empty: the club's default."))
    rated = forms.BooleanField(label=_("Rated"), required=False)
    starts_at = forms.DateTimeField(label=_("Starts at"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: when the organiser starts it."))
    no_show_minutes = WholeNumberField(label=_("Minutes before a no-show"), min_value=1,
                                       max_value=MAX_NO_SHOW_MINUTES, initial=10)
    entry_fee = forms.DecimalField(label=_("Entry fee ($)"), min_value=Decimal(0), max_value=Decimal(1000),
                                   decimal_places=2, required=False, initial=Decimal(0), localize=True)
    prize_shares = forms.CharField(label=_("Prize shares (percent per place)"), required=False, max_length=100,
        help_text=_("Best place first, e.g. 50, 30, 20; at most 100 in all. Empty: no prizes."))

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec: GameSpec = choose_game(self, game)
        for option in self.spec.options:
            if option.name != ROUNDS_OPTION:  # a session's length is "hands per session"; a pairing plays one match
                self.fields[OPTION_PREFIX + option.name] = NewTableForm._field_for(option)
        self.session_note = ""
        if plays_to_target(self.spec.key):
            # A game played to a target (Puskiyon) has no hands per session to ask: a session is one game.
            del self.fields["hands_per_session"]
            target = next((option for option in self.spec.options if option.name == TARGET_OPTION), None)
            if target is not None:
                self.session_note = gettext(
                    "A %(game)s session is one game: it ends after the hand in which somebody's total reaches the "
                    "target set below (%(default)s unless you change it), and the lowest total is best."
                ) % {"game": self.spec.title, "default": target.default}

    def clean_prize_shares(self) -> list[int]:
        return parse_prize_shares(self.cleaned_data.get("prize_shares") or "")

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def plain_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(OPTION_PREFIX) and name != "game"]

    def service_arguments(self) -> dict[str, Any]:
        """What controls.organise takes (the organiser aside)."""
        data = self.cleaned_data
        sessions = data["format"] == Tournament.Format.SESSIONS
        fee = data.get("entry_fee") or Decimal(0)
        return {
            "name": data["name"], "game": data["game"], "format": data["format"],
            "rounds": data.get("rounds"),
            "hands_per_session": data.get("hands_per_session") if sessions else None,
            "options": {name.removeprefix(OPTION_PREFIX): value for name, value in data.items()
                        if name.startswith(OPTION_PREFIX)},
            "rated": data["rated"], "starts_at": data.get("starts_at"),
            "no_show_minutes": data["no_show_minutes"],
            "entry_fee_cents": int(fee * 100), "prize_shares": data["prize_shares"],
        }


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_LENGTH)


class EntrantForm(forms.Form):
    username = forms.CharField(label=_("Member's username"), max_length=150)


class ClubPlayerForm(forms.Form):
    """The name of a person who plays only at the club (tables.tournaments.club_players checks it)."""

    display_name = forms.CharField(label=_("Player's name"), max_length=40)
