"""The club night's forms: opening a sheet (members chosen with the member chooser, one box per seat) and one row
per hand (players chosen from the night's own players, so nobody else can be typed in). They only parse; whether a
hand makes sense is the in-person services' business, so the sheet refuses exactly what the admin's forms refuse."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.fields import MemberField
from accounts.models import User
from rules.engine import registry
from rules.engine.api import OptionSpec
from rules.engine.sheepshead.house import NIGHT_OPTIONS, SCHWARZ_TRICKS, HouseRules
from tables.i18n import say
from tables.ledger.forms import BONUS_NAMES
from tables.ledger.services.inperson import GAMES
from tables.play.request_dates import ClubDayField
from tables.play.request_numbers import WholeNumberField
from tables.treasury.services.nights import FIELD_LABELS, LEASTER, MAX_NUMBER, NightError, check_row_fields

BONUSES = BONUS_NAMES
MOST_SEATS = max(game.players[1] for game in GAMES.values())


def game_choices() -> list[tuple[str, str]]:
    return [(key, registry.spec(key).title) for key in GAMES]


def seat_help() -> str:
    ranges = "; ".join(gettext("%(game)s %(low)s to %(high)s") % {"game": registry.spec(key).title, "low": low,
                                                                   "high": game.players[1]}
                       for key, game in GAMES.items() for low in (game.players[0],))
    return gettext("The players in seat order (%(ranges)s): username, display name or email.") % {"ranges": ranges}


class OpenNightForm(forms.Form):
    """Date, game, players in seat order and (for a money game) the stake; the service checks the count."""

    played_on = ClubDayField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    stake_cents = WholeNumberField(
        required=False, initial=100, label=_("Stake (cents)"), help_text=_("For games played for money (Sheepshead)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}))
    note = forms.CharField(required=False, max_length=200, label=_("Note"),
        help_text=_("Which table, anything worth remembering."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"played_on": timezone.localdate(), "stake_cents": 100})
        super().__init__(*args, **kwargs)
        for number in range(1, MOST_SEATS + 1):
            self.fields[f"seat_{number}"] = MemberField(
                required=False, label=gettext("Seat %(number)s") % {"number": number},
                    help_text=seat_help() if number == 1 else "")
        for option in NIGHT_OPTIONS:
            self.fields[f"house_{option.name}"] = _house_field(option)

    def house_fields(self) -> list[forms.BoundField]:
        return [self[f"house_{option.name}"] for option in NIGHT_OPTIONS]

    def house(self) -> dict[str, Any]:
        """The night's house rules as chosen; a choice left empty (a form posted without them) is the seed's rule."""
        data = self.cleaned_data
        chosen: dict[str, Any] = {}
        for option in NIGHT_OPTIONS:
            value = data.get(f"house_{option.name}")
            if option.kind == "bool":
                chosen[option.name] = bool(value)
            elif value:
                chosen[option.name] = value
        return chosen

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{n}"] for n in range(1, MOST_SEATS + 1)]

    def players(self) -> list[User]:
        data = self.cleaned_data
        return [data[f"seat_{n}"] for n in range(1, MOST_SEATS + 1) if data.get(f"seat_{n}") is not None]


def _house_field(option: OptionSpec) -> forms.Field:
    """A house rule of the night as a field, labelled and explained in the reader's language (the rules page says
    the same words); a choice starts at the seed's rule, the default."""
    label = gettext("House rule (Sheepshead): %(rule)s") % {"rule": say(option.label)}
    if option.kind == "bool":
        return forms.BooleanField(required=False, initial=option.default, label=label, help_text=say(option.help))
    return forms.ChoiceField(required=False, initial=option.default, label=label, help_text=say(option.help),
                             choices=[(value, say(text)) for value, text in option.choices])


def _player_choices(members: Sequence[User]) -> list[tuple[str, str]]:
    return [(str(m.pk), m.shown_name) for m in members]


class _RowForm(forms.Form):
    """One hand's row; `row()` is what the sheet keeps (text and member ids, re-checked at saving), and `number()`
    the paper's number for it (empty: the service gives the next one). Contradictory fields are refused here, by
    the service's own check (it checks again whenever the row is priced), so the form's errors name them."""

    game = ""

    def __init__(self, *args: Any, members: Sequence[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.members = list(members)

    def add_number_field(self) -> None:
        """The paper's number for this hand, last in the row so the keyboard's path through a hand is unchanged."""
        self.fields["number"] = WholeNumberField(
            required=False, min_value=1, max_value=MAX_NUMBER, label=_("No. on the paper"),
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MAX_NUMBER,
                                            "class": "row-number-input"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            check_row_fields(game=self.game, row=self.row())
        except NightError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def row(self) -> dict[str, Any]:
        return {name: value for name, value in self.cleaned_data.items() if name != "number"}

    def number(self) -> int | None:
        return self.cleaned_data.get("number")


def _choose(choices: list[tuple[str, Any]], label: Any) -> forms.CharField:
    # A CharField with a select: a value that is not one of the night's players reaches the service, which says
    # who may be named, rather than Django's bare "Select a valid choice".
    return forms.CharField(required=False, label=label, widget=forms.Select(choices=choices))


class SheepsheadRowForm(_RowForm):
    """A Sheepshead hand; the night's house rules add their own boxes: who dealt (and sat out), cracked and
    re-cracked, and whether the losing side took no trick (schwarz by tricks)."""

    game = "sheepshead"

    def __init__(self, *args: Any, members: Sequence[User], house: HouseRules | None = None, **kwargs: Any) -> None:
        super().__init__(*args, members=members, **kwargs)
        house = house or HouseRules()
        players = _player_choices(self.members)
        if house.dealer_sits_out:
            self.fields["dealer"] = _choose([("", _("— dealer —")), *players], _("Dealer (sits out)"))
        self.fields["picker"] = _choose([("", _("— picker —")), *players, (LEASTER, _("Leaster (nobody picked)"))],
            FIELD_LABELS["picker"])
        if len(self.members) >= 5:
            self.fields["partner"] = _choose([("", _("— alone —")), *players], FIELD_LABELS["partner"])
        self.fields["points"] = forms.CharField(
            required=False, max_length=10, label=FIELD_LABELS["points"],
            widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 4, "autocomplete": "off"}))
        self.fields["leaster_points"] = forms.CharField(
            required=False, max_length=60, label=FIELD_LABELS["leaster_points"],
            widget=forms.TextInput(attrs={"placeholder": _("each player's, seat order"), "autocomplete": "off"}))
        self.fields["leaster_tricks"] = forms.CharField(
            required=False, max_length=60, label=FIELD_LABELS["leaster_tricks"],
            widget=forms.TextInput(attrs={"placeholder": _("each player's, seat order"), "autocomplete": "off"}))
        if house.players_change:
            self.fields["away"] = forms.MultipleChoiceField(
                required=False, choices=players, widget=forms.CheckboxSelectMultiple, label=_("Not at the table"),
                help_text=_("Who had not come yet or had left: no entry for this hand."))
        if house.cracking:
            self.fields["cracked"] = forms.BooleanField(required=False, label=_("Cracked"),
                help_text=_("A defender doubled before the first lead."))
            self.fields["recracked"] = forms.BooleanField(required=False, label=_("Re-cracked"),
                help_text=_("The picker doubled again."))
        if house.schwarz == SCHWARZ_TRICKS:
            self.fields["no_trick"] = forms.BooleanField(required=False, label=_("Losers took no trick"),
                help_text=_("Schwarz: the losing side took no trick."))


class HawkRowForm(_RowForm):
    game = "hawk"

    def __init__(self, *args: Any, members: Sequence[User], **kwargs: Any) -> None:
        super().__init__(*args, members=members, **kwargs)
        players = _player_choices(self.members)
        self.fields["lafh_1"] = _choose([("", _("— LAFH —")), *players], FIELD_LABELS["lafh_1"])
        if len(self.members) >= 4:
            self.fields["lafh_2"] = _choose([("", _("— solo —")), *players], FIELD_LABELS["lafh_2"])
            self.fields["solo"] = forms.BooleanField(required=False, label=FIELD_LABELS["solo"])
        self.fields["lafh_pips"] = forms.CharField(
            required=False, max_length=10, label=_("LAFH pips"),
            widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 4, "autocomplete": "off"}))
        self.fields["nob_pips"] = forms.CharField(
            required=False, max_length=10, label=_("NOB pips"),
            widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 4, "autocomplete": "off",
                                          "placeholder": _("220 - LAFH") if len(self.members) in (4, 5) else ""}))
        self.fields["lafh_bonuses"] = forms.MultipleChoiceField(
            required=False, choices=BONUSES, widget=forms.CheckboxSelectMultiple, label=_("LAFH bonuses"))
        self.fields["nob_bonuses"] = forms.MultipleChoiceField(
            required=False, choices=BONUSES, widget=forms.CheckboxSelectMultiple, label=_("NOB bonuses"))


def row_form(game: str, data: Any = None, *, members: Sequence[User], house: HouseRules | None = None,
             numbered: bool = True, initial: dict[str, Any] | None = None, prefix: str | None = None) -> _RowForm:
    """The row form of the sheet's game; a Sheepshead row asks what the night's house rules (`house`) need;
    `numbered` adds the paper's number box (last)."""
    form: _RowForm
    if game == "sheepshead":
        form = SheepsheadRowForm(data, members=members, house=house, initial=initial, prefix=prefix)
    else:
        form = HawkRowForm(data, members=members, initial=initial, prefix=prefix)
    if numbered:
        form.add_number_field()
    return form


class VoidForm(forms.Form):
    """Why a hand is voided; may stay empty."""

    reason = forms.CharField(required=False, max_length=200, label=_("Reason (optional)"))
