"""Hawk's entry in the club's list of games: players, unit and the table's house rules."""

from __future__ import annotations

from rules.engine.api import GameSpec, OptionSpec
from rules.engine.match import ROUNDS_OPTION
from rules.engine.text import said

BONUS_PER_TRICK = OptionSpec(
    name="bonus_per_trick",
    label=said("Count every bonus trick"),
    default=False,
    help=said(
        "Off: each bonus kind counts at most once per side in a round. "
        "On: every trick showing a bonus kind counts (+1 for LAFH, -1 for NOB)."
    ),
)

SPEC = GameSpec(
    key="hawk",
    title="Hawk",
    min_players=2,
    max_players=6,
    default_players=4,
    unit="points",
    options=(BONUS_PER_TRICK, ROUNDS_OPTION),
    blurb=said(
        "A trick game with forty number cards where every suit trumps one other. Whoever takes "
        "the first and the last trick play together (LAFH) against the rest (NOB), and only LAFH scores."
    ),
)
