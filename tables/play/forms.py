"""The new-table form: its option fields come from the game's spec in the registry."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.engine import registry
from rules.engine.api import GameSpec
from tables.i18n import say
from tables.models import Table
from tables.models.play import default_bot_speed
from tables.play.correspondence import move_hours_text
from tables.play.pace import GRACE_RANGE, MOVE_HOURS_CHOICES
from tables.play.request_numbers import WholeNumberField
from tables.play.services.tables import TURN_SECONDS_RANGE

OPTION_PREFIX = "opt_"
DEFAULT_GRACE = 15


def choose_game(form: forms.Form, game: str | None) -> GameSpec:
    """Fill a form's `game` choices and pick its game: the posted one, else the one asked for, else the first."""
    specs = registry.all_specs()
    form.fields["game"].choices = [(spec.key, say(spec.title)) for spec in specs]
    chosen = game if registry.known(game) else specs[0].key
    if form.is_bound and registry.known(form.data.get("game")):
        chosen = form.data["game"]
    form.fields["game"].initial = chosen
    return registry.spec(chosen)


def move_hours_choices() -> list[tuple[str, str]]:
    return [("0", _("Live: everyone at the table now")),
            *((str(hours), _("Correspondence: %(pace)s") % {"pace": move_hours_text(hours)})
              for hours in MOVE_HOURS_CHOICES)]


def players_text(count: int) -> str:
    """A choice of player count ("4 players"), in the active language."""
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


class NewTableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=[])
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, choices=[])
    move_hours = forms.TypedChoiceField(
        label=_("How the table plays"), coerce=int, choices=move_hours_choices, initial="0", required=False,
        empty_value=0,
        help_text=_("A correspondence table is played across days: each player has that long for each move, and "
                    "the bot plays a move whose time ran out. You may play at several at once."),
    )
    missed_move = forms.ChoiceField(
        label=_("When a player's time for a move runs out"), choices=Table.MissedMove.choices,
        initial=Table.MissedMove.BOT_MOVES, required=False,
    )
    turn_seconds = WholeNumberField(
        label=_("Seconds per turn"), initial=60, min_value=TURN_SECONDS_RANGE[0], max_value=TURN_SECONDS_RANGE[1],
        help_text=_("When time runs out, a bot plays that turn."),
    )
    bot_speed = forms.ChoiceField(
        # preselected from the setting each time the form is made, so the club's TABLE_BOT_SPEED applies to tables
        # made in the browser too (a fixed `normal` here overrode it: whatever the page shows is posted back)
        label=_("Bot speed"), choices=Table.BotSpeed.choices, initial=default_bot_speed, required=False,
        help_text=_("How quickly bots play their cards, one at a time, so everyone sees each one."),
    )
    bot_level = forms.ChoiceField(
        label=_("Bots play"), choices=Table.BotLevel.choices, initial=Table.BotLevel.NORMAL, required=False,
        help_text=_("Easy bots follow simple habits; normal and strong ones think ahead about the cards they "
                    "cannot see, and take a moment to do it."),
    )
    grace_seconds = WholeNumberField(
        label=_("Seconds before a bot plays for an offline player"), initial=DEFAULT_GRACE,
        min_value=GRACE_RANGE[0], max_value=GRACE_RANGE[1], required=False,
        help_text=_("When a player's page has closed, the bot plays their turns after this."),
    )
    fill_with_bots = forms.BooleanField(  # on: a newcomer's first table starts (issue 41); untick to wait for members
        label=_("Fill the other seats with bots and start now"), required=False, initial=True,
        help_text=_("Untick it to wait for other members to sit down, or to invite them to a private table."),
    )
    private = forms.BooleanField(label=_("Private (not listed in the lobby; share the link)"), required=False)

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec: GameSpec = choose_game(self, game)
        self.fields["players"].choices = [
            (n, players_text(n)) for n in range(self.spec.min_players, self.spec.max_players + 1)
        ]
        self.fields["players"].initial = self.spec.default_players
        for option in self.spec.options:
            self.fields[OPTION_PREFIX + option.name] = self._field_for(option)

    @staticmethod
    def _field_for(option: Any) -> forms.Field:
        """A house rule's field, its words (the engine's `Said` label, help and choices) in the active language."""
        label, help_text = say(option.label), say(option.help)
        if option.kind == "choice":
            return forms.ChoiceField(label=label, choices=[(value, say(text)) for value, text in option.choices],
                                     initial=option.default, help_text=help_text)
        if option.kind == "bool":
            return forms.BooleanField(label=label, required=False, initial=option.default, help_text=help_text)
        return WholeNumberField(label=label, initial=option.default, min_value=option.minimum,
                                max_value=option.maximum, help_text=help_text)

    def table_settings(self) -> dict[str, Any]:
        """How the table runs, besides the game's house rules (for tables.play.services.tables.create_table)."""
        data = self.cleaned_data
        return {
            "turn_seconds": data["turn_seconds"], "move_hours": data.get("move_hours") or 0,
            "missed_move": data.get("missed_move") or Table.MissedMove.BOT_MOVES,
            "private": data["private"], "fill_with_bots": data["fill_with_bots"],
            "bot_speed": data.get("bot_speed") or None,  # not given: the club's default
            "bot_level": data.get("bot_level") or Table.BotLevel.NORMAL,  # not given (an old page): normal
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
