"""The new-table form: its option fields come from the game's spec in the registry."""

from __future__ import annotations

from typing import Any

from django import forms

from rules.engine import registry
from rules.engine.api import GameSpec
from tables.play.request_numbers import WholeNumberField
from tables.play.services.tables import TURN_SECONDS_RANGE

OPTION_PREFIX = "opt_"


def choose_game(form: forms.Form, game: str | None) -> GameSpec:
    """Fill a form's `game` choices and pick its game: the posted one, else the one asked for, else the first."""
    specs = registry.all_specs()
    form.fields["game"].choices = [(spec.key, spec.title) for spec in specs]
    chosen = game if registry.known(game) else specs[0].key
    if form.is_bound and registry.known(form.data.get("game")):
        chosen = form.data["game"]
    form.fields["game"].initial = chosen
    return registry.spec(chosen)


class NewTableForm(forms.Form):
    game = forms.ChoiceField(choices=[])
    players = forms.TypedChoiceField(coerce=int, choices=[])
    turn_seconds = WholeNumberField(
        label="Seconds per turn", initial=60, min_value=TURN_SECONDS_RANGE[0], max_value=TURN_SECONDS_RANGE[1],
        help_text="When time runs out, a bot plays that turn.",
    )
    fill_with_bots = forms.BooleanField(
        label="Fill the other seats with bots and start now", required=False, initial=False
    )
    private = forms.BooleanField(label="Private (not listed in the lobby; share the link)", required=False)

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec: GameSpec = choose_game(self, game)
        self.fields["players"].choices = [
            (n, f"{n} players") for n in range(self.spec.min_players, self.spec.max_players + 1)
        ]
        self.fields["players"].initial = self.spec.default_players
        for option in self.spec.options:
            self.fields[OPTION_PREFIX + option.name] = self._field_for(option)

    @staticmethod
    def _field_for(option: Any) -> forms.Field:
        if option.kind == "choice":
            return forms.ChoiceField(label=option.label, choices=list(option.choices), initial=option.default,
                                     help_text=option.help)
        if option.kind == "bool":
            return forms.BooleanField(label=option.label, required=False, initial=option.default,
                                      help_text=option.help)
        return WholeNumberField(label=option.label, initial=option.default, min_value=option.minimum,
                                max_value=option.maximum, help_text=option.help)

    def game_options(self) -> dict[str, Any]:
        return {
            name.removeprefix(OPTION_PREFIX): value
            for name, value in self.cleaned_data.items()
            if name.startswith(OPTION_PREFIX)
        }

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]
