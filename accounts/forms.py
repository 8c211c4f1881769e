"""Forms for the member's own details."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.models import User

NAME_TAKEN_MEANWHILE = _("Another member has just taken a name that reads like this one; choose another.")


def _clean_display_name(value: str, *, member: User | None) -> str:
    """Refused: symbols only, invisible or direction-changing characters, a name kept for the club, a name that
    reads like another member's (accounts.names). A member keeps the name they have, even one from before."""
    name = " ".join(value.split())
    if name and not any(ch.isalnum() for ch in name):
        raise forms.ValidationError(_("A display name needs at least one letter or digit."))
    if member is not None and name == member.display_name:
        return name
    if name:
        problem = names.display_name_problem(name, member_id=member.pk if member is not None else None)
        if problem:
            raise forms.ValidationError(problem)
    elif member is not None and names.reads_like_another(member.username, member_id=member.pk):
        raise forms.ValidationError(_("Another member is shown by a name that reads like your username; keep a "
                                      "display name."))
    return name


class SignupExtraForm(forms.Form):
    """Allauth's sign-up form asks for this too (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=40, required=False,
        help_text=_("Shown at tables. Leave empty to use your username."),
    )

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"], member=None)

    def signup(self, request: object, user: User) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name", "time_zone", "turn_sound", "language", "auto_play_forced", "premoves", "trick_pause",
            "card_sounds", "live_turn_notices",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A post without the zone (a page from before it was on the form) keeps the member's, not an error.
        self.fields["time_zone"].required = False
        self.fields["trick_pause"].required = False

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"], member=self.instance)

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self.instance.time_zone

    def clean_trick_pause(self) -> str:
        return self.cleaned_data["trick_pause"] or self.instance.trick_pause


class TurnSoundForm(forms.Form):
    """The table page's toggle. It names the value wanted ("on" or "off") rather than asking for a flip, so a
    double click or a replayed form leaves the preference where the member put it."""

    turn_sound = forms.ChoiceField(choices=[("on", _("On")), ("off", _("Off"))])

    def save(self, user: User) -> bool:
        user.turn_sound = self.cleaned_data["turn_sound"] == "on"
        user.save(update_fields=["turn_sound"])
        return user.turn_sound


class EmailNoticesForm(forms.ModelForm):
    """Which of the club's emails about correspondence tables the member wants (tables.notices sends them). Every
    field is required: a post without one is a broken form, refused, never read as "off"."""

    class Meta:
        model = User
        fields = ["turn_emails", "deadline_emails", "match_emails"]
