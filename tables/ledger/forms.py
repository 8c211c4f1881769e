"""Forms of the history pages and of the admin's ledger screens: they only parse what people type.

Whether a result makes sense (known members, possible points, the right number of players) is the
services' business, so the same refusals reach the admin form, the tests and any other caller.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.text import format_lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.fields import MemberField
from rules.engine import registry
from tables.models import game_choices
from tables.play.request_dates import ClubDayField
from tables.play.request_numbers import WholeNumberField

_SPLIT = re.compile(r"[\s,;]+")


def split_words(text: str) -> list[str]:
    return [word for word in _SPLIT.split(text or "") if word]


def field_list(labels: Sequence[Any]) -> str:
    """Fields named in a refusal by their labels, each quoted: “Partner”, “Picker's points”."""
    return ", ".join(f"“{label}”" for label in labels)


class PeriodForm(forms.Form):
    """A game and a date range; every field may be left empty."""

    game = forms.ChoiceField(required=False, label=_("Game"), choices=lambda: [("", _("All games")), *game_choices()])
    start = ClubDayField(required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = ClubDayField(required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            raise forms.ValidationError(_("The period ends before it starts."))
        return data

    def period(self) -> dict[str, Any]:
        """The cleaned filters, or none at all when the form is invalid."""
        if not self.is_valid():
            return {"game": None, "start": None, "end": None}
        data = self.cleaned_data
        return {"game": data.get("game") or None, "start": data.get("start"), "end": data.get("end")}


def day_text(day: date) -> str:
    return date_format(day, "j M Y")


class StandingsForm(PeriodForm):
    """The standings' period (this month, this season, all time or the dates given) and the minimum number of
    games to be ranked. The club's today and its current season are given by the view, so "this month" and
    "this season" mean the same to every member; with no season set, that choice says so and is refused."""

    ALL, MONTH, SEASON, DATES = "all", "month", "season", "dates"
    MINIMUM_MAX = 10_000

    period = forms.ChoiceField(required=False, label=_("Period"))
    minimum = WholeNumberField(
        required=False, min_value=0, max_value=MINIMUM_MAX, label=_("At least"),
        help_text=_("Games to be ranked (hands, or matches where matches are counted); fewer: listed as not yet "
                    "ranked."),
        widget=forms.NumberInput(attrs={"min": 0, "max": MINIMUM_MAX, "inputmode": "numeric"}))

    def __init__(self, *args: Any, today: date, season: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.today, self.season = today, season
        this_season = (gettext("This season (%(name)s: %(start)s to %(end)s)") % {
            "name": season.name, "start": day_text(season.starts), "end": day_text(season.ends)}
            if season is not None else gettext("This season (no season is set)"))
        self.fields["period"].choices = [
            (self.ALL, gettext("All time")),
            (self.MONTH, gettext("This month (%(month)s)") % {"month": date_format(today, "YEAR_MONTH_FORMAT")}),
            (self.SEASON, this_season), (self.DATES, gettext("The dates below")),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = data.get("period") or (self.DATES if data.get("start") or data.get("end") else self.ALL)
        if chosen == self.SEASON and self.season is None:
            raise forms.ValidationError(_("No season is set: the club's admins set seasons. Choose another period."))
        data["period"] = chosen
        return data

    def filters(self) -> dict[str, Any]:
        """The period as days (`start`, `end`, either open), its name, and the minimum; for an invalid form,
        all time and no minimum (the errors are shown with the form)."""
        if not self.is_valid():  # the game asked for stays, if there is one: the errors show on its page
            asked = self.data.get("game")
            return {"game": asked if registry.known(asked) else None, "start": None, "end": None, "minimum": 0,
                    "period": self.ALL}
        data = self.cleaned_data
        chosen = data["period"]
        start, end = data.get("start"), data.get("end")
        if chosen == self.ALL:
            start = end = None
        elif chosen == self.MONTH:
            start, end = self.today.replace(day=1), None
        elif chosen == self.SEASON:
            start, end = self.season.starts, self.season.ends
        return {"game": data.get("game") or None, "start": start, "end": end, "minimum": data.get("minimum") or 0,
                "period": chosen}


def seat_fields(form: forms.Form, prefix: str, count: int, *, required: int = 0, label: Any = None) -> None:
    """`count` member boxes named `<prefix>_1`..., one per seat in order; the first `required` must be filled."""
    word = label if label is not None else _("Seat")
    for number in range(1, count + 1):
        form.fields[f"{prefix}_{number}"] = MemberField(
            required=number <= required, label=f"{word} {number}",
            help_text=_("Username, display name or email.") if number == 1 else "",
        )


def seated(data: dict[str, Any], prefix: str, count: int) -> list[Any]:
    """The members chosen in the seat boxes, in seat order, empty boxes left out."""
    return [data[f"{prefix}_{n}"] for n in range(1, count + 1) if data.get(f"{prefix}_{n}") is not None]


class SheepsheadResultForm(forms.Form):
    KIND_CHOICES = [("hand", _("A picked hand")), ("leaster", _("A leaster (nobody picked)"))]
    SEATS = 7

    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES, widget=forms.RadioSelect, initial="hand")
    picker = MemberField(required=False, label=_("Picker"), help_text=_("The picker: username, display name or email."))
    partner = MemberField(required=False, label=_("Partner"),
        help_text=_("The partner; empty if the picker played alone."))
    picker_points = forms.CharField(
        required=False, max_length=10, label=_("Picker's points"),
            help_text=_("Points taken by the picker's side, with the bury (0 to 120).")
    )
    leaster_points = forms.CharField(
        required=False, max_length=100, label=_("Leaster points"),
        help_text=_("Leaster: each player's points in the same order (the blind counts with the last trick)."),
    )
    leaster_tricks = forms.CharField(
        required=False, max_length=100, label=_("Leaster tricks"),
            help_text=_("Leaster: each player's tricks, same order.")
    )
    stake_cents = WholeNumberField(initial=100, label=_("Stake (cents)"))
    played_on = ClubDayField(required=False, label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"}),
                                help_text=_("Empty: today."))
    note = forms.CharField(required=False, max_length=200, label=_("Note"))
    field_order = ["kind", *(f"player_{n}" for n in range(1, SEATS + 1))]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seat_fields(self, "player", self.SEATS, label=_("Player"))
        self.order_fields(self.field_order)

    def clean(self) -> dict[str, Any]:
        """Refuses fields the chosen kind has no use for, naming them, rather than recording the kind and silently
        dropping what else was typed (a leaster with a picker's points, a picked hand with leaster scores)."""
        data = super().clean()
        leaster = data.get("kind") == "leaster"
        unused = ["picker", "partner", "picker_points"] if leaster else ["leaster_points", "leaster_tricks"]
        named = [self.fields[name].label for name in unused if str(self.data.get(self.add_prefix(name)) or "").strip()]
        if named and leaster:
            raise forms.ValidationError(gettext("A leaster has no picker: leave %(fields)s empty, or choose "
                                                "“%(kind)s”.") % {"fields": field_list(named),
                                                                  "kind": self.KIND_CHOICES[0][1]})
        if named:
            raise forms.ValidationError(gettext("A picked hand is no leaster: leave %(fields)s empty, or choose "
                                                "“%(kind)s”.") % {"fields": field_list(named),
                                                                  "kind": self.KIND_CHOICES[1][1]})
        return data

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        common = {
            "players": seated(data, "player", self.SEATS), "stake_cents": data["stake_cents"],
            "played_on": data.get("played_on"), "note": data.get("note", ""),
        }
        if data["kind"] == "leaster":
            return {**common, "points": split_words(data["leaster_points"]),
                    "tricks": split_words(data["leaster_tricks"])}
        return {**common, "picker": data["picker"] or "", "partner": data["partner"],
                "picker_points": data["picker_points"]}


BONUS_WORDS = {
    "heavy": (pgettext_lazy("Hawk bonus", "heavy"), _("a trick of more than 9 pips per player")),
    "four_suits": (pgettext_lazy("Hawk bonus", "four suits"), _("the same number in all four suits in one trick")),
    "straight": (pgettext_lazy("Hawk bonus", "straight"), _("four consecutive numbers of one suit in one trick")),
}
"""Hawk's bonus kinds (rules.engine.hawk.BONUS_KINDS: its keys, and its English words) in the reader's language:
the engine's words stay English (it has no gettext), so the forms name them here. A test holds the two together."""

BONUS_NAMES = [(kind, name) for kind, (name, _words) in BONUS_WORDS.items()]
"""The kinds by their short names ("heavy"), for the night's sheet, where a row has little room."""

BONUS_CHOICES = [(kind, format_lazy("{}: {}", name, words)) for kind, (name, words) in BONUS_WORDS.items()]
"""The kinds with what each means ("heavy: a trick of more than 9 pips per player"), for the admin's forms."""


class HawkResultForm(forms.Form):
    SEATS = 6

    lafh_1 = MemberField(label=_("LAFH"),
        help_text=_("Who took the first trick (with 2 or 3 players: the last trick)."))
    lafh_2 = MemberField(required=False, label=_("LAFH (last trick)"),
                         help_text=_("Who took the last trick; empty if the same player took both (solo)."))
    solo = forms.BooleanField(required=False, label=_("Solo"),
        help_text=_("One player took the first and the last trick (4-6 players)."))
    lafh_pips = forms.CharField(max_length=10, label=_("LAFH pips"))
    nob_pips = forms.CharField(
        required=False, max_length=10, label=_("NOB pips"),
            help_text=_("May stay empty with 4 or 5 players (220 in all).")
    )
    lafh_bonuses = forms.MultipleChoiceField(
        required=False, choices=BONUS_CHOICES, widget=forms.CheckboxSelectMultiple, label=_("Bonus kinds shown by LAFH")
    )
    nob_bonuses = forms.MultipleChoiceField(
        required=False, choices=BONUS_CHOICES, widget=forms.CheckboxSelectMultiple, label=_("Bonus kinds shown by NOB")
    )
    played_on = ClubDayField(required=False, label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"}),
                                help_text=_("Empty: today."))
    note = forms.CharField(required=False, max_length=200, label=_("Note"))
    field_order = [f"player_{n}" for n in range(1, SEATS + 1)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seat_fields(self, "player", self.SEATS, label=_("Player"))
        self.order_fields(self.field_order)

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "players": seated(data, "player", self.SEATS), "lafh": seated(data, "lafh", 2), "solo": data["solo"],
            "lafh_pips": data["lafh_pips"], "nob_pips": data["nob_pips"] or None,
            "lafh_bonuses": data["lafh_bonuses"], "nob_bonuses": data["nob_bonuses"],
            "played_on": data.get("played_on"), "note": data.get("note", ""),
        }


class CorrectionForm(forms.Form):
    """One amount field per entry still standing (built from them), and the reason."""

    reason = forms.CharField(max_length=300, label=_("Reason"), widget=forms.TextInput(attrs={"size": 60}))

    def __init__(self, *args: Any, entries: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries
        for entry in entries:
            self.fields[f"amount_{entry.pk}"] = WholeNumberField(
                initial=entry.amount,
                label=gettext("%(name)s (seat %(number)s)") % {"name": entry.label, "number": entry.seat + 1},
                help_text=gettext("cents") if entry.unit == "cents" else gettext("points"),
            )

    def changes(self) -> dict[int, int]:
        """Only the entries whose amount was changed."""
        return {
            entry.pk: self.cleaned_data[f"amount_{entry.pk}"]
            for entry in self.entries
            if self.cleaned_data[f"amount_{entry.pk}"] != entry.amount
        }
