"""The quick-play form: a game, a player count or "any", a band, the wait before bots, house rules.

The house-rule fields are built exactly as the new-table form builds them (from the game's spec),
except the option a band sets (the spec's `band_option`: a stake, a target, a length).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.engine.api import GameSpec
from tables.i18n import say
from tables.play.forms import NewTableForm, choose_game, players_text
from tables.quickplay.services.matchmaking import BAND_NAMES

ANY = "any"
# Not the new-table form's "opt_": both forms are on the lobby page, and a name belongs to one form.
OPTION_PREFIX = "quick_opt_"
# The defaults seat the members who are there: any table size the game allows, and bots in the seats left after a
# short wait, so two members of a small club who ask for Sheepshead play together within half a minute.
DEFAULT_BOTS_AFTER = "30"
BOTS_AFTER_CHOICES = [
    ("", _("Never: members only")),
    ("30", _("After 30 seconds")),
    ("60", _("After 1 minute")),
    ("120", _("After 2 minutes")),
    ("300", _("After 5 minutes")),
]


class QuickPlayForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=[])
    players = forms.ChoiceField(label=_("Players"), choices=[])
    band = forms.ChoiceField(choices=[], required=False)
    bots_after = forms.ChoiceField(
        label=_("Play with bots"), choices=BOTS_AFTER_CHOICES, required=False, initial=DEFAULT_BOTS_AFTER,
        help_text=_("If not enough members come, bots take the empty seats after this wait."),
    )

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "quick_%s")  # the lobby's new-table form uses the default ids
        super().__init__(*args, **kwargs)
        self.spec: GameSpec = choose_game(self, game)
        counts = [(str(n), players_text(n)) for n in range(self.spec.min_players, self.spec.max_players + 1)]
        if len(counts) > 1:
            counts.insert(0, (ANY, gettext("Any number")))
        self.fields["players"].choices = counts
        self.fields["players"].initial = counts[0][0]  # "any": whoever is there is seated (issue 41)
        game_bands = self.spec.bands
        if game_bands:
            self.fields["band"].choices = [("", gettext("Any")), *[(b.key, say(b.label)) for b in game_bands]]
            self.fields["band"].initial = game_bands[0].key
            names = BAND_NAMES.get(self.spec.band_name)
            self.fields["band"].label = str(names[0]) if names is not None else self.spec.band_name.capitalize()
        else:
            del self.fields["band"]
        for option in self.spec.options:
            if option.name != self.spec.band_option:
                field = NewTableForm._field_for(option)
                field.required = False  # left out: the game's default
                self.fields[OPTION_PREFIX + option.name] = field

    def request_kwargs(self) -> dict[str, Any]:
        """What `matchmaking.enqueue` takes, from the cleaned data."""
        data = self.cleaned_data
        players = data["players"]
        bots_after = data.get("bots_after") or ""
        return {
            "game": data["game"],
            "players": None if players == ANY else int(players),
            "band": data.get("band") or "",
            "options": {
                k.removeprefix(OPTION_PREFIX): v for k, v in data.items()
                if k.startswith(OPTION_PREFIX) and v not in (None, "")
            },
            "bots_after_seconds": int(bots_after) if bots_after else None,
        }

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]
