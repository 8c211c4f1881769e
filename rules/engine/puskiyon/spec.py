"""What a Puskiyon table can choose, in one place the lobby, the rules page and the engine share."""

from __future__ import annotations

from rules.engine.api import Band, GameSpec, OptionSpec
from rules.engine.text import said

KEY = "puskiyon"

TARGET_OPTION = OptionSpec(
    name="target",
    label=said("Game ends at"),
    default=200,
    help=said("The game ends after the hand in which somebody's total reaches this many points; "
              "the lowest total wins."),
    minimum=20,
    maximum=1000,
)

SPEC = GameSpec(
    key=KEY,
    title="Puskiyon",
    min_players=2,
    max_players=6,
    default_players=4,
    unit="points",
    options=(TARGET_OPTION,),
    blurb=said("Shed your hand by matching the top card's rank or suit; the cards you are left holding "
               "count against you, and the lowest total wins."),
    lower_is_better=True,  # the points are the cards left in hand: fewer wins
    ranked_by="matches",  # played to a target: matches won count, not points summed over hands
    band_option="target",
    bands=(
        Band("standard", said("Game ends at 200"), 200),
        Band("short", said("Short: ends at 100"), 100),
        Band("long", said("Long: ends at 400"), 400),
    ),
)


def hand_size(players: int) -> int:
    """Cards dealt to each player: 7 in a two-player game, 5 otherwise."""
    return 7 if players == 2 else 5
