"""House rules of a club night of Sheepshead: the choices clubs make where the seed's text leaves room.

A night at the club's physical table is priced by the same public helpers as an online hand
(`settle`, `picker_rate`); these options only change which rate a hand's facts come to. Every
option's default is the seed's rule (RULES.md), so a night that names no house rule is priced
exactly as before. They are the night's options, not a table's: online play keeps the seed's rules.

- `schneider`: where the schneider line falls. The seed's table charges a picker with 30 points
  2 stakes (30 is not schneider) but pays a picker with 90 two stakes (the opponents' 30 is
  schneider); a club may make 30 schneider on both sides, or neither.
- `schwarz`: schwarz is taking no points (the seed's words: "all the points", "no points"), or
  taking no trick (a trick of no points then saves a side from schwarz, and a picker whose side
  took no trick is schwarz whatever the bury holds).
- `bump`: a losing picker pays double what a winner collects (the seed's -2/-4/-6 against
  +1/+2/+3), or the same (-1/-2/-3).
- `cracking`: whether a defender may double (crack) before the first lead, and the picker double
  again (re-crack); each doubles the hand's money.
- `dealer_sits_out`: with 6 or 7 at the night, the dealer of each hand sits out and the others
  play; the one sitting out neither pays nor collects.
- `players_change`: players join or leave during the night; each hand is played (and priced) by
  those at the table for it, and the others have no part in it. No rate changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.api import OptionSpec
from rules.engine.text import said

SCHNEIDER_SEED = "seed"
SCHNEIDER_30 = "thirty_or_less"
SCHNEIDER_29 = "under_thirty"
SCHWARZ_POINTS = "no_points"
SCHWARZ_TRICKS = "no_trick"
BUMP_DOUBLE = "double"
BUMP_SINGLE = "single"
MAX_CRACKS = 2  # cracked, then re-cracked by the picker
SIT_OUT_PLAYERS = (6, 7)  # a night this size may have each hand's dealer sit out (5 or 6 then play)

NIGHT_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        name="schneider",
        label=said("Schneider"),
        default=SCHNEIDER_SEED,
        help=said(
            "Where the schneider line falls. As written: a picker with 30 points loses 2 stakes (not "
            "schneider), and a picker with 90 wins 2 (the opponents' 30 is schneider)."
        ),
        choices=(
            (SCHNEIDER_SEED, said("As written: the picker needs 30, the opponents 31")),
            (SCHNEIDER_30, said("30 or fewer is schneider (each side needs 31)")),
            (SCHNEIDER_29, said("Fewer than 30 is schneider (each side needs 30)")),
        ),
    ),
    OptionSpec(
        name="schwarz",
        label=said("Schwarz"),
        default=SCHWARZ_POINTS,
        help=said(
            "When a side is schwarz (the picker wins or loses 3 rates): when it took no points, or "
            "when it took no trick. With no trick, the sheet asks of each hand whether the losing side "
            "took a trick."
        ),
        choices=(
            (SCHWARZ_POINTS, said("No points taken")),
            (SCHWARZ_TRICKS, said("No trick taken")),
        ),
    ),
    OptionSpec(
        name="bump",
        label=said("Losing picker"),
        default=BUMP_DOUBLE,
        help=said(
            "What a picker who loses pays each opponent: double what a winner collects (2, 4 or 6 "
            "stakes), or the same (1, 2 or 3 stakes)."
        ),
        choices=(
            (BUMP_DOUBLE, said("Pays double (2, 4, 6)")),
            (BUMP_SINGLE, said("Pays the same (1, 2, 3)")),
        ),
    ),
    OptionSpec(
        name="cracking",
        label=said("Cracking"),
        default=False,
        help=said(
            "A defender may crack (double the hand) before the first lead, and the picker may then "
            "re-crack (double it again); the sheet asks of each hand."
        ),
    ),
    OptionSpec(
        name="dealer_sits_out",
        label=said("Dealer sits out"),
        default=False,
        help=said(
            "With 6 or 7 players at the night, each hand's dealer sits out and the others play; the "
            "sheet asks who dealt, and the dealer's entry for that hand is 0."
        ),
    ),
    OptionSpec(
        name="players_change",
        label=said("Players come and go"),
        default=False,
        help=said(
            "Players may join or leave during the night: name everybody who sits down at some time, and each "
            "hand's row asks who was not at the table. They have no entry for that hand."
        ),
    ),
)
"""The night's house rules, as the open-sheet form, the night's pages and the rules page show them."""


@dataclass(frozen=True)
class HouseRules:
    """A night's house rules, checked; `HouseRules()` is the seed's rules."""

    schneider: str = SCHNEIDER_SEED
    schwarz: str = SCHWARZ_POINTS
    bump: str = BUMP_DOUBLE
    cracking: bool = False
    dealer_sits_out: bool = False
    players_change: bool = False

    def non_default(self) -> dict[str, Any]:
        """Only the rules that differ from the seed's, as a night stores them: a night of the seed's rules stores
        none, so its options read exactly as a night's did before house rules existed."""
        return {option.name: getattr(self, option.name) for option in NIGHT_OPTIONS
                if getattr(self, option.name) != option.default}


def option(name: str) -> OptionSpec:
    for spec in NIGHT_OPTIONS:
        if spec.name == name:
            return spec
    raise ValueError(f"Sheepshead has no house rule {name!r}")


def check_choice(name: str, value: object) -> str:
    """`value` if it is one of the house rule's choices, else a ValueError naming them."""
    choices = [choice for choice, _label in option(name).choices]
    if value not in choices:
        raise ValueError(f"{name} is one of {', '.join(choices)}, not {value!r}")
    return str(value)


def house_rules(options: Mapping[str, Any] | None) -> HouseRules:
    """The house rules among a night's options (a night's other options, such as its stake, are left alone); a
    rule the options do not name is the seed's. An unknown value is refused, never read as the default."""
    options = options or {}
    values: dict[str, Any] = {}
    for spec in NIGHT_OPTIONS:
        if spec.name not in options:
            continue
        value = options[spec.name]
        if spec.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{spec.name} is true or false, not {value!r}")
            values[spec.name] = value
        else:
            values[spec.name] = check_choice(spec.name, value)
    return HouseRules(**values)


def seat_money(*, night_players: int, playing: list[int], money: list[int],
               sitting_out: int | None = None) -> list[int | None]:
    """A hand's money laid out on the night's seats: each player's amount, 0 for the one sitting out (dealt, did
    not play), None for a seat whose player was not at the table for this hand (joined later or left earlier).

    `playing` lists the night's seats that played, in their play order, one per amount of `money`."""
    if len(playing) != len(money):
        raise ValueError("give one amount per player who played")
    if len(set(playing)) != len(playing) or not all(0 <= seat < night_players for seat in playing):
        raise ValueError(f"the players are distinct seats from 0 to {night_players - 1}")
    if sitting_out is not None and (sitting_out in playing or not 0 <= sitting_out < night_players):
        raise ValueError("the player sitting out is another seat of the night")
    laid: list[int | None] = [None] * night_players
    for seat, amount in zip(playing, money, strict=True):
        laid[seat] = amount
    if sitting_out is not None:
        laid[sitting_out] = 0
    return laid
