"""The table's house rules for Sheepshead, as the lobby, the rules page and the engine read them."""

from __future__ import annotations

from rules.engine.api import Band, GameSpec, OptionSpec
from rules.engine.match import ROUNDS_OPTION
from rules.engine.text import said

PARTNER_JD = "jack_of_diamonds"
PARTNER_NONE = "none"

SPEC = GameSpec(
    key="sheepshead",
    title="Sheepshead",
    min_players=3,
    max_players=7,
    default_players=5,
    unit="cents",
    options=(
        OptionSpec(
            name="partner",
            label=said("Partner"),
            default=PARTNER_JD,
            help=said(
                "With 5 or more players, whoever holds the jack of diamonds after the bury is the "
                "picker's secret partner; with 3 or 4 players the picker always plays alone."
            ),
            choices=((PARTNER_JD, said("Jack of diamonds")),
                     (PARTNER_NONE, said("None: the picker always plays alone"))),
        ),
        OptionSpec(
            name="no_pick",
            label=said("When nobody picks"),
            default="leaster",
            help=said(
                "What happens when everybody passes: a leaster, where the fewest points (with at "
                "least one trick taken) wins one stake from every other player."
            ),
            choices=(("leaster", said("Leaster")),),
        ),
        OptionSpec(
            name="stake_cents",
            label=said("Stake (cents)"),
            default=100,
            help=said("What one opponent pays at rate 1, in cents; the other rates are multiples of it."),
            minimum=5,
            maximum=10000,
            unit="cents",
        ),
        ROUNDS_OPTION,
    ),
    blurb=said(
        "Wisconsin's trick-taking game: queens and jacks are trump, one player picks up the blind "
        "and, with a secret partner, tries to take 61 of the 120 points."
    ),
    band_option="stake_cents",
    bands=(
        Band("standard", said("Club stakes: $1.00"), 100),
        Band("low", said("Low stakes: 10¢"), 10),
        Band("high", said("High stakes: $5.00"), 500),
    ),
    band_name="stake",
)
