"""Forms for the member's own details."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


def _clean_display_name(value: str) -> str:
    name = " ".join(value.split())
    if name and not any(ch.isalnum() for ch in name):
        raise forms.ValidationError(_("A display name needs at least one letter or digit."))
    return name


class SignupExtraForm(forms.Form):
    """Allauth's sign-up form asks for this too (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=40, required=False,
        help_text=_("Shown at tables. Leave empty to use your username."),
    )

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])

    def signup(self, request: object, user: User) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "turn_sound", "language"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A post without the zone (a page from before it was on the form) keeps the member's, not an error.
        self.fields["time_zone"].required = False

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self.instance.time_zone


class TurnSoundForm(forms.Form):
    """The table page's toggle. It names the value wanted ("on" or "off") rather than asking for a flip, so a
    double click or a replayed form leaves the preference where the member put it."""

    turn_sound = forms.ChoiceField(choices=[("on", _("On")), ("off", _("Off"))])

    def save(self, user: User) -> bool:
        user.turn_sound = self.cleaned_data["turn_sound"] == "on"
        user.save(update_fields=["turn_sound"])
        return user.turn_sound
