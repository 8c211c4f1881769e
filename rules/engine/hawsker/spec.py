"""Hawsker's table facts in one place, so the rules page, the engine and the tests agree on them."""

from __future__ import annotations

from rules.engine.api import Band, Config, GameSpec, OptionSpec
from rules.engine.text import said

PLAYERS = 2
HAND_SIZE = 8  # every round deals each hand back up to this
FIRST_DISCARDS = 2  # face down, before pegging
PLAYS_EACH = 5  # pegging ends after this many plays by each player
TARGET = 100
SHORT_TARGET = 50

SPEC = GameSpec(
    key="hawsker",
    title="Hawsker",
    min_players=2,
    max_players=2,
    default_players=2,
    unit="points",
    options=(
        OptionSpec(
            name="short",
            label=said("Short game"),
            default=False,
            help=said("Play to 50 points instead of 100."),
        ),
    ),
    blurb=said(
        "A two-player pegging game invented in a caravan in Whitby: lay cards that follow suit, "
        "are kings or make 13 with the top card, then score your hand cribbage style. First to 100."
    ),
    ranked_by="matches",  # played to a target: matches won count, not points summed over hands
    band_option="short",
    bands=(Band("standard", said("To 100 points"), False), Band("short", said("Short game: to 50 points"), True)),
)


def target(config: Config) -> int:
    """The points that end the match."""
    return SHORT_TARGET if config.get("short") else TARGET
