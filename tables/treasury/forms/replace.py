"""The form that replaces a recorded in-person hand: the hand's facts again, members chosen by name (MemberField),
filled in from the record it replaces. It only parses; whether the hand makes sense is the recording services'."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.fields import MemberField
from tables.ledger.forms import BONUS_CHOICES
from tables.models import InPersonRecord
from tables.play.request_dates import ClubDayField
from tables.play.request_numbers import WholeNumberField

Kind = InPersonRecord.Kind
SEATS = {"sheepshead": 7, "hawk": 6}


def _number(label: Any, **attrs: Any) -> WholeNumberField:
    return WholeNumberField(required=False, label=label,
                            widget=forms.NumberInput(attrs={"inputmode": "numeric", **attrs}))


class ReplaceForm(forms.Form):
    """Seats 1..n (a member each; a leaster's points and tricks beside them), then the hand's other facts."""

    kind = forms.ChoiceField(label=_("What was played"), widget=forms.RadioSelect)
    picker = MemberField(required=False, by_email=True, label=_("Picker"))
    partner = MemberField(required=False, by_email=True, label=_("Partner"),
        help_text=_("Empty: the picker played alone."))
    picker_points = _number(_("Picker's points"), min=0, max=120)
    stake_cents = WholeNumberField(required=False, label=_("Stake (cents)"), initial=100)
    lafh_1 = MemberField(required=False, label=_("LAFH"))
    lafh_2 = MemberField(required=False, label=_("LAFH (second)"),
        help_text=_("Empty when one player took both tricks."))
    solo = forms.BooleanField(required=False, label=_("Solo"),
        help_text=_("One player took the first and the last trick (4-6 players)."))
    lafh_pips = _number(_("LAFH pips"), min=0, max=220)
    nob_pips = _number(_("NOB pips"), min=0, max=220)
    lafh_bonuses = forms.MultipleChoiceField(required=False, choices=BONUS_CHOICES,
                                             widget=forms.CheckboxSelectMultiple, label=_("Bonus kinds shown by LAFH"))
    nob_bonuses = forms.MultipleChoiceField(required=False, choices=BONUS_CHOICES,
                                            widget=forms.CheckboxSelectMultiple, label=_("Bonus kinds shown by NOB"))
    played_on = ClubDayField(label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    note = forms.CharField(required=False, max_length=200, label=_("Note"))
    reason = forms.CharField(required=False, max_length=300, label=_("Reason"),
        widget=forms.TextInput(attrs={"size": 60}),
                             help_text=_("Why the recorded hand was wrong; it stays in the ledger with your name."))

    SHEEPSHEAD_ONLY = ("picker", "partner", "picker_points", "stake_cents")
    HAWK_ONLY = ("lafh_1", "lafh_2", "solo", "lafh_pips", "nob_pips", "lafh_bonuses", "nob_bonuses")

    def __init__(self, *args: Any, record: InPersonRecord, **kwargs: Any) -> None:
        kwargs.setdefault("initial", initial_from(record))
        super().__init__(*args, **kwargs)
        self.record = record
        self.game = record.game
        seats = SEATS.get(self.game, 7)
        for gone in (self.HAWK_ONLY if self.game == "sheepshead" else self.SHEEPSHEAD_ONLY):
            del self.fields[gone]
        if self.game == "sheepshead":
            self.fields["kind"].choices = [(Kind.SHEEPSHEAD_HAND, _("A picked hand")),
                                           (Kind.SHEEPSHEAD_LEASTER, _("A leaster (nobody picked)"))]
        else:
            self.fields["kind"].choices = [(Kind.HAWK_ROUND, _("A Hawk round"))]
            self.fields["kind"].widget = forms.HiddenInput()
        for n in range(1, seats + 1):
            self.fields[f"seat_{n}"] = MemberField(required=False, label=gettext("Seat %(number)s") % {"number": n})
            if self.game == "sheepshead":
                self.fields[f"points_{n}"] = _number(gettext("Seat %(number)s: leaster points") % {"number": n},
                    min=0, max=120)
                self.fields[f"tricks_{n}"] = _number(gettext("Seat %(number)s: leaster tricks") % {"number": n},
                    min=0, max=10)
        self.seat_numbers = list(range(1, seats + 1))

    def seat_rows(self) -> list[tuple[Any, Any, Any]]:
        """(member box, points box, tricks box) per seat, for the template's table (points and tricks: Sheepshead)."""
        sheepshead = self.game == "sheepshead"
        return [(self[f"seat_{n}"], self[f"points_{n}"] if sheepshead else None,
                 self[f"tricks_{n}"] if sheepshead else None) for n in self.seat_numbers]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        filled = [n for n in self.seat_numbers if data.get(f"seat_{n}") is not None]
        if not filled and not any(self.has_error(f"seat_{n}") for n in self.seat_numbers):
            raise forms.ValidationError(_("Name the players, one per seat."))
        if data.get("kind") == Kind.SHEEPSHEAD_LEASTER:
            for n in filled:
                if data.get(f"points_{n}") is None or data.get(f"tricks_{n}") is None:
                    self.add_error(f"seat_{n}", _("A leaster needs this player's points and tricks."))
        data["filled"] = filled
        return data

    def service_call(self) -> tuple[str, dict[str, Any]]:
        """The kind of record and the keyword arguments of the service that records it (members by username)."""
        data = self.cleaned_data
        kind = data["kind"]
        seats = data["filled"]
        common = {"players": [data[f"seat_{n}"].username for n in seats], "played_on": data.get("played_on"),
                  "note": data.get("note") or ""}

        def name(key: str) -> str:
            return data[key].username if data.get(key) is not None else ""

        if kind == Kind.SHEEPSHEAD_HAND:
            return kind, {**common, "picker": name("picker"), "partner": name("partner") or None,
                          "picker_points": "" if data.get("picker_points") is None else data["picker_points"],
                          "stake_cents": _stake(data)}
        if kind == Kind.SHEEPSHEAD_LEASTER:
            return kind, {**common, "points": [data[f"points_{n}"] for n in seats],
                          "tricks": [data[f"tricks_{n}"] for n in seats], "stake_cents": _stake(data)}
        lafh = [u for u in (name("lafh_1"), name("lafh_2")) if u]
        return kind, {**common, "lafh": lafh, "solo": data.get("solo", False),
                      "lafh_pips": "" if data.get("lafh_pips") is None else data["lafh_pips"],
                      "nob_pips": data.get("nob_pips"), "lafh_bonuses": data.get("lafh_bonuses") or [],
                      "nob_bonuses": data.get("nob_bonuses") or []}


def _stake(data: dict[str, Any]) -> Any:
    return "" if data.get("stake_cents") is None else data["stake_cents"]


def initial_from(record: InPersonRecord) -> dict[str, Any]:
    """The record's facts as the form's starting values."""
    facts = record.facts or {}
    initial: dict[str, Any] = {"kind": record.kind, "played_on": record.played_on, "note": record.note}
    for n, username in enumerate(facts.get("players") or [], start=1):
        initial[f"seat_{n}"] = username
    if record.kind == Kind.SHEEPSHEAD_HAND:
        initial.update(picker=facts.get("picker") or "", partner=facts.get("partner") or "",
                       picker_points=facts.get("picker_points"), stake_cents=facts.get("stake_cents"))
    elif record.kind == Kind.SHEEPSHEAD_LEASTER:
        initial["stake_cents"] = facts.get("stake_cents")
        for n, (points, tricks) in enumerate(zip(facts.get("points") or [], facts.get("tricks") or [], strict=False),
                                             start=1):
            initial[f"points_{n}"], initial[f"tricks_{n}"] = points, tricks
    elif record.kind == Kind.HAWK_ROUND:
        lafh = list(facts.get("lafh") or [])
        initial.update(lafh_1=lafh[0] if lafh else "", lafh_2=lafh[1] if len(lafh) > 1 else "",
                       solo=bool(facts.get("solo")), lafh_pips=facts.get("lafh_pips"), nob_pips=facts.get("nob_pips"),
                       lafh_bonuses=facts.get("lafh_bonuses") or [], nob_bonuses=facts.get("nob_bonuses") or [])
    return initial
