"""The new-table form: its option fields come from the game's spec in the registry."""

from __future__ import annotations

from typing import Any

from django import forms

from rules.engine import registry
from rules.engine.api import GameSpec
from tables.models import Table
from tables.play.pace import GRACE_RANGE
from tables.play.request_numbers import WholeNumberField
from tables.play.services.tables import TURN_SECONDS_RANGE

OPTION_PREFIX = "opt_"
DEFAULT_GRACE = 15


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
    bot_speed = forms.ChoiceField(
        label="Bot speed", choices=Table.BotSpeed.choices, initial=Table.BotSpeed.NORMAL, required=False,
        help_text="How quickly bots play their cards, one at a time, so everyone sees each one.",
    )
    grace_seconds = WholeNumberField(
        label="Seconds before a bot plays for an offline player", initial=DEFAULT_GRACE, min_value=GRACE_RANGE[0],
        max_value=GRACE_RANGE[1], required=False,
        help_text="When a player's page has closed, the bot plays their turns after this.",
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

    def table_settings(self) -> dict[str, Any]:
        """How the table runs, besides the game's house rules (for tables.play.services.tables.create_table)."""
        data = self.cleaned_data
        return {
            "turn_seconds": data["turn_seconds"], "private": data["private"], "fill_with_bots": data["fill_with_bots"],
            "bot_speed": data.get("bot_speed") or None,  # not given: the club's default
            "grace_seconds": data["grace_seconds"] if data.get("grace_seconds") is not None else DEFAULT_GRACE,
        }

    def game_options(self) -> dict[str, Any]:
        return {
            name.removeprefix(OPTION_PREFIX): value
            for name, value in self.cleaned_data.items()
            if name.startswith(OPTION_PREFIX)
        }

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]
